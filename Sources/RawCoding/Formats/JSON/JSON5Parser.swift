import Foundation

/// Reads JSON5 (json5.org, 1.0.0) into a ``StoredValue``, as `JSONDecoder` with
/// `allowsJSON5` reads it: comments, trailing commas, single-quoted strings, unquoted keys,
/// hexadecimal integers, `Infinity` and `NaN`, leading `+` and leading or trailing `.`,
/// escaped line breaks and JSON5's extra escapes. Strings may not hold U+0000 (as in
/// `JSONDecoder`'s JSON5). Bounded as the JSON parser is: ``Limits`` (depth, values) and the
/// thread's stack, every failure a ``FormatFailure`` with its position and path.
///
/// With `topLevelDictionary` a document without braces (`name: "Ada", age: 7`) is the members
/// of a dictionary, as with `assumesTopLevelDictionary`; a document with them reads as usual.
struct JSON5Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: Limits
    let maximumDepth: Int
    var index = 0
    var depth = 0
    var valueCount = 0
    var stack = StackCheck()

    init(bytes: UnsafeBufferPointer<UInt8>, limits: Limits) {
        self.bytes = bytes
        self.limits = limits
        maximumDepth = limits.effectiveDepth
    }

    // MARK: Errors

    func malformed(_ reason: String, at offset: Int) -> FormatFailure {
        .malformed(reason, at: InputPosition(byteOffset: offset, inText: bytes))
    }

    /// Malformed because the input ends inside a value or comment.
    func endedEarly(_ reason: String, at offset: Int) -> FormatFailure {
        .endedEarly(reason, at: InputPosition(byteOffset: offset, inText: bytes))
    }

    func unexpected(at offset: Int, expecting expected: String) -> FormatFailure {
        guard offset < bytes.count else {
            return endedEarly("unexpected end of input; expected \(expected)", at: offset)
        }
        let byte = bytes[offset]
        let what =
            byte >= 0x21 && byte < 0x7F
            ? "character '\(Character(Unicode.Scalar(byte)))'" : "byte \(UTF8Validation.hex(byte))"
        return malformed("unexpected \(what); expected \(expected)", at: offset)
    }

    // MARK: Document

    mutating func parseDocument(topLevelDictionary: Bool) throws(FormatFailure) -> StoredValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        try skipSpace()
        let value: StoredValue
        if topLevelDictionary, index >= bytes.count || bytes[index] != UInt8(ascii: "{") {
            value = try parseMembers(closing: nil)
        } else {
            guard index < bytes.count else {
                throw malformed(bytes.isEmpty ? "empty input; expected a JSON5 value" : "no JSON5 value", at: index)
            }
            value = try parseValue()
        }
        try skipSpace()
        guard index == bytes.count else { throw unexpected(at: index, expecting: "the end of the input") }
        return value
    }

    // MARK: Space and comments

    /// Skips white space (JSON5's: Unicode space separators, line terminators, BOM) and comments.
    mutating func skipSpace() throws(FormatFailure) {
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D:
                index += 1
            case UInt8(ascii: "/"):
                guard index + 1 < bytes.count else { throw unexpected(at: index + 1, expecting: "a comment") }
                if bytes[index + 1] == UInt8(ascii: "/") {
                    index += 2
                    while index < bytes.count, !isLineTerminator(at: index) { index += 1 }
                } else if bytes[index + 1] == UInt8(ascii: "*") {
                    let start = index
                    index += 2
                    while true {
                        guard index + 1 < bytes.count else { throw endedEarly("unterminated comment", at: start) }
                        if bytes[index] == UInt8(ascii: "*"), bytes[index + 1] == UInt8(ascii: "/") { break }
                        index += 1
                    }
                    index += 2
                } else {
                    throw unexpected(at: index + 1, expecting: "'/' or '*' after '/'")
                }
            case 0x80...:
                guard let (scalar, length) = scalar(at: index), Self.isSpace(scalar) else { return }
                index += length
            default:
                return
            }
        }
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        [0xA0, 0xFEFF, 0x2028, 0x2029].contains(scalar.value) || scalar.properties.generalCategory == .spaceSeparator
    }

    func isLineTerminator(at offset: Int) -> Bool {
        let byte = bytes[offset]
        if byte == 0x0A || byte == 0x0D { return true }
        // U+2028 and U+2029: E2 80 A8 and E2 80 A9.
        return byte == 0xE2 && offset + 2 < bytes.count && bytes[offset + 1] == 0x80
            && (bytes[offset + 2] == 0xA8 || bytes[offset + 2] == 0xA9)
    }

    /// The Unicode scalar at `offset` and its length in bytes; `nil` for invalid UTF-8.
    func scalar(at offset: Int) -> (Unicode.Scalar, Int)? {
        let first = bytes[offset]
        let length = first < 0x80 ? 1 : first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC2 ? 2 : 0
        guard length > 0, offset + length <= bytes.count else { return nil }
        let text = UnsafeBufferPointer(rebasing: bytes[offset..<(offset + length)])
        guard let string = UTF8Validation.string(text), let scalar = string.unicodeScalars.first,
            string.unicodeScalars.count == 1
        else { return nil }
        return (scalar, length)
    }

    // MARK: Values

    mutating func parseValue() throws(FormatFailure) -> StoredValue {
        valueCount += 1
        if valueCount > limits.maximumValueCount {
            throw limits.valueCountFailure(at: InputPosition(byteOffset: index, inText: bytes))
        }
        guard index < bytes.count else { throw unexpected(at: index, expecting: "a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            try enterContainer()
            let value = try parseMembers(closing: UInt8(ascii: "}"))
            depth -= 1
            return value
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return .string(try parseString())
        default: return try parseScalar()
        }
    }

    mutating func parseScalar() throws(FormatFailure) -> StoredValue {
        if try matchWord("true") { return .bool(true) }
        if try matchWord("false") { return .bool(false) }
        if try matchWord("null") { return .null }
        return try parseNumber()
    }

    /// Whether `word` (not followed by an identifier character) is at the cursor; consumes it.
    mutating func matchWord(_ word: StaticString) throws(FormatFailure) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        if index + count < bytes.count, Self.isIdentifierPart(bytes[index + count]) { return false }
        index += count
        return true
    }

    mutating func enterContainer() throws(FormatFailure) {
        depth += 1
        let position = InputPosition(byteOffset: index, inText: bytes)
        guard depth <= maximumDepth else { throw limits.depthFailure(at: position) }
        guard stack.allows(depth: depth) else { throw stack.measured.failure(depth: depth, at: position) }
        index += 1
    }

    mutating func parseArray() throws(FormatFailure) -> StoredValue {
        try enterContainer()
        var elements: [StoredValue] = []
        while true {
            try skipSpace()
            guard index < bytes.count else { throw unexpected(at: index, expecting: "a value or ']'") }
            if bytes[index] == UInt8(ascii: "]") { break }
            do {
                elements.append(try parseValue())
            } catch {
                throw error.inside(.index(elements.count))
            }
            try skipSpace()
            guard index < bytes.count else { throw unexpected(at: index, expecting: "',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw unexpected(at: index, expecting: "',' or ']'") }
            break
        }
        index += 1
        depth -= 1
        return .array(elements)
    }

    /// Members up to `closing` (consumed), or to the end of the input when `nil`.
    mutating func parseMembers(closing: UInt8?) throws(FormatFailure) -> StoredValue {
        var entries: [StoredDictionary.Element] = []
        let expectation = closing == nil ? "a key or the end of the input" : "a key or '}'"
        while true {
            try skipSpace()
            if let closing {
                guard index < bytes.count else { throw unexpected(at: index, expecting: expectation) }
                if bytes[index] == closing { break }
            } else if index >= bytes.count {
                break
            }
            let key = try parseKey()
            try skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw unexpected(at: index, expecting: "':' after the key")
            }
            index += 1
            try skipSpace()
            do {
                entries.append((key, try parseValue()))
            } catch {
                throw error.inside(.key(key))
            }
            try skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if let closing {
                guard index < bytes.count, bytes[index] == closing else {
                    throw unexpected(at: index, expecting: "',' or '}'")
                }
            } else if index < bytes.count {
                throw unexpected(at: index, expecting: "',' or the end of the input")
            }
            break
        }
        if closing != nil { index += 1 }
        return .dictionary(StoredDictionary(readEntries: entries))
    }

    // MARK: Keys

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "$")
    }

    static func isIdentifierPart(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte >= 0x80
    }

    mutating func parseKey() throws(FormatFailure) -> String {
        guard index < bytes.count else { throw unexpected(at: index, expecting: "a key") }
        if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") { return try parseString() }
        // An identifier: letters, `$`, `_`, `\uXXXX`, then digits and marks too.
        var output: [UInt8] = []
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            let isFirst = index == start
            if byte < 0x80 {
                if byte == UInt8(ascii: "\\") {
                    guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                        throw unexpected(at: index + 1, expecting: "'u' in an escape in a key")
                    }
                    let value = try hex(at: index + 2, digits: 4)
                    guard let scalar = Unicode.Scalar(value), Self.isIdentifier(scalar, first: isFirst) else {
                        throw malformed(
                            "\\u\(String(value, radix: 16)) cannot be part of a key without quotes", at: index)
                    }
                    output.append(contentsOf: String(scalar).utf8)
                    index += 6
                    continue
                }
                guard isFirst ? Self.isIdentifierStart(byte) : Self.isIdentifierPart(byte) else { break }
                output.append(byte)
                index += 1
            } else {
                guard let (scalar, length) = scalar(at: index) else {
                    throw malformed("invalid UTF-8 (byte \(UTF8Validation.hex(byte))) in a key", at: index)
                }
                guard Self.isIdentifier(scalar, first: isFirst) else { break }
                output.append(contentsOf: bytes[index..<(index + length)])
                index += length
            }
        }
        guard index > start else { throw unexpected(at: index, expecting: "a key") }
        return String(decoding: output, as: UTF8.self)
    }

    static func isIdentifier(_ scalar: Unicode.Scalar, first: Bool) -> Bool {
        if scalar.isASCII {
            return first ? isIdentifierStart(UInt8(scalar.value)) : isIdentifierPart(UInt8(scalar.value))
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .letterNumber:
            return true
        case .nonspacingMark, .spacingMark, .decimalNumber, .connectorPunctuation:
            return !first
        default:
            return !first && (scalar.value == 0x200C || scalar.value == 0x200D)
        }
    }

    // MARK: Strings

    /// A string in double or single quotes, with JSON5's escapes.
    mutating func parseString() throws(FormatFailure) -> String {
        let quote = bytes[index]
        let start = index
        index += 1
        var output: [UInt8] = []
        while true {
            guard index < bytes.count else { throw endedEarly("unterminated string", at: start) }
            let byte = bytes[index]
            if byte == quote {
                index += 1
                break
            }
            if byte == 0x0A || byte == 0x0D {
                throw malformed("a line break in a string must be escaped", at: index)
            }
            if byte == 0 { throw malformed("U+0000 in a string", at: index) }
            if byte != UInt8(ascii: "\\") {
                output.append(byte)
                index += 1
                continue
            }
            try parseEscape(into: &output)
        }
        guard let string = output.withUnsafeBufferPointer(UTF8Validation.string) else {
            throw malformed("invalid UTF-8 in a string", at: start)
        }
        return string
    }

    mutating func parseEscape(into output: inout [UInt8]) throws(FormatFailure) {
        let escape = index
        index += 1
        guard index < bytes.count else { throw endedEarly("unterminated escape", at: escape) }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"):
            output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "v"): output.append(0x0B)
        case 0x0A: break  // an escaped line break continues the string
        case 0x0D:
            if index < bytes.count, bytes[index] == 0x0A { index += 1 }
        case UInt8(ascii: "0"), UInt8(ascii: "1")...UInt8(ascii: "9"):
            // `\0` is U+0000, which strings may not hold here; other digits are not escapes.
            throw malformed("\\\(Character(Unicode.Scalar(byte))) is not an escape a string here may hold", at: escape)
        case UInt8(ascii: "x"):
            let value = try hex(at: index, digits: 2)
            guard value != 0 else { throw malformed("U+0000 in a string", at: escape) }
            index += 2
            output.append(contentsOf: String(Unicode.Scalar(UInt8(value))).utf8)
        case UInt8(ascii: "u"):
            var value = try hex(at: index, digits: 4)
            index += 4
            if (0xD800...0xDBFF).contains(value) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw malformed("a high surrogate escape without its low one", at: escape) }
                let low = try hex(at: index + 2, digits: 4)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw malformed("a high surrogate escape without its low one", at: escape)
                }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                index += 6
            }
            guard value != 0, let scalar = Unicode.Scalar(value) else {
                throw malformed("\\u escape of \(value == 0 ? "U+0000" : "a lone surrogate") in a string", at: escape)
            }
            output.append(contentsOf: String(scalar).utf8)
        default:
            // Any other character stands for itself (`\'`, `\"`, `\\`, `\/`, U+2028 …).
            index -= 1
            guard let (_, length) = scalar(at: index) else {
                throw malformed("invalid UTF-8 (byte \(UTF8Validation.hex(byte))) in a string", at: index)
            }
            if !isLineTerminator(at: index) { output.append(contentsOf: bytes[index..<(index + length)]) }
            index += length
        }
    }

    /// `digits` hexadecimal digits at `offset`.
    func hex(at offset: Int, digits: Int) throws(FormatFailure) -> UInt32 {
        var value: UInt32 = 0
        for position in offset..<(offset + digits) {
            guard position < bytes.count, let digit = Self.hexDigit(bytes[position]) else {
                throw unexpected(at: position, expecting: "a hexadecimal digit")
            }
            value = value << 4 | digit
        }
        return value
    }

    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    // MARK: Numbers

    /// A number: JSON's, with a leading `+`, a leading or trailing `.`, hexadecimal integers
    /// (`0x1F`), `Infinity` and `NaN`, each with a sign. Decimal text is normalized to JSON's
    /// and read by the JSON parser, so its exactness rules (a Double, or a Decimal that keeps
    /// every digit) and its range errors are the same.
    mutating func parseNumber() throws(FormatFailure) -> StoredValue {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        if try matchWord("Infinity") { return .double(negative ? -.infinity : .infinity) }
        if try matchWord("NaN") { return .double(.nan) }
        guard index < bytes.count else { throw unexpected(at: index, expecting: "a value") }
        if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count, bytes[index + 1] | 0x20 == UInt8(ascii: "x") {
            return try parseHexadecimal(negative: negative, start: start)
        }
        // The digits, point and exponent, as JSON text: "0" before a leading point, none after a
        // trailing one.
        var text: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        let digitsStart = index
        if bytes[index] == UInt8(ascii: ".") {
            // A leading point needs a digit after it (`.5`; `.e1` is not a number).
            guard index + 1 < bytes.count, bytes[index + 1] >= UInt8(ascii: "0"), bytes[index + 1] <= UInt8(ascii: "9")
            else { throw unexpected(at: index + 1, expecting: "a digit after '.'") }
            text.append(UInt8(ascii: "0"))
        }
        var previous: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            let isNumberByte =
                (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".")
                || byte | 0x20 == UInt8(ascii: "e")
                || ((byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) && previous | 0x20 == UInt8(ascii: "e"))
            guard isNumberByte else { break }
            if byte | 0x20 == UInt8(ascii: "e"), previous == UInt8(ascii: ".") { text.append(UInt8(ascii: "0")) }
            text.append(byte)
            previous = byte
            index += 1
        }
        guard index > digitsStart else { throw unexpected(at: start, expecting: "a value") }
        if previous == UInt8(ascii: ".") { text.append(UInt8(ascii: "0")) }
        if index < bytes.count, Self.isIdentifierPart(bytes[index]) {
            throw unexpected(at: index, expecting: "the end of the number")
        }
        return try text.withUnsafeBufferPointer { buffer throws(FormatFailure) -> StoredValue in
            var parser = JSONParser(bytes: buffer, limits: limits)
            do throws(FormatFailure) {
                let value = try parser.parseNumber()
                guard parser.index == buffer.count else {
                    throw unexpected(at: start + parser.index, expecting: "the end of the number")
                }
                return value
            } catch {
                throw malformed(
                    "invalid number \"\(String(decoding: bytes[start..<index], as: UTF8.self))\": \(error.reason)",
                    at: start)
            }
        }
    }

    mutating func parseHexadecimal(negative: Bool, start: Int) throws(FormatFailure) -> StoredValue {
        index += 2
        let digitsStart = index
        var magnitude: UInt64 = 0
        while index < bytes.count, let digit = Self.hexDigit(bytes[index]) {
            let (times, overflow1) = magnitude.multipliedReportingOverflow(by: 16)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { throw malformed(NumberParsing.outside64Bits("0x…"), at: start) }
            magnitude = sum
            index += 1
        }
        guard index > digitsStart else { throw unexpected(at: index, expecting: "a hexadecimal digit") }
        if index < bytes.count, Self.isIdentifierPart(bytes[index]) {
            throw unexpected(at: index, expecting: "the end of the number")
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else {
                throw malformed(NumberParsing.outside64Bits("-0x…"), at: start)
            }
            return magnitude == 0 ? .int(0) : .int(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
        }
        return magnitude <= UInt64(Int64.max) ? .int(Int64(magnitude)) : .uint(magnitude)
    }
}
