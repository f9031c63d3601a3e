import Foundation

/// OpenStep ("old-style") property lists and `.strings` files, read only, in the format layer:
/// what `plutil` reads besides XML, binary and JSON, for `rawcoding` to convert.
///
/// The grammar Core Foundation reads:
/// - a dictionary `{ key = value; … }` (every entry ends with `;`), an array `( a, b, )`
///   (a trailing comma allowed), data `<0fbd 7777>` (hex digits, spaces between them), and
///   strings, quoted (`"…"` or `'…'`, with the escapes `\a \b \f \n \r \t \v \\ \" \'`,
///   `\U` and one to four hex digits, and octal ones: `\0` to `\777`, kept to a byte as
///   Core Foundation keeps them (`\501` is `A`), a byte above `\177` naming a character of the
///   NeXTSTEP encoding, with `\376` and `\377` naming none and refused) or bare (letters, digits and
///   `_ $ / : . -`);
/// - `//` and `/* */` comments;
/// - at the top, one value, or (a `.strings` file) entries without braces: `"key" = "value";`,
///   where `"key";` alone maps the key to itself; an empty document is an empty dictionary.
///
/// Every scalar is a string: the format has no numbers, Booleans or dates. Text is UTF-8,
/// with or without a byte-order mark, or UTF-16 with one (how `.strings` files are often
/// saved). A key repeated in one dictionary is an error, as in the other readers.
///
/// Limits as for the other readers: the input's size, nesting (``Limits/maximumDepth`` and the
/// stack the calling thread has left), and values (each key counted, as in JSON). Error
/// positions give the line and column, and the byte offset in the input as given (in UTF-16
/// too).
package struct OpenStepPropertyListTreeFormat: TreeFormat {
    /// Whether the format was detected from a bare word alone (`hello world`), which any text
    /// starts with: a failure then says that no format fits, and what OpenStep found.
    package let isGuess: Bool

    package init(isGuess: Bool = false) {
        self.isGuess = isGuess
    }

    package var formatName: String { "OpenStep property list" }

    package var failureName: String { isGuess ? "input" : formatName }

    package func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits) throws(FormatFailure) -> StoredValue {
        guard isGuess else { return try parseText(bytes, limits: limits) }
        do {
            return try parseText(bytes, limits: limits)
        } catch  where error.kind == .decodingFailed {
            throw error.reworded("\(UnrecognizedTreeFormat.noFormat); as an OpenStep property list: \(error.reason)")
        }
    }

    private func parseText(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits) throws(FormatFailure) -> StoredValue {
        if let bigEndian = Self.utf16ByteOrder(bytes) {
            var utf8: [UInt8] = []
            var offsets: [Int] = []  // the input offset of each UTF-8 byte
            try Self.transcode(bytes, bigEndian: bigEndian, into: &utf8, offsets: &offsets)
            return try utf8.withUnsafeBufferPointer { (text) throws(FormatFailure) -> StoredValue in
                var parser = OpenStepParser(text: text, limits: limits) { offset in
                    let line = InputPosition(byteOffset: offset, inText: text)
                    let original = offset < offsets.count ? offsets[offset] : bytes.count
                    return InputPosition(byteOffset: original, line: line.line ?? 1, column: line.column ?? 1)
                }
                return try parser.parseDocument()
            }
        }
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let text = UnsafeBufferPointer(rebasing: bytes[start...])
        if let bad = UTF8Validation.firstInvalidByte(in: text, 0..<text.count) {
            throw .malformed(
                "the byte \(UTF8Validation.hex(text[bad])) is not UTF-8 (and there is no UTF-16 byte-order mark)",
                at: InputPosition(byteOffset: start + bad, inText: bytes))
        }
        var parser = OpenStepParser(text: text, limits: limits) { offset in
            InputPosition(byteOffset: start + offset, inText: bytes)
        }
        return try parser.parseDocument()
    }

    package func serialize(_ value: StoredValue, limits: Limits, loss: LossPolicy) throws(FormatFailure) -> [UInt8] {
        throw .unwritable("OpenStep property lists are read, not written: write XML, binary or JSON instead")
    }

    /// Each value takes at least a byte, and a key and its `=` and `;` three.
    package var valueCounting: ValueCounting { .boundedBySize(mostValues: { $0 + 1 }) }

    /// Whether the input starts with a bare word (`hello`), the only sign of OpenStep that
    /// plain text of any kind also shows.
    static func startsWithBareWord(_ bytes: Data) -> Bool {
        guard let first = UnrecognizedTreeFormat.firstVisibleByte(bytes) else { return false }
        return OpenStepParser.isBare(first)
    }

    /// Whether `bytes` is an OpenStep property list rather than JSON, from its start: a UTF-16
    /// byte-order mark; a first visible character JSON never starts with (`(`, the `/` of a
    /// comment, a bare word other than `true`, `false` and `null`); a quoted string followed
    /// by `=` or `;` (a `.strings` file); or `{` followed by `}`-less OpenStep: a comment, a
    /// bare key, or a quoted key followed by `=`.
    package static func hasSignature(_ bytes: Data) -> Bool {
        bytes.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            if utf16ByteOrder(bytes) != nil { return true }
            var offset = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            func skipSpace() {
                while offset < bytes.count, OpenStepParser.isSpace(bytes[offset]) { offset += 1 }
            }
            /// Whether a quoted string at `offset` is followed by one of `marks`.
            func quotedThen(_ marks: [UInt8]) -> Bool {
                let quote = bytes[offset]
                offset += 1
                while offset < bytes.count, bytes[offset] != quote {
                    offset += bytes[offset] == UInt8(ascii: "\\") ? 2 : 1
                }
                offset += 1
                skipSpace()
                return offset < bytes.count && marks.contains(bytes[offset])
            }
            skipSpace()
            guard offset < bytes.count else { return false }
            let first = bytes[offset]
            switch first {
            case UInt8(ascii: "("), UInt8(ascii: "/"), UInt8(ascii: "'"): return true
            case UInt8(ascii: "\""): return quotedThen([UInt8(ascii: "="), UInt8(ascii: ";")])
            case UInt8(ascii: "{"):
                offset += 1
                skipSpace()
                guard offset < bytes.count else { return false }
                let key = bytes[offset]
                if key == UInt8(ascii: "/") || OpenStepParser.isBare(key) { return true }
                return (key == UInt8(ascii: "\"") || key == UInt8(ascii: "'")) && quotedThen([UInt8(ascii: "=")])
            default:
                guard OpenStepParser.isBare(first), !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")),
                    first != UInt8(ascii: "-")
                else { return false }
                let word = bytes[offset...].prefix(while: OpenStepParser.isBare)
                return !["true", "false", "null"].contains(String(decoding: word, as: UTF8.self))
            }
        }
    }

    /// `true` for a big-endian byte-order mark, `false` for a little-endian one, `nil` without.
    static func utf16ByteOrder(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard bytes.count >= 2 else { return nil }
        if bytes[0] == 0xFE, bytes[1] == 0xFF { return true }
        if bytes[0] == 0xFF, bytes[1] == 0xFE { return false }
        return nil
    }

    /// UTF-16 after its byte-order mark, as UTF-8, with each UTF-8 byte's input offset.
    static func transcode(
        _ bytes: UnsafeBufferPointer<UInt8>, bigEndian: Bool, into utf8: inout [UInt8], offsets: inout [Int]
    ) throws(FormatFailure) {
        utf8.reserveCapacity(bytes.count)
        offsets.reserveCapacity(bytes.count)
        func unit(at offset: Int) -> UInt32 {
            bigEndian
                ? UInt32(bytes[offset]) << 8 | UInt32(bytes[offset + 1])
                : UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset])
        }
        func failure(_ reason: String, at offset: Int) -> FormatFailure {
            .malformed(reason, at: InputPosition(byteOffset: offset))
        }
        if bytes.count % 2 != 0 {
            throw failure("UTF-16 text has an odd number of bytes (\(bytes.count))", at: bytes.count - 1)
        }
        var offset = 2
        while offset < bytes.count {
            var scalar = unit(at: offset)
            let start = offset
            offset += 2
            if scalar >= 0xD800, scalar < 0xDC00 {
                guard offset < bytes.count, case let low = unit(at: offset), low >= 0xDC00, low < 0xE000 else {
                    throw failure("a lone high surrogate in UTF-16 text", at: start)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                offset += 2
            } else if scalar >= 0xDC00, scalar < 0xE000 {
                throw failure("a lone low surrogate in UTF-16 text", at: start)
            }
            let before = utf8.count
            UTF8Validation.append(scalar, to: &utf8)
            for _ in before..<utf8.count { offsets.append(start) }
        }
    }
}

/// The recursive-descent reader behind ``OpenStepPropertyListTreeFormat``, over UTF-8 text.
struct OpenStepParser {
    let text: UnsafeBufferPointer<UInt8>
    let limits: Limits
    /// The position of a UTF-8 offset in the input as given.
    let place: (Int) -> InputPosition
    var offset = 0
    var depth = 0
    var valueCount = 0
    var stack = StackCheck()

    init(text: UnsafeBufferPointer<UInt8>, limits: Limits, place: @escaping (Int) -> InputPosition) {
        self.text = text
        self.limits = limits
        self.place = place
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    /// A character of a bare (unquoted) string.
    static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."),
            UInt8(ascii: "-"):
            true
        default: false
        }
    }

    @inline(never)
    func malformed(_ reason: String, at offset: Int) -> FormatFailure {
        .malformed(reason, at: place(offset))
    }

    /// Malformed because the input ends inside a value or comment.
    func endedEarly(_ reason: String, at offset: Int) -> FormatFailure {
        .endedEarly(reason, at: place(offset))
    }

    /// What is at `offset`, for messages: a quoted character, or "the end".
    func shown(_ offset: Int) -> String {
        guard offset < text.count else { return "the end of the input" }
        let byte = text[offset]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "the byte \(UTF8Validation.hex(byte))"
    }

    /// Skips spaces and comments; an unclosed `/*` is an error.
    @inline(never)
    mutating func skipSpace() throws(FormatFailure) {
        while offset < text.count {
            let byte = text[offset]
            if Self.isSpace(byte) {
                offset += 1
            } else if byte == UInt8(ascii: "/"), offset + 1 < text.count, text[offset + 1] == UInt8(ascii: "/") {
                while offset < text.count, text[offset] != 0x0A, text[offset] != 0x0D { offset += 1 }
            } else if byte == UInt8(ascii: "/"), offset + 1 < text.count, text[offset + 1] == UInt8(ascii: "*") {
                let start = offset
                offset += 2
                while true {
                    guard offset + 1 < text.count else { throw endedEarly("a /* comment is not closed", at: start) }
                    if text[offset] == UInt8(ascii: "*"), text[offset + 1] == UInt8(ascii: "/") { break }
                    offset += 1
                }
                offset += 2
            } else {
                return
            }
        }
    }

    /// Counts a value or key; the end of the input where a value should start is an error here.
    @inline(never)
    mutating func count(at start: Int) throws(FormatFailure) {
        guard start < text.count else { throw endedEarly("the input ends where a value should start", at: start) }
        valueCount += 1
        if valueCount > limits.maximumValueCount { throw limits.valueCountFailure(at: place(start)) }
    }

    /// The whole document: one value, or a `.strings` file's entries; nothing after it.
    mutating func parseDocument() throws(FormatFailure) -> StoredValue {
        try skipSpace()
        if offset == text.count { return .dictionary([:]) }
        let start = offset
        let value: StoredValue
        if text[offset] == UInt8(ascii: "\"") || text[offset] == UInt8(ascii: "'") || Self.isBare(text[offset]) {
            // A string, or the first key of a `.strings` file: the next character tells.
            _ = try string()
            try skipSpace()
            let next = offset < text.count ? text[offset] : 0
            offset = start
            if next == UInt8(ascii: "=") || next == UInt8(ascii: ";") {
                try count(at: start)
                value = .dictionary(try entries(until: nil, openedAt: start))
            } else {
                value = try parseValue()
            }
        } else {
            value = try parseValue()
        }
        try skipSpace()
        guard offset == text.count else {
            throw malformed("\(shown(offset)) after the property list's value, which ended before it", at: offset)
        }
        return value
    }

    /// One value. Recursion goes parseValue → container → entries or array → parseValue, so
    /// these frames are kept small: scalars, messages and checks live in other functions.
    mutating func parseValue() throws(FormatFailure) -> StoredValue {
        try skipSpace()
        let start = offset
        try count(at: start)
        let byte = text[start]
        if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "(") {
            return try container(at: start)
        }
        return try scalar()
    }

    mutating func container(at start: Int) throws(FormatFailure) -> StoredValue {
        depth += 1
        defer { depth -= 1 }
        try checkNesting(at: start)
        offset += 1
        if text[start] == UInt8(ascii: "{") {
            return .dictionary(try entries(until: UInt8(ascii: "}"), openedAt: start))
        }
        return try array(openedAt: start)
    }

    @inline(never)
    mutating func checkNesting(at start: Int) throws(FormatFailure) {
        guard depth <= limits.effectiveDepth else { throw limits.depthFailure(at: place(start)) }
        guard stack.allows(depth: depth) else { throw stack.measured.failure(depth: depth, at: place(start)) }
    }

    /// Data or a string.
    @inline(never)
    mutating func scalar() throws(FormatFailure) -> StoredValue {
        text[offset] == UInt8(ascii: "<") ? .data(try data()) : .string(try string())
    }

    /// Entries `key = value;` up to `close` (or the end of the input, for `.strings` files).
    mutating func entries(until close: UInt8?, openedAt start: Int) throws(FormatFailure) -> StoredDictionary {
        var entries: [StoredDictionary.Element] = []
        var seen: Set<String> = []
        while try !atEnd(of: close, openedAt: start) {
            let (key, keyStart) = try entryKey(seen: &seen)
            let value: StoredValue
            if try keyIsItsOwnValue(key, at: keyStart) {
                value = .string(key)
            } else {
                do {
                    value = try parseValue()
                } catch {
                    throw error.inside(.key(key))
                }
            }
            try endEntry(of: key)
            entries.append((key, value))
        }
        return StoredDictionary(readEntries: entries)
    }

    /// Skips space; whether the dictionary ends here (its `close`, or the input's end for a
    /// `.strings` file), taking the `close`.
    @inline(never)
    mutating func atEnd(of close: UInt8?, openedAt start: Int) throws(FormatFailure) -> Bool {
        try skipSpace()
        guard let close else { return offset == text.count }
        guard offset < text.count else {
            throw endedEarly("the dictionary opened here is not closed with '}'", at: start)
        }
        guard text[offset] == close else { return false }
        offset += 1
        return true
    }

    /// A dictionary's key, not seen before in it.
    @inline(never)
    mutating func entryKey(seen: inout Set<String>) throws(FormatFailure) -> (String, Int) {
        let keyStart = offset
        guard text[offset] != UInt8(ascii: "{"), text[offset] != UInt8(ascii: "("), text[offset] != UInt8(ascii: "<")
        else {
            throw malformed("a dictionary key must be a string, not \(shown(offset))", at: offset)
        }
        try count(at: keyStart)
        let key = try string()
        guard seen.insert(key).inserted else {
            throw malformed("the key \(StoredValue.quoted(key)) appears twice in one dictionary", at: keyStart)
        }
        return (key, keyStart)
    }

    /// After a key: `;` (a `.strings` file's `"key";`, the key its own value, counted) or `=`,
    /// taken.
    @inline(never)
    mutating func keyIsItsOwnValue(_ key: String, at keyStart: Int) throws(FormatFailure) -> Bool {
        try skipSpace()
        if offset < text.count, text[offset] == UInt8(ascii: ";") {
            try count(at: keyStart)
            return true
        }
        guard offset < text.count, text[offset] == UInt8(ascii: "=") else {
            throw malformed("expected '=' after the key \(StoredValue.quoted(key)), found \(shown(offset))", at: offset)
        }
        offset += 1
        return false
    }

    /// The `;` after an entry.
    @inline(never)
    mutating func endEntry(of key: String) throws(FormatFailure) {
        try skipSpace()
        guard offset < text.count, text[offset] == UInt8(ascii: ";") else {
            throw malformed(
                "expected ';' after the value of \(StoredValue.quoted(key)), found \(shown(offset))", at: offset)
        }
        offset += 1
    }

    /// Values separated by commas up to `)`, a trailing comma allowed.
    mutating func array(openedAt start: Int) throws(FormatFailure) -> StoredValue {
        var elements: [StoredValue] = []
        while try !atArrayEnd(openedAt: start) {
            do {
                elements.append(try parseValue())
            } catch {
                throw error.inside(.index(elements.count))
            }
            try afterElement(openedAt: start)
        }
        return .array(elements)
    }

    /// Skips space; whether the array ends here, taking the `)`.
    @inline(never)
    mutating func atArrayEnd(openedAt start: Int) throws(FormatFailure) -> Bool {
        try skipSpace()
        guard offset < text.count else { throw endedEarly("the array opened here is not closed with ')'", at: start) }
        guard text[offset] == UInt8(ascii: ")") else { return false }
        offset += 1
        return true
    }

    /// A `,` (taken) or the `)` that follows an element.
    @inline(never)
    mutating func afterElement(openedAt start: Int) throws(FormatFailure) {
        try skipSpace()
        guard offset < text.count else { throw endedEarly("the array opened here is not closed with ')'", at: start) }
        if text[offset] == UInt8(ascii: ",") {
            offset += 1
        } else if text[offset] != UInt8(ascii: ")") {
            throw malformed("expected ',' or ')' in the array, found \(shown(offset))", at: offset)
        }
    }

    /// `<hex digits>`, spaces allowed between them.
    @inline(never)
    mutating func data() throws(FormatFailure) -> Data {
        let start = offset
        offset += 1
        var bytes: [UInt8] = []
        var high: UInt8?
        while true {
            guard offset < text.count else {
                throw endedEarly("the data opened here is not closed with '>'", at: start)
            }
            let byte = text[offset]
            if byte == UInt8(ascii: ">") {
                guard high == nil else { throw malformed("data holds an odd number of hex digits", at: offset) }
                offset += 1
                return Data(bytes)
            }
            if Self.isSpace(byte) {
                offset += 1
                continue
            }
            guard let digit = Self.hexValue(byte) else {
                throw malformed("data holds \(shown(offset)), not a hex digit", at: offset)
            }
            if let first = high {
                bytes.append(first << 4 | digit)
                high = nil
            } else {
                high = digit
            }
            offset += 1
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A quoted or bare string.
    @inline(never)
    mutating func string() throws(FormatFailure) -> String {
        let start = offset
        let quote = text[offset]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            let end = text[offset...].firstIndex { !Self.isBare($0) } ?? text.count
            guard end > offset else { throw malformed("\(shown(offset)) cannot start a value", at: offset) }
            offset = end
            return String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
        }
        offset += 1
        var utf8: [UInt8] = []
        var pendingHigh: (unit: UInt32, at: Int)?
        while true {
            guard offset < text.count else { throw endedEarly("the string opened here is not closed", at: start) }
            let byte = text[offset]
            if byte == quote {
                if let pending = pendingHigh {
                    throw malformed("\\U escape of a lone high surrogate", at: pending.at)
                }
                offset += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            guard byte == UInt8(ascii: "\\") else {
                if let pending = pendingHigh { throw malformed("\\U escape of a lone high surrogate", at: pending.at) }
                utf8.append(byte)
                offset += 1
                continue
            }
            let escape = offset
            offset += 1
            guard offset < text.count else { throw endedEarly("the string opened here is not closed", at: start) }
            let code = text[offset]
            offset += 1
            if code == UInt8(ascii: "U") {
                var value: UInt32 = 0
                var digits = 0
                while digits < 4, offset < text.count, let digit = Self.hexValue(text[offset]) {
                    value = value << 4 | UInt32(digit)
                    digits += 1
                    offset += 1
                }
                guard digits > 0 else { throw malformed("\\U must be followed by hex digits", at: escape) }
                if let pending = pendingHigh {
                    guard value >= 0xDC00, value < 0xE000 else {
                        throw malformed("\\U escape of a lone high surrogate", at: pending.at)
                    }
                    UTF8Validation.append(0x10000 + ((pending.unit - 0xD800) << 10) + (value - 0xDC00), to: &utf8)
                    pendingHigh = nil
                } else if value >= 0xD800, value < 0xDC00 {
                    pendingHigh = (value, escape)
                } else if value >= 0xDC00, value < 0xE000 {
                    throw malformed("\\U escape of a lone low surrogate", at: escape)
                } else {
                    UTF8Validation.append(value, to: &utf8)
                }
                continue
            }
            if let pending = pendingHigh { throw malformed("\\U escape of a lone high surrogate", at: pending.at) }
            switch code {
            case UInt8(ascii: "a"): utf8.append(0x07)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "v"): utf8.append(0x0B)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = UInt32(code - UInt8(ascii: "0"))
                var digits = 1
                while digits < 3, offset < text.count, text[offset] >= UInt8(ascii: "0"),
                    text[offset] <= UInt8(ascii: "7")
                {
                    value = value << 3 | UInt32(text[offset] - UInt8(ascii: "0"))
                    digits += 1
                    offset += 1
                }
                // As Core Foundation reads it: the value kept to a byte (`\501` is `A`), and a byte
                // above 0x7F a character of the NeXTSTEP encoding.
                let byte = UInt8(truncatingIfNeeded: value)
                guard let scalar = NeXTSTEPEncoding.scalar(byte) else {
                    throw malformed(
                        "the octal escape \\\(String(value, radix: 8)) names no character (the byte \(UTF8Validation.hex(byte)) "
                            + "of the NeXTSTEP encoding, as Core Foundation reads it); write the character itself or a "
                            + "\\U escape",
                        at: escape)
                }
                UTF8Validation.append(scalar, to: &utf8)
            default:
                // `\\`, `\"`, `\'` and any other character stand for themselves, as in CF.
                utf8.append(code)
            }
        }
    }
}
