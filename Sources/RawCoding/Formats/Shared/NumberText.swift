import Foundation

/// Number text shared by the text writers.
enum NumberText {
    static func append(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            append(value.magnitude, to: &bytes)
        } else {
            append(UInt64(value), to: &bytes)
        }
    }

    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        if value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes of scratch
        withUnsafeMutableBytes(of: &digits) { scratch in
            var rest = value
            var position = scratch.count
            while rest > 0 {
                position -= 1
                scratch[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            bytes.append(contentsOf: scratch[position...])
        }
    }

    /// The shortest text that reads back as `value`, without a trailing `.0`.
    static func append(_ value: Double, to bytes: inout [UInt8]) {
        if value == value.rounded(.towardZero), value.magnitude < 1e15 {
            if value == 0 {
                if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
                bytes.append(UInt8(ascii: "0"))
            } else {
                append(Int64(value), to: &bytes)
            }
            return
        }
        // The standard library's shortest digits, written straight into the bytes (no String).
        var stream = ByteStream()
        swap(&stream.bytes, &bytes)
        let start = stream.bytes.count
        value.write(to: &stream)
        swap(&stream.bytes, &bytes)
        let end = bytes.count
        if end - start >= 2, bytes[end - 2] == UInt8(ascii: "."), bytes[end - 1] == UInt8(ascii: "0") {
            bytes.removeLast(2)
        }
    }

    /// Bytes as a text stream, so a number writes its digits without making a `String`.
    private struct ByteStream: TextOutputStream {
        var bytes: [UInt8] = []

        mutating func write(_ string: String) { bytes.append(contentsOf: string.utf8) }

        /// What the standard library's numbers call with their digits where it can.
        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }
    }
}
