/// The `bplist00` layout, shared by ``BinaryPropertyListReader`` and ``BinaryPropertyListWriter``.
///
/// A file is the signature, the objects, a table of object offsets, and a 32-byte trailer.
/// Each object starts with a marker byte: its type in the high nibble and, for sized types, a
/// count in the low nibble (`0xF`: the count follows as an integer object).
enum BinaryPropertyListSpec {
    /// The first eight bytes of every binary property list written.
    static let signature: [UInt8] = Array("bplist00".utf8)
    /// What a readable one starts with: Core Foundation reads any `bplist0?` header (the
    /// eighth byte is a minor version it does not check) with the same layout.
    static let readablePrefix: [UInt8] = Array("bplist0".utf8)

    /// Whether `bytes` start with a header readers take: `bplist0` and any eighth byte.
    static func hasReadableHeader(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.count >= 8 && bytes.starts(with: readablePrefix)
    }

    /// The farthest a date may be from 2001-01-01, in seconds: beyond 2^53 a `Double` no
    /// longer holds every whole second, so such values are noise, not times. Readers refuse
    /// them and the writer does not write them.
    static let largestDateOffset = 9_007_199_254_740_992.0

    /// Marker bytes, or their type nibbles for sized types.
    /// The key of the one-entry dictionary a UID is in a tree (``uidValue(of:)``), as Core
    /// Foundation writes a UID to XML: `<dict><key>CF$UID</key><integer>N</integer></dict>`.
    static let uidKey = "CF$UID"

    /// A UID object's tree: `["CF$UID": N]`.
    static func uidTree(_ value: UInt64) -> StoredValue {
        .dictionary(
            StoredDictionary(readEntries: [(uidKey, value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value))]))
    }

    /// The UID a dictionary stands for: exactly one entry, `CF$UID`, holding an integer of
    /// 0 or more. Any other dictionary is `nil`.
    static func uidValue(of dictionary: StoredDictionary) -> UInt64? {
        guard dictionary.count == 1, let entry = dictionary.entries.first, entry.key == uidKey else { return nil }
        switch entry.value {
        case .int(let number) where number >= 0: return UInt64(number)
        case .uint(let number): return number
        default: return nil
        }
    }

    enum Marker {
        static let `false`: UInt8 = 0x08
        static let `true`: UInt8 = 0x09
        /// `0x1n`: an integer of 2^n bytes.
        static let integer: UInt8 = 0x10
        /// A signed 8-byte integer.
        static let integer8: UInt8 = 0x13
        /// A 16-byte integer (the high 8 bytes zero for values above `Int64.max`).
        static let integer16: UInt8 = 0x14
        /// A 4-byte real (read only).
        static let real4: UInt8 = 0x22
        static let real8: UInt8 = 0x23
        static let date: UInt8 = 0x33
        static let data: UInt8 = 0x40
        static let asciiString: UInt8 = 0x50
        static let utf16String: UInt8 = 0x60
        /// `NSKeyedArchiver`'s object references; the low nibble is the byte count less one.
        static let uid: UInt8 = 0x80
        static let array: UInt8 = 0xA0
        static let dictionary: UInt8 = 0xD0
        /// The low nibble saying the count follows as an integer object.
        static let countFollows: UInt8 = 0x0F
    }

    /// The last 32 bytes: six unused bytes, the offset and reference widths, then the object
    /// count, the root object's number and the offset table's start, 8 bytes each, big-endian.
    struct Trailer {
        static let size = 32

        var offsetSize: Int
        var referenceSize: Int
        var objectCount: UInt64
        var rootObject: UInt64
        var tableStart: UInt64

        /// The trailer at the end of `bytes` (at least ``size`` long).
        init(readingEndOf bytes: UnsafeBufferPointer<UInt8>) {
            let start = bytes.count - Self.size
            offsetSize = Int(bytes[start + 6])
            referenceSize = Int(bytes[start + 7])
            objectCount = BinaryPropertyListSpec.integer(bytes, at: start + 8, size: 8)
            rootObject = BinaryPropertyListSpec.integer(bytes, at: start + 16, size: 8)
            tableStart = BinaryPropertyListSpec.integer(bytes, at: start + 24, size: 8)
        }

        init(offsetSize: Int, referenceSize: Int, objectCount: Int, rootObject: Int, tableStart: Int) {
            self.offsetSize = offsetSize
            self.referenceSize = referenceSize
            self.objectCount = UInt64(objectCount)
            self.rootObject = UInt64(rootObject)
            self.tableStart = UInt64(tableStart)
        }

        func append<Bytes: ByteOutput>(to bytes: inout Bytes) {
            bytes.appendBigEndian(UInt64(offsetSize) << 8 | UInt64(referenceSize), width: 8)
            bytes.appendBigEndian(objectCount, width: 8)
            bytes.appendBigEndian(rootObject, width: 8)
            bytes.appendBigEndian(tableStart, width: 8)
        }
    }

    /// The offset table, each offset in the fewest bytes that hold `tableStart` (where the
    /// table starts), then the trailer.
    static func appendOffsetTable<Bytes: ByteOutput, Offset: BinaryInteger>(
        _ offsets: [Offset], tableStart: Int, referenceSize: Int, rootObject: Int, to bytes: inout Bytes
    ) {
        let offsetSize = BinaryPropertyListLayout.width(for: UInt64(tableStart))
        for offset in offsets { bytes.appendBigEndian(UInt64(offset), width: offsetSize) }
        Trailer(
            offsetSize: offsetSize, referenceSize: referenceSize, objectCount: offsets.count, rootObject: rootObject,
            tableStart: tableStart
        ).append(to: &bytes)
    }

    /// The big-endian unsigned integer of `size` bytes at `offset`.
    @inline(__always)
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for position in offset..<(offset + size) { value = value << 8 | UInt64(bytes[position]) }
        return value
    }

    /// Appends `value` as a big-endian integer of `width` bytes.
    static func append(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        var shift = (width - 1) * 8
        while shift >= 0 {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }
}

extension StoredValue {
    /// The UID this value stands for in a binary property list (`["CF$UID": N]`), or `nil`.
    package var keyedArchiverUID: UInt64? {
        guard case .dictionary(let dictionary) = self else { return nil }
        return BinaryPropertyListSpec.uidValue(of: dictionary)
    }
}
