import Foundation

/// Makes a property list whose root is a scalar out of one whose root is a one-element array.
///
/// `PropertyListEncoder` refuses top-level scalars although the format allows them (Apple's and
/// Python's readers accept them). Encoding `[value]` and lifting the element keeps Foundation's
/// exact writing of the scalar itself.
enum PropertyListFragment {
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    static func liftSingleElement(of wrapped: Data, binary: Bool) throws -> Data {
        binary ? try liftBinary(Array(wrapped)) : try liftXML(Array(wrapped))
    }

    /// XML: drop the `<array>` element around the single child and its one-tab indent.
    private static func liftXML(_ bytes: [UInt8]) throws -> Data {
        let open = Array("<plist version=\"1.0\">\n<array>\n\t".utf8)
        let close = Array("\n</array>\n</plist>\n".utf8)
        guard let openEnd = ByteSearch.end(of: open, in: bytes, from: 0), bytes.count >= close.count,
              Array(bytes.suffix(close.count)) == close, openEnd <= bytes.count - close.count
        else {
            throw Malformed(description: "unexpected XML property list layout from PropertyListEncoder")
        }
        var lifted = Array(bytes[..<(openEnd - open.count)])
        lifted += Array("<plist version=\"1.0\">\n".utf8)
        lifted += bytes[openEnd..<(bytes.count - close.count)]
        lifted += Array("\n</plist>\n".utf8)
        return Data(lifted)
    }

    /// Binary: copy the array's element object into a new one-object `bplist00`.
    private static func liftBinary(_ bytes: [UInt8]) throws -> Data {
        let malformed = Malformed(description: "unexpected binary property list layout from PropertyListEncoder")
        guard bytes.count >= 8 + BinaryPropertyListTrailer.size,
              let trailerFields = BinaryPropertyListTrailer(of: bytes)
        else { throw malformed }
        let trailer = bytes.count - BinaryPropertyListTrailer.size
        let offsetSize = trailerFields.offsetSize
        let referenceSize = trailerFields.referenceSize
        let objectCount = Int(truncatingIfNeeded: trailerFields.objectCount)
        let top = Int(truncatingIfNeeded: trailerFields.rootObject)
        let tableStart = Int(truncatingIfNeeded: trailerFields.offsetTableStart)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
              objectCount >= 2, objectCount < bytes.count, top >= 0, top < objectCount,
              tableStart >= 8, tableStart + objectCount * offsetSize <= trailer
        else { throw malformed }
        let offsets = (0..<objectCount).map {
            Int(truncatingIfNeeded: readInteger(bytes, at: tableStart + $0 * offsetSize, size: offsetSize))
        }
        let arrayOffset = offsets[top]
        // A one-element array: marker 0xA1, then one object reference.
        guard arrayOffset >= 8, arrayOffset + 1 + referenceSize <= tableStart, bytes[arrayOffset] == 0xA1
        else { throw malformed }
        let element = Int(truncatingIfNeeded: readInteger(bytes, at: arrayOffset + 1, size: referenceSize))
        guard element >= 0, element < objectCount else { throw malformed }
        let start = offsets[element]
        // Objects are laid out back to back: the element ends where the next object starts.
        let end = offsets.filter { $0 > start }.min() ?? tableStart
        guard start >= 8, start < end, end <= tableStart else { throw malformed }
        // A container would need its references rewritten; only scalars are lifted.
        guard ![0xA, 0xC, 0xD].contains(bytes[start] >> 4) else { throw malformed }

        var lifted = Array("bplist00".utf8)
        lifted += bytes[start..<end]
        let newTableStart = lifted.count
        lifted += [8]  // the one object's offset, in a one-byte offset table
        lifted += BinaryPropertyListTrailer(
            offsetSize: 1, referenceSize: 1, objectCount: 1, rootObject: 0,
            offsetTableStart: UInt64(newTableStart)
        ).encoded
        return Data(lifted)
    }

    private static func readInteger(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        BinaryPropertyListTrailer.integer(in: bytes, at: offset, size: size)
    }
}
