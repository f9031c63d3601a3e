import Foundation

/// Decimal number text to `Double`, shared by the text readers: exact and fast for the
/// common case, `Double(String)` (correctly rounded, locale-free) otherwise.
enum NumberParsing {
    /// The most significant digits a `Decimal` always holds exactly; it also holds 39-digit
    /// numbers whose digits are below 2^128.
    static let maximumDecimalDigits = 38

    /// 2^128 - 1, the largest `Decimal` mantissa, as digits.
    private static let largestMantissa = Array("340282366920938463463374607431768211455".utf8)

    /// Number text as sign, significant digits (no leading or trailing zeros) and the power of
    /// ten of the last one: `"-0.00120e5"` is (true, "12", 1). `nil` for text that is not a
    /// number; zero has no digits.
    static func normalized(_ text: String) -> (negative: Bool, digits: [UInt8], exponent: Int)? {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var digits: [UInt8] = []
        var fractionDigits = 0
        var seenPoint = false
        var exponent = 0
        while let byte = bytes.first {
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else if byte &- UInt8(ascii: "0") < 10 {
                if !digits.isEmpty || byte != UInt8(ascii: "0") { digits.append(byte) }
                if seenPoint { fractionDigits += 1 }
            } else if byte | 0x20 == UInt8(ascii: "e") {
                guard let value = Int(String(decoding: bytes.dropFirst(), as: UTF8.self)), value.magnitude < 1_000_000 else {
                    return nil
                }
                exponent = value
                break
            } else {
                return nil
            }
            bytes = bytes.dropFirst()
        }
        exponent -= fractionDigits
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        return (negative, digits, exponent)
    }

    /// The `Decimal` that `text` denotes, when a `Decimal` holds it exactly: at most 38
    /// significant digits (39 below 2^128), the last one's power of ten within -128...127.
    static func exactDecimal(_ text: String) -> Decimal? {
        guard let (_, digits, exponent) = normalized(text) else { return nil }
        if digits.isEmpty { return Decimal(string: text, locale: posix) }
        guard digits.count < largestMantissa.count
            || (digits.count == largestMantissa.count && digits.lexicographicallyPrecedes(largestMantissa + [0])),
            exponent >= -128, exponent <= 127
        else { return nil }
        return Decimal(string: text, locale: posix)
    }

    /// Whether `double` is exactly the number `text` denotes, in the sense that matters for
    /// stored data: its shortest text has the same digits and exponent.
    static func holdsExactly(_ double: Double, _ text: String) -> Bool {
        guard double.isFinite, let written = normalized(text), let shortest = normalized("\(double)") else { return false }
        return written.digits == shortest.digits && (written.digits.isEmpty || written.exponent == shortest.exponent)
            && (written.negative == shortest.negative || written.digits.isEmpty)
    }

    static let posix = Locale(identifier: "en_US_POSIX")

    /// The digits of number text from the first non-zero digit to the last non-zero one,
    /// ignoring sign, point and exponent: `"-0.00120e5"` has 2.
    static func significantDigitCount(_ text: String.UTF8View) -> Int {
        var count = 0
        var pendingZeros = 0
        for byte in text {
            if byte | 0x20 == UInt8(ascii: "e") { break }
            guard byte &- UInt8(ascii: "0") < 10 else { continue }
            if byte == UInt8(ascii: "0") {
                if count > 0 { pendingZeros += 1 }
            } else {
                count += pendingZeros + 1
                pendingZeros = 0
            }
        }
        return count
    }

    /// Number text cut to 40 characters for messages.
    static func shown(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    /// `[+-]digits[.digits][(e|E)[+-]digits]` (also `.5` and `5.`) as a `Double`; `nil` when
    /// the text is not such a number. Infinite results are returned as such; callers decide.
    static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        var negative = false
        if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var significant = 0
        var fractionDigits = 0
        var overflow = false
        var seenPoint = false
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else if byte &- UInt8(ascii: "0") < 10 {
                digits += 1
                if seenPoint { fractionDigits += 1 }
                let digit = UInt64(byte &- UInt8(ascii: "0"))
                if significant > 0 || digit != 0 {
                    significant += 1
                    if significant > 19 { overflow = true } else { mantissa = mantissa &* 10 &+ digit }
                }
            } else {
                break
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        var exponent = 0
        if index < text.count, text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            let start = index
            while index < text.count, text[index] &- UInt8(ascii: "0") < 10 {
                if exponent < 100_000 { exponent = exponent * 10 + Int(text[index] &- UInt8(ascii: "0")) } else { overflow = true }
                index += 1
            }
            guard index > start else { return nil }
            if exponentNegative { exponent = -exponent }
        }
        guard index == text.count else { return nil }
        if !overflow, let value = exactDouble(mantissa: mantissa, scale: exponent - fractionDigits, negative: negative) {
            return value
        }
        return Double(String(decoding: text, as: UTF8.self))
    }

    /// `mantissa × 10^scale` when both factors are exact doubles (Clinger's fast path), so the
    /// one rounding of the product or quotient is correct; `nil` otherwise.
    @inline(__always)
    static func exactDouble(mantissa: UInt64, scale: Int, negative: Bool) -> Double? {
        guard mantissa <= 1 << 53, scale >= -22, scale <= 22 else { return nil }
        let value = scale < 0 ? Double(mantissa) / powersOfTen[-scale] : Double(mantissa) * powersOfTen[scale]
        return negative ? -value : value
    }

    /// Exact powers of ten, 10^0 through 10^22.
    static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }
}
