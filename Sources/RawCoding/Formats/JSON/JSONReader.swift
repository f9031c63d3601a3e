import Foundation

/// Reads JSON text (RFC 8259, strictly) into a ``StoredValue``.
///
/// ```swift
/// let tree = try JSONReader().read(Data(#"{"theme":"dark","size":14}"#.utf8))
/// ```
///
/// Exactly the JSON grammar is accepted: no trailing commas, comments, single quotes, `NaN`
/// or leading zeros; strings must be valid UTF-8 without unescaped control characters, and
/// `\u` escapes must pair surrogates. A leading UTF-8 byte-order mark is skipped (RFC 8259
/// allows ignoring it), and text in UTF-16 or UTF-32 (told by its byte-order mark or, as RFC
/// 4627 describes, by its zero bytes) is read as `JSONDecoder` reads it. Any value may be the
/// top level.
///
/// Numbers:
/// - An integer (no fraction, no exponent) becomes ``StoredValue/int(_:)``, or
///   ``StoredValue/uint(_:)`` above `Int64.max`, or, outside `Int64.min...UInt64.max`, an exact
///   ``StoredValue/decimal(_:)`` when a `Decimal` holds it (38 significant digits, or 39 below
///   2^128). An integer with more is an error: it is never silently rounded.
/// - Any other number becomes ``StoredValue/double(_:)`` when a `Double` holds it exactly (its
///   shortest text has the same digits: always up to 15 significant digits, and every number
///   a writer wrote from a `Double`). Otherwise it becomes an exact ``StoredValue/decimal(_:)``
///   when a `Decimal` holds it (so a `Decimal` property reads back every digit), and when
///   neither does (more than 38 digits, or exponents beyond ±128) the nearest `Double`, as
///   Python's `json` reads it. A number too large for a `Double` (`1e400`) is an error, and so
///   is one so small that it would read as zero (`1e-400`), as in `JSONDecoder`; zero with any
///   exponent (`0e-400`) is zero. `-0` stays the double `-0.0`.
///
/// Whether a number fits the type a model asks for is the decoder's decision: reading
/// `123456789012345678901234567890` succeeds, and decoding it as `Int64` fails at its coding
/// path while decoding it as `Decimal` keeps every digit.
///
/// When a key appears twice in an object, the last value wins (in the first one's place).
/// Every failure is a ``RawCodingError`` with the line and column; ``Limits`` bound the size,
/// nesting and number of values.
public struct JSONReader: Sendable {
    /// The bounds enforced while reading.
    public var limits: Limits
    /// Strict JSON (the default) or JSON5.
    public var syntax: JSONSyntax
    /// Whether text without braces (`"a": 1, "b": 2`) is read as the members of a dictionary,
    /// as `JSONDecoder`'s `assumesTopLevelDictionary`; blank text is then an empty one.
    public var assumesTopLevelDictionary: Bool

    /// Creates a reader.
    /// - Parameters:
    ///   - limits: The bounds to enforce.
    ///   - syntax: ``JSONSyntax/strict`` (the default) or ``JSONSyntax/json5``.
    ///   - assumesTopLevelDictionary: Whether text without braces is a dictionary's members.
    public init(limits: Limits = .default, syntax: JSONSyntax = .strict, assumesTopLevelDictionary: Bool = false) {
        self.limits = limits
        self.syntax = syntax
        self.assumesTopLevelDictionary = assumesTopLevelDictionary
    }

    /// Reads one JSON value from `data`.
    /// - Parameter data: JSON text in UTF-8, UTF-16 or UTF-32.
    /// - Returns: The value.
    /// - Throws: ``RawCodingError`` with the position of the first problem.
    public func read(_ data: Data) throws(RawCodingError) -> StoredValue {
        try JSONTreeFormat(syntax: syntax, assumesTopLevelDictionary: assumesTopLevelDictionary)
            .readValue(data, limits: limits)
    }

}

/// The recursive-descent parser behind ``JSONReader``.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: Limits
    let maximumDepth: Int
    var index = 0
    var depth = 0
    var valueCount = 0
    var keys = KeyInterner()
    var stack = StackCheck()

    init(bytes: UnsafeBufferPointer<UInt8>, limits: Limits) {
        self.bytes = bytes
        self.limits = limits
        maximumDepth = limits.effectiveDepth
    }

    // MARK: Errors

    func position(_ offset: Int) -> InputPosition {
        InputPosition(byteOffset: offset, inText: bytes)
    }

    func malformed(_ reason: String, at offset: Int) -> FormatFailure {
        .malformed(reason, at: position(offset))
    }

    /// Malformed because the input ends inside a value.
    func endedEarly(_ reason: String, at offset: Int) -> FormatFailure {
        .endedEarly(reason, at: position(offset))
    }

    /// "unexpected end of input" or "unexpected character 'x'", for the byte at `offset`.
    func unexpected(at offset: Int, expecting expected: String) -> FormatFailure {
        guard offset < bytes.count else {
            return endedEarly("unexpected end of input; expected \(expected)", at: offset)
        }
        return malformed("unexpected \(describe(bytes[offset])); expected \(expected)", at: offset)
    }

    func describe(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))'" }
        return "byte \(UTF8Validation.hex(byte))"
    }

    // MARK: Structure

    mutating func parseDocument() throws(FormatFailure) -> StoredValue {
        try startDocument()
        let value = try parseValue()
        try endDocument()
        return value
    }

    /// A document that is an object, or the members of one without its braces (`"a": 1`, as
    /// `JSONDecoder`'s `assumesTopLevelDictionary` reads it); blank input is an empty one.
    mutating func parseTopLevelDictionary() throws(FormatFailure) -> StoredValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
            let value = try parseValue()
            try endDocument()
            return value
        }
        var entries: [StoredDictionary.Element] = []
        while index < bytes.count {
            try parseEntry(into: &entries)
            skipWhitespace()
            guard index < bytes.count else { break }
            guard bytes[index] == UInt8(ascii: ",") else {
                throw unexpected(at: index, expecting: "',' or the end of the input")
            }
            index += 1
            skipWhitespace()
            guard index < bytes.count else { throw unexpected(at: index, expecting: "a string key") }
        }
        return .dictionary(StoredDictionary(readEntries: entries))
    }

    /// Skips a byte-order mark and whitespace up to the document's value.
    mutating func startDocument() throws(FormatFailure) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        guard index < bytes.count else {
            throw malformed(
                bytes.isEmpty ? "empty input; expected a JSON value" : "no JSON value, only whitespace", at: index)
        }
    }

    /// Checks that only whitespace follows the document's value.
    mutating func endDocument() throws(FormatFailure) {
        skipWhitespace()
        guard index == bytes.count else {
            throw malformed("unexpected \(describe(bytes[index])) after the JSON value", at: index)
        }
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// One value. Containers recurse through here, so everything else lives in other
    /// functions: the frame that repeats per nesting level stays small, also in debug builds.
    mutating func parseValue() throws(FormatFailure) -> StoredValue {
        valueCount += 1
        if valueCount > limits.maximumValueCount || index >= bytes.count { throw valueFailure() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        default: return try parseScalar()
        }
    }

    @inline(never)
    func valueFailure() -> FormatFailure {
        valueCount > limits.maximumValueCount
            ? limits.valueCountFailure(at: position(index)) : unexpected(at: index, expecting: "a value")
    }

    @inline(never)
    mutating func parseScalar() throws(FormatFailure) -> StoredValue {
        switch bytes[index] {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw unexpected(at: index, expecting: "a value")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(FormatFailure) {
        let count = literal.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for offset in 0..<count where index + offset >= bytes.count || bytes[index + offset] != expected[offset] {
            throw unexpected(at: index + offset, expecting: "'\(literal)'")
        }
        index += count
    }

    mutating func enterContainer() throws(FormatFailure) {
        depth += 1
        guard depth <= maximumDepth else { throw limits.depthFailure(at: position(index)) }
        guard stack.allows(depth: depth) else { throw stack.measured.failure(depth: depth, at: position(index)) }
        index += 1
    }

    mutating func parseArray() throws(FormatFailure) -> StoredValue {
        try enterContainer()
        var elements: [StoredValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            do {
                elements.append(try parseValue())
            } catch {
                throw error.inside(.index(elements.count))
            }
            skipWhitespace()
            guard index < bytes.count else { throw unexpected(at: index, expecting: "',' or ']'") }
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "]") { break }
            throw unexpected(at: index - 1, expecting: "',' or ']'")
        }
        depth -= 1
        return .array(elements)
    }

    mutating func parseObject() throws(FormatFailure) -> StoredValue {
        try enterContainer()
        var entries: [StoredDictionary.Element] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .dictionary(StoredDictionary())
        }
        while true {
            skipWhitespace()
            try parseEntry(into: &entries)
            skipWhitespace()
            guard index < bytes.count else { throw unexpected(at: index, expecting: "',' or '}'") }
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "}") { break }
            throw unexpected(at: index - 1, expecting: "',' or '}'")
        }
        depth -= 1
        return .dictionary(StoredDictionary(readEntries: entries))
    }

    /// Reads `"key": value` into `entries`; a failure in the value names the key.
    @inline(__always)
    mutating func parseEntry(into entries: inout [StoredDictionary.Element]) throws(FormatFailure) {
        let key = try parseKey()
        do {
            entries.append((key, try parseValue()))
        } catch {
            throw error.inside(.key(key))
        }
    }

    /// Reads `"key":` and the whitespace after it.
    @inline(__always)
    mutating func parseKey() throws(FormatFailure) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw unexpected(at: index, expecting: "a string key")
        }
        let key = try parseString(interning: true)
        try parseColonAfterKey()
        return key
    }

    /// Reads the `:` after a key, with the whitespace around it.
    @inline(__always)
    mutating func parseColonAfterKey() throws(FormatFailure) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw unexpected(at: index, expecting: "':' after the key")
        }
        index += 1
        skipWhitespace()
    }

    /// Reads `"key":` and the whitespace after it, as ``parseKey()`` does, when the key has no
    /// escapes and at most `maximumLength` bytes (valid UTF-8): where its text is. `nil`, with
    /// nothing read, for any other key (``parseKey()`` reads it, and reports what is wrong).
    mutating func parsePlainKey(upTo maximumLength: Int) throws(FormatFailure) -> Range<Int>? {
        guard let text = parsePlainString(upTo: maximumLength) else { return nil }
        try parseColonAfterKey()
        return text
    }

    /// Reads a string at `index` when it has no escapes and at most `maximumLength` bytes
    /// (valid UTF-8): where its text is, with `index` after its closing quote. `nil`, with
    /// nothing read, for any other string (``parseString(interning:)`` reads it, and reports
    /// what is wrong).
    mutating func parsePlainString(upTo maximumLength: Int) -> Range<Int>? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        var cursor = start
        var ascii = true
        let base = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped)
        while cursor < bytes.count, cursor - start <= maximumLength {
            // Plain ASCII eight bytes at a time.
            while bytes.count - cursor >= 8, cursor - start < maximumLength {
                let word = base.loadUnaligned(fromByteOffset: cursor, as: UInt64.self)
                guard JSONStringBytes.specials(in: word) | word & 0x8080_8080_8080_8080 == 0 else { break }
                cursor += 8
            }
            guard cursor < bytes.count, cursor - start <= maximumLength else { return nil }
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") {
                guard ascii || UTF8Validation.firstInvalidByte(in: bytes, start..<cursor) == nil else { return nil }
                index = cursor + 1
                return start..<cursor
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            ascii = ascii && byte < 0x80
            cursor += 1
        }
        return nil
    }

    // MARK: Strings

    /// Reads a string starting at its opening quote.
    /// Reads a string starting at its opening quote; `interning` reuses strings seen before
    /// (for keys).
    mutating func parseString(interning: Bool = false) throws(FormatFailure) -> String {
        let start = index + 1
        var cursor = start
        var ascii = true
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(rebasing: bytes[start..<cursor])
                if ascii, !interning || text.count <= 15 {
                    index = cursor + 1
                    return String(decoding: text, as: UTF8.self)
                }
                guard let string = interning ? keys.string(text) : UTF8Validation.string(text) else {
                    try validate(start..<cursor, ascii: false)
                    throw malformed("invalid UTF-8 in a string", at: start)
                }
                index = cursor + 1
                return string
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            ascii = ascii && byte < 0x80
            cursor += 1
        }
        return try parseEscapedString(start: start, runStart: cursor, ascii: ascii)
    }

    func validate(_ range: Range<Int>, ascii: Bool) throws(FormatFailure) {
        if ascii { return }
        if let bad = UTF8Validation.firstInvalidByte(in: bytes, range) {
            throw malformed("invalid UTF-8 (byte \(UTF8Validation.hex(bytes[bad]))) in a string", at: bad)
        }
    }

    /// The slow path: the string has escapes (or is malformed). `cursor` is where the fast
    /// scan stopped; everything from `start` to it is plain text.
    ///
    /// The text is validated once, at the end: escapes only produce whole UTF-8 sequences, so
    /// the result is valid exactly when every raw run between them is.
    mutating func parseEscapedString(start: Int, runStart cursor: Int, ascii: Bool) throws(FormatFailure) -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(cursor - start + 16)
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<cursor]))
        var cursor = cursor
        var runStart = cursor
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<cursor]))
                guard let string = buffer.withUnsafeBufferPointer(UTF8Validation.string) else {
                    try validate(start..<cursor, ascii: false)
                    throw malformed("invalid UTF-8 in a string", at: start)
                }
                index = cursor + 1
                return string
            }
            if byte < 0x20 {
                throw malformed(
                    "unescaped control character U+00\(UTF8Validation.hex(byte).dropFirst(2)) in a string; write it as an escape such as \\n or \\u00XX",
                    at: cursor)
            }
            guard byte == UInt8(ascii: "\\") else {
                cursor += 1
                // The rest of the run eight bytes at a time (the buffer is validated at the end).
                let base = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped)
                while bytes.count - cursor >= 8,
                    JSONStringBytes.specials(in: base.loadUnaligned(fromByteOffset: cursor, as: UInt64.self)) == 0
                {
                    cursor += 8
                }
                continue
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<cursor]))
            guard cursor + 1 < bytes.count else { break }
            let escape = bytes[cursor + 1]
            if let byte = JSONStringBytes.unescaped(escape) {
                buffer.append(byte)
            } else if escape == UInt8(ascii: "u") {
                cursor = try parseUnicodeEscape(at: cursor, into: &buffer)
                runStart = cursor
                continue
            } else {
                throw malformed("invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string", at: cursor)
            }
            cursor += 2
            runStart = cursor
        }
        throw endedEarly("unterminated string", at: start - 1)
    }

    /// Reads `\uXXXX` (and its low-surrogate partner) at `offset`; returns the offset after it.
    func parseUnicodeEscape(at offset: Int, into buffer: inout [UInt8]) throws(FormatFailure) -> Int {
        let high = try hexQuad(at: offset + 2)
        var scalar = UInt32(high)
        var end = offset + 6
        switch high {
        case 0xD800...0xDBFF:
            guard end + 1 < bytes.count, bytes[end] == UInt8(ascii: "\\"), bytes[end + 1] == UInt8(ascii: "u") else {
                throw malformed(
                    "lone surrogate \\u\(hex16(high)) in a string: a high surrogate must be followed by a \\u escape of a low surrogate",
                    at: offset)
            }
            let low = try hexQuad(at: end + 2)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw malformed(
                    "lone surrogate \\u\(hex16(high)) in a string: followed by \\u\(hex16(low)), not a low surrogate",
                    at: offset)
            }
            scalar = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            end += 6
        case 0xDC00...0xDFFF:
            throw malformed(
                "lone surrogate \\u\(hex16(high)) in a string: a low surrogate without a high one before it", at: offset
            )
        default:
            break
        }
        UTF8Validation.append(scalar, to: &buffer)
        return end
    }

    func hexQuad(at offset: Int) throws(FormatFailure) -> UInt16 {
        var value: UInt16 = 0
        for position in offset..<(offset + 4) {
            guard position < bytes.count else {
                throw malformed("unterminated \\u escape: four hexadecimal digits expected", at: offset - 2)
            }
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw malformed("invalid \\u escape: \(describe(byte)) is not a hexadecimal digit", at: position)
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    func hex16(_ value: UInt16) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - text.count) + text
    }

    // MARK: Numbers

    mutating func parseNumber() throws(FormatFailure) -> StoredValue {
        let start = index
        let (literal, cursor, problem) = NumberLiteral.scan(bytes, from: start, strict: true)
        if let problem {
            switch problem {
            case .expectedDigit(let offset): throw unexpected(at: offset, expecting: "a digit")
            case .leadingZero: throw malformed("number with a leading zero", at: start)
            case .expectedFractionDigit(let offset):
                throw unexpected(at: offset, expecting: "a digit after the decimal point")
            case .expectedExponentDigit(let offset): throw unexpected(at: offset, expecting: "a digit in the exponent")
            }
        }
        let (negative, mantissa, digitCount, overflow, exponentOverflow, isInteger) = (
            literal.negative, literal.mantissa, literal.digitCount, literal.overflow, literal.exponentOverflow,
            literal.isInteger
        )
        index = cursor
        if isInteger, !overflow {
            if negative {
                if mantissa == 0 { return .double(-0.0) }
                if mantissa <= UInt64(Int64.max) + 1 {
                    return .int(mantissa == UInt64(Int64.max) + 1 ? .min : -Int64(mantissa))
                }
            } else {
                return mantissa <= UInt64(Int64.max) ? .int(Int64(mantissa)) : .uint(mantissa)
            }
        }
        let scale = literal.scale
        if !isInteger, let value = literal.fastDouble {
            // A Double when it holds the number exactly (always, up to 15 significant digits);
            // otherwise a Decimal when one does; the nearest Double when neither does.
            if digitCount <= 15
                || NumberParsing.fastPathHoldsExactly(value, mantissa: mantissa, scale: scale, negative: negative)
            {
                return .double(value)
            }
            return NumberParsing.exactDecimal(mantissa: mantissa, scale: scale, negative: negative)
                .map(StoredValue.decimal) ?? .double(value)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<cursor]), as: UTF8.self)
        if isInteger {
            // Beyond 64 bits: exact as a Decimal when one holds it, an error otherwise.
            if let decimal = NumberParsing.exactDecimal(text) { return .decimal(decimal) }
            throw integerOutOfRange(start)
        }
        guard let value = Double(text), value.isFinite else {
            throw malformed("number \(NumberParsing.shown(text)) is too large for a Double", at: start)
        }
        guard value != 0 || !literal.isNonzero else {
            throw malformed(NumberParsing.underflows(NumberParsing.shown(text)), at: start)
        }
        // A Double when it holds the number exactly (always, up to 15 significant digits);
        // otherwise a Decimal when one does; the nearest Double when neither does.
        if digitCount > 15,
            overflow || exponentOverflow || !NumberParsing.holdsExactly(value, mantissa: mantissa, scale: scale),
            let decimal = NumberParsing.exactDecimal(text)
        {
            return .decimal(decimal)
        }
        return .double(value)
    }

    func integerOutOfRange(_ start: Int) -> FormatFailure {
        var end = start + 1
        while end < bytes.count, isDigit(bytes[end]) { end += 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        return malformed(
            "integer \(NumberParsing.shown(text)) has more significant digits than any number type holds exactly (38, or 39 below 2^128); store it as a string to keep it",
            at: start)
    }

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

}
