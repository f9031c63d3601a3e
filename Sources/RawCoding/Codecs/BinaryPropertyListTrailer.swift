/// The 32-byte trailer that ends every `bplist00` file, and the big-endian integers the format
/// is built from. Read by the structural pre-check and by the top-level scalar lifting.
struct BinaryPropertyListTrailer {
    /// Bytes per entry of the offset table.
    var offsetSize: Int
    /// Bytes per object reference inside arrays and dictionaries.
    var referenceSize: Int
    var objectCount: UInt64
    var rootObject: UInt64
    var offsetTableStart: UInt64

    static let size = 32

    /// Reads the trailer from the last 32 bytes; `nil` when there are fewer.
    init?(of bytes: [UInt8]) {
        guard bytes.count >= Self.size else { return nil }
        let start = bytes.count - Self.size
        offsetSize = Int(bytes[start + 6])
        referenceSize = Int(bytes[start + 7])
        objectCount = Self.integer(in: bytes, at: start + 8, size: 8)
        rootObject = Self.integer(in: bytes, at: start + 16, size: 8)
        offsetTableStart = Self.integer(in: bytes, at: start + 24, size: 8)
    }

    init(offsetSize: Int, referenceSize: Int, objectCount: UInt64, rootObject: UInt64, offsetTableStart: UInt64) {
        self.offsetSize = offsetSize
        self.referenceSize = referenceSize
        self.objectCount = objectCount
        self.rootObject = rootObject
        self.offsetTableStart = offsetTableStart
    }

    /// The trailer's 32 bytes.
    var encoded: [UInt8] {
        [0, 0, 0, 0, 0, 0, UInt8(truncatingIfNeeded: offsetSize), UInt8(truncatingIfNeeded: referenceSize)]
            + Self.bigEndianBytes(objectCount, size: 8)
            + Self.bigEndianBytes(rootObject, size: 8)
            + Self.bigEndianBytes(offsetTableStart, size: 8)
    }

    /// The unsigned big-endian integer of `size` bytes at `offset`; the caller checks bounds.
    static func integer(in bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for byte in bytes[offset..<(offset + size)] { value = value << 8 | UInt64(byte) }
        return value
    }

    /// `value` as `size` big-endian bytes.
    static func bigEndianBytes(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
