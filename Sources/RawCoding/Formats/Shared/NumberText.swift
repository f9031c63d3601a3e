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
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }
}
