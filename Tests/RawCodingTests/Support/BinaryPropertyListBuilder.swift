import Foundation

/// Builds `bplist00` files object by object, for hostile and edge-case vectors.
struct BinaryPropertyListBuilder {
    var objects: [[UInt8]] = []
    var referenceSize: UInt8 = 1
    var offsetSize: UInt8 = 1
    /// Overrides the object count written to the trailer.
    var claimedObjectCount: UInt64?
    var root: UInt64 = 0

    @discardableResult
    mutating func add(_ bytes: [UInt8]) -> Int {
        objects.append(bytes)
        return objects.count - 1
    }

    func build() -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let tableStart = bytes.count
        for offset in offsets { bytes += Self.bigEndian(UInt64(offset), size: Int(offsetSize)) }
        bytes += [0, 0, 0, 0, 0, 0, offsetSize, referenceSize]
        bytes += Self.bigEndian(claimedObjectCount ?? UInt64(objects.count), size: 8)
        bytes += Self.bigEndian(root, size: 8)
        bytes += Self.bigEndian(UInt64(tableStart), size: 8)
        return Data(bytes)
    }

    static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

/// Decodes any property-list or JSON shape, recursing through arrays: the kind of recursive type
/// that overflows the stack on a self-containing array.
struct AnyNested: Decodable {
    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            while !array.isAtEnd { _ = try array.decode(AnyNested.self) }
        }
    }
}
