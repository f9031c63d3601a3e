/// A decimal number literal as scanned from text, shared by the JSON reader (strict RFC 8259
/// grammar) and the XML property-list reader's reals (Apple's looser grammar): one place for
/// digit accumulation, the exponent cap and the fast exact conversion.
struct NumberLiteral {
    /// Why text is not a number literal, and where.
    enum Problem {
        /// No digit where the number (or its integer part) must start.
        case expectedDigit(at: Int)
        /// A `0` followed by more digits (strict grammar only).
        case leadingZero
        /// A point not followed by a digit (strict grammar only).
        case expectedFractionDigit(at: Int)
        /// An `e` not followed by a digit.
        case expectedExponentDigit(at: Int)
    }

    var negative = false
    /// The significant digits (from the first non-zero one) as an integer; exact unless
    /// ``overflow``.
    var mantissa: UInt64 = 0
    /// How many significant digits there are, trailing zeros included.
    var digitCount = 0
    /// Digits after the point.
    var fractionDigits = 0
    var exponent = 0
    /// More significant digits than a `UInt64` holds.
    var overflow = false
    /// An exponent beyond ±100,000 (capped, and flagged).
    var exponentOverflow = false
    /// No point and no exponent.
    var isInteger = true

    /// Whether a digit other than `0` was written: such a number that converts to zero
    /// underflowed, and reading it as 0 would change it.
    var isNonzero: Bool { digitCount > 0 }

    /// The power of ten of the last digit of ``mantissa``.
    var scale: Int { exponent - fractionDigits }

    /// Scans `[sign] digits [. digits] [(e|E) [sign] digits]` at `start`. The strict grammar is
    /// JSON's: only `-`, no leading zeros, digits on both sides of the point. The loose one
    /// also takes `+`, leading zeros, `.5` and `5.`.
    @inline(__always)
    static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, strict: Bool
    ) -> (literal: NumberLiteral, end: Int, problem: Problem?) {
        var literal = NumberLiteral()
        var cursor = start
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "-") || (!strict && bytes[cursor] == UInt8(ascii: "+")) {
            literal.negative = bytes[cursor] == UInt8(ascii: "-")
            cursor += 1
        }
        let integerStart = cursor
        if strict {
            guard cursor < bytes.count, isDigit(bytes[cursor]) else {
                return (literal, cursor, .expectedDigit(at: cursor))
            }
            if bytes[cursor] == UInt8(ascii: "0") {
                cursor += 1
                if cursor < bytes.count, isDigit(bytes[cursor]) { return (literal, cursor, .leadingZero) }
            }
        }
        while cursor < bytes.count, isDigit(bytes[cursor]) {
            literal.accumulate(bytes[cursor])
            cursor += 1
        }
        var anyDigits = cursor > integerStart
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ".") {
            literal.isInteger = false
            cursor += 1
            let fractionStart = cursor
            while cursor < bytes.count, isDigit(bytes[cursor]) {
                literal.accumulate(bytes[cursor])
                literal.fractionDigits += 1
                cursor += 1
            }
            if strict, cursor == fractionStart { return (literal, cursor, .expectedFractionDigit(at: cursor)) }
            anyDigits = anyDigits || cursor > fractionStart
        }
        guard anyDigits else { return (literal, cursor, .expectedDigit(at: integerStart)) }
        if cursor < bytes.count, bytes[cursor] | 0x20 == UInt8(ascii: "e") {
            literal.isInteger = false
            cursor += 1
            var exponentNegative = false
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") {
                exponentNegative = bytes[cursor] == UInt8(ascii: "-")
                cursor += 1
            }
            guard cursor < bytes.count, isDigit(bytes[cursor]) else {
                return (literal, cursor, .expectedExponentDigit(at: cursor))
            }
            while cursor < bytes.count, isDigit(bytes[cursor]) {
                if literal.exponent < 100_000 {
                    literal.exponent = literal.exponent * 10 + Int(bytes[cursor] &- UInt8(ascii: "0"))
                } else {
                    literal.exponentOverflow = true
                }
                cursor += 1
            }
            if exponentNegative { literal.exponent = -literal.exponent }
        }
        return (literal, cursor, nil)
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Adds one digit; leading zeros carry no significant digits.
    @inline(__always)
    mutating func accumulate(_ byte: UInt8) {
        let digit = UInt64(byte &- UInt8(ascii: "0"))
        if digitCount == 0, digit == 0 { return }
        digitCount += 1
        let (times10, overflow1) = mantissa.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times10.addingReportingOverflow(digit)
        if overflow1 || overflow2 { overflow = true } else { mantissa = sum }
    }

    /// The `Double` when a fast exact conversion decides it (Clinger's or Eisel–Lemire's),
    /// `nil` otherwise.
    @inline(__always)
    var fastDouble: Double? {
        guard !overflow, !exponentOverflow else { return nil }
        return NumberParsing.fastDouble(mantissa: mantissa, scale: scale, negative: negative)
    }
}
