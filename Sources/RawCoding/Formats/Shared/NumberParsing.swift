import Foundation

/// Decimal number text to `Double`, shared by the text readers: exact and fast for the
/// common case, `Double(String)` (correctly rounded, locale-free) otherwise.
enum NumberParsing {
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
                guard let value = Int(String(decoding: bytes.dropFirst(), as: UTF8.self)), value.magnitude < 1_000_000
                else {
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
        guard
            digits.count < largestMantissa.count
                || (digits.count == largestMantissa.count && digits.lexicographicallyPrecedes(largestMantissa + [0])),
            exponent >= -128, exponent <= 127
        else { return nil }
        return Decimal(string: text, locale: posix)
    }

    /// ``holdsExactly(_:mantissa:scale:)`` for a number a fast path converted, mostly without
    /// formatting. With the trailing zeros dropped, `k` digits are left:
    /// - the `Double` holds the number when the numbers one unit in the last digit away convert
    ///   to other doubles (then no other decimal of `k` digits, and so no shorter one, denotes
    ///   this `Double`);
    /// - it does not when a decimal of `k - 1` digits next to the number converts to the same
    ///   `Double` (then its shortest text is shorter than the number's `k` digits: how the
    ///   17-digit text producers write usually looks);
    /// - otherwise the `Double`'s shortest text decides.
    @inline(__always)
    static func fastPathHoldsExactly(_ double: Double, mantissa: UInt64, scale: Int, negative: Bool) -> Bool {
        let (mantissa, scale) = withoutTrailingZeros(mantissa, scale)
        guard mantissa > 0, mantissa < .max else { return holdsExactly(double, mantissa: mantissa, scale: scale) }
        if let below = fastDouble(mantissa: mantissa - 1, scale: scale, negative: negative),
            let above = fastDouble(mantissa: mantissa + 1, scale: scale, negative: negative),
            below != double, above != double
        {
            return true
        }
        let shorter = mantissa / 10
        if fastDouble(mantissa: shorter, scale: scale + 1, negative: negative) == double
            || fastDouble(mantissa: shorter + 1, scale: scale + 1, negative: negative) == double
        {
            return false
        }
        return holdsExactly(double, mantissa: mantissa, scale: scale)
    }

    /// `mantissa × 10^scale` as an exact `Decimal`, when its power of ten is one a `Decimal`
    /// holds (-128...127, trailing zeros dropped); built from the parts, not from text.
    @inline(__always)
    static func exactDecimal(mantissa: UInt64, scale: Int, negative: Bool) -> Decimal? {
        let (mantissa, scale) = withoutTrailingZeros(mantissa, scale)
        guard scale >= -128, scale <= 127 else { return nil }
        let decimal = Decimal(sign: negative ? .minus : .plus, exponent: scale, significand: Decimal(mantissa))
        return decimal.isNaN ? nil : decimal
    }

    /// Whether `double`'s shortest text denotes exactly `mantissa × 10^scale` (a number read
    /// from text with at most 19 significant digits): then the `Double` loses none of it.
    static func holdsExactly(_ double: Double, mantissa: UInt64, scale: Int) -> Bool {
        guard double.isFinite else { return false }
        var shortest = ShortestDigits()
        double.write(to: &shortest)
        let (left, leftScale) = withoutTrailingZeros(mantissa, scale)
        return left == shortest.mantissa && (left == 0 || leftScale == shortest.scale)
    }

    /// `mantissa × 10^scale` with the mantissa's trailing zeros moved into the scale.
    @inline(__always)
    static func withoutTrailingZeros(_ mantissa: UInt64, _ scale: Int) -> (mantissa: UInt64, scale: Int) {
        var (mantissa, scale) = (mantissa, scale)
        while mantissa != 0, mantissa % 10 == 0 {
            mantissa /= 10
            scale += 1
        }
        return (mantissa, scale)
    }

    static let posix = Locale(identifier: "en_US_POSIX")

    /// Number text cut to 40 characters for messages.
    static func shown(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    /// `[+-]digits[.digits][(e|E)[+-]digits]` (also `.5` and `5.`) as a `Double`; `nil` when
    /// the text is not such a number. Infinite results are returned as such; callers decide.
    static func double(_ text: UnsafeBufferPointer<UInt8>) -> (value: Double, isNonzero: Bool)? {
        let (literal, end, problem) = NumberLiteral.scan(text, from: 0, strict: false)
        guard problem == nil, end == text.count else { return nil }
        if let value = literal.fastDouble { return (value, literal.isNonzero) }
        return Double(String(decoding: text, as: UTF8.self)).map { ($0, literal.isNonzero) }
    }

    /// The message for a number whose digits are not all zero but which is nearer zero than
    /// the smallest `Double` (about 4.9e-324).
    static func underflows(_ shown: String) -> String {
        "number \(shown) is too small for a Double: it would read as 0 (write 0 if that is meant)"
    }

    /// The message for an integer a 64-bit property-list integer cannot hold.
    static func outside64Bits(_ shown: String) -> String {
        "integer \(shown) does not fit in 64 bits (the range is \(Int64.min) to \(UInt64.max))"
    }

    /// `mantissa × 10^scale` when both factors are exact doubles (Clinger's fast path), so the
    /// one rounding of the product or quotient is correct; `nil` otherwise.
    @inline(__always)
    static func exactDouble(mantissa: UInt64, scale: Int, negative: Bool) -> Double? {
        guard mantissa <= 1 << 53, scale >= -22, scale <= 22 else { return nil }
        let value = scale < 0 ? Double(mantissa) / powersOfTen[-scale] : Double(mantissa) * powersOfTen[scale]
        return negative ? -value : value
    }

    /// `mantissa × 10^scale` correctly rounded, by Eisel and Lemire's method (as in Go's
    /// `strconv` and fast_float): one 64×128-bit product with the power of ten's truncated
    /// significand, which decides the rounding unless the product lies too near a halfway
    /// point; then, and for subnormal or out-of-range results, `nil`, and the caller converts
    /// the text. Any 19-digit mantissa.
    @inline(__always)
    static func eiselLemire(mantissa: UInt64, scale: Int, negative: Bool) -> Double? {
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        let index = scale - powersOfTenLowestExponent
        guard index >= 0, 2 * index + 1 < powersOfTenSignificands.count else { return nil }
        let shift = mantissa.leadingZeroBitCount
        let normalized = mantissa << shift
        // floor(scale × log2(10)) + 64 + the exponent bias, less the normalizing shift.
        var binaryExponent = UInt64(bitPattern: Int64(((217_706 * scale) >> 16) + 64 + 1_023 - shift))
        let (high, low) = powersOfTenSignificands.withUnsafeBufferPointer {
            ($0[2 * index], $0[2 * index + 1])
        }
        var (productHigh, productLow) = normalized.multipliedFullWidth(by: high)
        if productHigh & 0x1FF == 0x1FF, productLow &+ normalized < normalized {
            // The truncated significand may be too small to decide: add the low half's product.
            let (lowHigh, lowLow) = normalized.multipliedFullWidth(by: low)
            var mergedHigh = productHigh
            let mergedLow = productLow &+ lowHigh
            if mergedLow < productLow { mergedHigh &+= 1 }
            if mergedHigh & 0x1FF == 0x1FF, mergedLow &+ 1 == 0, lowLow &+ normalized < normalized { return nil }
            (productHigh, productLow) = (mergedHigh, mergedLow)
        }
        let topBit = productHigh >> 63
        var significand = productHigh >> (topBit + 9)
        binaryExponent &-= 1 ^ topBit
        // Exactly halfway between two doubles: only the text decides.
        if productLow == 0, productHigh & 0x1FF == 0, significand & 3 == 1 { return nil }
        significand &+= significand & 1
        significand >>= 1
        if significand >> 53 > 0 {
            significand >>= 1
            binaryExponent &+= 1
        }
        // Zero or below is subnormal, 0x7FF or above infinite: both left to the text.
        guard binaryExponent &- 1 < 0x7FF - 1 else { return nil }
        let bits = binaryExponent << 52 | significand & 0x000F_FFFF_FFFF_FFFF | (negative ? 1 << 63 : 0)
        return Double(bitPattern: bits)
    }

    /// `mantissa × 10^scale` correctly rounded without text when a fast exact method applies
    /// (Clinger's, then Eisel–Lemire's); `nil` otherwise.
    @inline(__always)
    static func fastDouble(mantissa: UInt64, scale: Int, negative: Bool) -> Double? {
        exactDouble(mantissa: mantissa, scale: scale, negative: negative)
            ?? eiselLemire(mantissa: mantissa, scale: scale, negative: negative)
    }

    /// Exact powers of ten, 10^0 through 10^22.
    static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }
}

/// The digits of a `Double`'s shortest text (what `description` holds), as mantissa × 10^scale
/// with trailing zeros removed, collected without building a `String`: the standard library
/// writes a `Double` to a stream through `_writeASCII` from a stack buffer. A stream that only
/// gets `write(_:)` reads the same text from the string.
struct ShortestDigits: TextOutputStream {
    var mantissa: UInt64 = 0
    var scale = 0

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { parse($0) }
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        parse(buffer)
    }

    private mutating func parse(_ text: UnsafeBufferPointer<UInt8>) {
        var seenPoint = false
        var exponent = 0
        var exponentSign = 1
        var inExponent = false
        for byte in text {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int(byte - UInt8(ascii: "0"))
                if inExponent {
                    exponent = exponent * 10 + digit
                } else {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    if seenPoint { scale -= 1 }
                }
            case UInt8(ascii: "."): seenPoint = true
            case UInt8(ascii: "e"): inExponent = true
            case UInt8(ascii: "-"): if inExponent { exponentSign = -1 }
            default: break
            }
        }
        (mantissa, scale) = NumberParsing.withoutTrailingZeros(mantissa, scale + exponentSign * exponent)
    }
}
