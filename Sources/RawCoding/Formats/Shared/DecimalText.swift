import Foundation

/// A `Decimal`'s text, exactly as `description` writes it, made from its fields where the
/// mantissa fits 64 bits: swift-foundation's `description` divides a 128-bit mantissa word by
/// word for every digit, and took two thirds of the tool's time on number-heavy documents.
package enum DecimalText {
    /// `decimal.description`.
    package static func text(of decimal: Decimal) -> String {
        var bytes: [UInt8] = []
        append(decimal, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `decimal.description`'s UTF-8 to `bytes`.
    static func append(_ decimal: Decimal, to bytes: inout some ByteOutput) {
        guard let fields = plainFields(of: decimal) else {
            for byte in decimal.description.utf8 { bytes.appendByte(byte) }
            return
        }
        guard fields.mantissa != 0 else { return bytes.appendByte(UInt8(ascii: "0")) }
        if fields.negative { bytes.appendByte(UInt8(ascii: "-")) }
        NumberText.withDigits(of: fields.mantissa) { digits in
            if fields.exponent >= 0 {
                // Whole: the digits, then as many zeros as the exponent says.
                bytes.appendBytes(digits)
                for _ in 0..<fields.exponent { bytes.appendByte(UInt8(ascii: "0")) }
                return
            }
            let whole = digits.count + fields.exponent
            if whole > 0 {
                bytes.appendBytes(UnsafeBufferPointer(rebasing: digits[..<whole]))
                bytes.appendByte(UInt8(ascii: "."))
                bytes.appendBytes(UnsafeBufferPointer(rebasing: digits[whole...]))
            } else {
                bytes.appendByte(UInt8(ascii: "0"))
                bytes.appendByte(UInt8(ascii: "."))
                for _ in 0..<(-whole) { bytes.appendByte(UInt8(ascii: "0")) }
                bytes.appendBytes(digits)
            }
        }
    }

    /// The number of significant digits of `decimal` (`-0.00120` has 2) and the `Double`
    /// nearest to it, from its fields, as its text would give them; `nil` where the fields do
    /// not decide (the caller reads the text).
    package static func significantDigitsAndNearestDouble(of decimal: Decimal) -> (digits: Int, nearest: Double)? {
        guard let fields = plainFields(of: decimal), let nearest = fields.fastDouble else { return nil }
        guard fields.mantissa != 0 else { return (0, nearest) }
        // The mantissa's digits but its trailing zeros.
        let digits = NumberText.withDigits(of: fields.mantissa) { digits in
            digits.count - digits.reversed().prefix { $0 == UInt8(ascii: "0") }.count
        }
        return (digits, nearest)
    }

    /// The fields of `decimal` when its text follows from them alone: a number (not NaN) whose
    /// mantissa fits 64 bits, without zeros after the point that a form `description` leaves
    /// as they are might keep (a compact decimal has none; readers make compact ones).
    private static func plainFields(of decimal: Decimal) -> DecimalFields? {
        guard !decimal.isNaN, let fields = DecimalFields(decimal), !fields.wide else { return nil }
        guard fields.exponent >= 0 || fields.mantissa % 10 != 0 || fields.mantissa == 0 else { return nil }
        return fields
    }
}
