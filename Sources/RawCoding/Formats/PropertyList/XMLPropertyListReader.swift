import Foundation

/// Reads an XML property list (Apple's DTD) into a ``StoredValue``.
///
/// ```swift
/// let tree = try XMLPropertyListReader().read(data)
/// ```
///
/// Accepted: the elements of Apple's DTD (`dict`/`key`, `array`, `string`, `integer`
/// (decimal, or hexadecimal with `0x`), `real` (including `nan`, `inf`, `+infinity`),
/// `true`, `false`, `date` (`YYYY-MM-DDTHH:MM:SSZ`), `data` (Base64, whitespace ignored)),
/// self-closing forms such as `<dict/>`, any value as the root with or without the
/// `<plist>` element, comments, processing instructions, CDATA sections, the five predefined
/// entities and numeric character references.
///
/// Refused: anything else, including entity references other than the five (a DTD's entity
/// declarations are never read, so nothing is expanded, and nothing outside the input is
/// ever fetched), a DTD with an internal subset, input that is not UTF-8, and integers
/// outside `Int64.min...UInt64.max`. A repeated key keeps its last value. Text is kept as
/// written (line breaks are not normalized), so strings written with control characters by
/// Apple's tools read back unchanged.
///
/// Every failure is a ``RawCodingError`` with line and column; ``Limits`` bound the size,
/// nesting and number of values.
public struct XMLPropertyListReader: Sendable {
    /// The bounds enforced while reading.
    public var limits: Limits

    /// Creates a reader.
    /// - Parameter limits: The bounds to enforce.
    public init(limits: Limits = .default) {
        self.limits = limits
    }

    /// Reads the property list in `data`.
    /// - Parameter data: UTF-8 XML.
    /// - Returns: The value.
    /// - Throws: ``RawCodingError`` with the position of the first problem.
    public func read(_ data: Data) throws(RawCodingError) -> StoredValue {
        try XMLPropertyListTreeFormat().readValue(data, limits: limits)
    }

}

struct XMLPropertyListParser {
    enum Tag: Equatable {
        case plist, dict, key, array, string, integer, real, `true`, `false`, date, data
        case other(String)

        var name: String {
            switch self {
            case .other(let name): name
            default: "\(self)"
            }
        }
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let limits: Limits
    let maximumDepth: Int
    var index = 0
    var depth = 0
    var valueCount = 0
    var keys = KeyInterner()

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

    // MARK: Document

    mutating func parseDocument() throws(FormatFailure) -> StoredValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        try skipMisc(prolog: true)
        guard index < bytes.count else {
            throw malformed(
                bytes.isEmpty ? "empty input; expected a property list" : "no element; expected a property list",
                at: index)
        }
        let tagStart = index
        let (tag, selfClosing) = try startTag()
        let value: StoredValue
        if tag == .plist {
            guard !selfClosing else { throw malformed("<plist/> holds no value", at: tagStart) }
            try skipMisc(prolog: false)
            value = try parseValue()
            try skipMisc(prolog: false)
            try endTag(.plist, openedAt: tagStart)
        } else {
            value = try parseValue(tag: tag, selfClosing: selfClosing, at: tagStart)
        }
        try skipMisc(prolog: false)
        guard index == bytes.count else { throw malformed("unexpected content after the property list", at: index) }
        return value
    }

    @inline(__always)
    func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    func hasPrefix(_ text: StaticString, at offset: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        let expected = text.utf8Start
        for position in 0..<count where bytes[offset + position] != expected[position] { return false }
        return true
    }

    /// The offset just past the next `terminator` from `offset`, or `nil`.
    func find(_ terminator: StaticString, from offset: Int) -> Int? {
        let first = terminator.utf8Start[0]
        var cursor = offset
        while cursor < bytes.count {
            if bytes[cursor] == first, hasPrefix(terminator, at: cursor) {
                return cursor + terminator.utf8CodeUnitCount
            }
            cursor += 1
        }
        return nil
    }

    /// Skips whitespace, comments, processing instructions and (in the prolog) the document
    /// type declaration.
    mutating func skipMisc(prolog: Bool) throws(FormatFailure) {
        while index < bytes.count {
            let byte = bytes[index]
            if isWhitespace(byte) {
                index += 1
            } else if byte != UInt8(ascii: "<") || index + 1 >= bytes.count
                || (bytes[index + 1] != UInt8(ascii: "!") && bytes[index + 1] != UInt8(ascii: "?"))
            {
                return
            } else if hasPrefix("<!--", at: index) {
                guard let end = find("-->", from: index + 4) else { throw malformed("unterminated comment", at: index) }
                try validate(index..<end)
                index = end
            } else if hasPrefix("<?", at: index) {
                guard let end = find("?>", from: index + 2) else {
                    throw malformed("unterminated processing instruction", at: index)
                }
                try validate(index..<end)
                index = end
            } else if hasPrefix("<!DOCTYPE", at: index) {
                guard prolog else {
                    throw malformed("a document type declaration may only come before the root element", at: index)
                }
                try skipDoctype()
            } else {
                return
            }
        }
    }

    /// Skips `<!DOCTYPE …>`. Its external identifier is never fetched; an internal subset
    /// (`[ … ]`, where entities would be declared) is refused.
    mutating func skipDoctype() throws(FormatFailure) {
        let start = index
        var cursor = index + 9
        var quote: UInt8?
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                throw malformed(
                    "a document type declaration with an internal subset is not accepted: entity declarations are never expanded",
                    at: cursor)
            } else if byte == UInt8(ascii: ">") {
                try validate(start..<cursor)
                index = cursor + 1
                return
            }
            cursor += 1
        }
        throw malformed("unterminated document type declaration", at: start)
    }

    // MARK: Tags

    func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
            UInt8(ascii: "."), UInt8(ascii: ":"), 0x80...:
            true
        default:
            false
        }
    }

    func tag(named range: Range<Int>) -> Tag {
        let name = UnsafeBufferPointer(rebasing: bytes[range])
        func equals(_ text: StaticString) -> Bool {
            memcmp(name.baseAddress!, text.utf8Start, name.count) == 0
        }
        switch name.count {
        case 3 where equals("key"): return .key
        case 4 where equals("dict"): return .dict
        case 4 where equals("real"): return .real
        case 4 where equals("true"): return .true
        case 4 where equals("date"): return .date
        case 4 where equals("data"): return .data
        case 5 where equals("array"): return .array
        case 5 where equals("false"): return .false
        case 5 where equals("plist"): return .plist
        case 6 where equals("string"): return .string
        case 7 where equals("integer"): return .integer
        default: return .other(String(decoding: name, as: UTF8.self))
        }
    }

    /// The name of a known tag, to match end tags byte for byte.
    static func name(of tag: Tag) -> StaticString? {
        switch tag {
        case .plist: "plist"
        case .dict: "dict"
        case .key: "key"
        case .array: "array"
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .true: "true"
        case .false: "false"
        case .date: "date"
        case .data: "data"
        case .other: nil
        }
    }

    /// Reads a start tag at `index`: its name and whether it closes itself (`<dict/>`).
    /// Attributes are skipped.
    mutating func startTag() throws(FormatFailure) -> (Tag, selfClosing: Bool) {
        let start = index
        guard index < bytes.count else { throw malformed("unexpected end of input; expected an element", at: index) }
        guard bytes[index] == UInt8(ascii: "<") else {
            throw malformed("unexpected text; expected an element such as <string>", at: index)
        }
        var cursor = index + 1
        while cursor < bytes.count, isNameByte(bytes[cursor]) { cursor += 1 }
        guard cursor > index + 1 else {
            if hasPrefix("</", at: index) { throw malformed("unexpected end tag; expected a value", at: index) }
            throw malformed("malformed tag", at: index)
        }
        let tag = tag(named: (index + 1)..<cursor)
        // The usual tag has no attributes: `<key>`, `<dict/>`.
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ">") {
            index = cursor + 1
            return (tag, false)
        }
        if cursor + 1 < bytes.count, bytes[cursor] == UInt8(ascii: "/"), bytes[cursor + 1] == UInt8(ascii: ">") {
            index = cursor + 2
            return (tag, true)
        }
        var quote: UInt8?
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                try validate(start..<cursor)
                index = cursor + 1
                return (tag, false)
            } else if byte == UInt8(ascii: "/"), cursor + 1 < bytes.count, bytes[cursor + 1] == UInt8(ascii: ">") {
                try validate(start..<cursor)
                index = cursor + 2
                return (tag, true)
            } else if byte == UInt8(ascii: "<") {
                break
            }
            cursor += 1
        }
        throw malformed("unterminated <\(tag.name)> tag", at: start)
    }

    /// Reads `</name>` at `index`.
    mutating func endTag(_ expected: Tag, openedAt opening: Int) throws(FormatFailure) {
        if let name = Self.name(of: expected) {
            let length = name.utf8CodeUnitCount
            let end = index + 2 + length
            if end < bytes.count, bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "/"),
                bytes[end] == UInt8(ascii: ">"), memcmp(bytes.baseAddress! + index + 2, name.utf8Start, length) == 0
            {
                index = end + 1
                return
            }
        }
        guard hasPrefix("</", at: index) else {
            throw malformed(
                index < bytes.count
                    ? "unexpected content; expected </\(expected.name)> to close the element opened at \(position(opening))"
                    : "unexpected end of input; expected </\(expected.name)>", at: index)
        }
        var cursor = index + 2
        while cursor < bytes.count, isNameByte(bytes[cursor]) { cursor += 1 }
        let found = tag(named: (index + 2)..<cursor)
        guard found == expected else {
            throw malformed(
                "</\(found.name)> does not close <\(expected.name)> opened at \(position(opening))", at: index)
        }
        while cursor < bytes.count, isWhitespace(bytes[cursor]) { cursor += 1 }
        guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ">") else {
            throw malformed("malformed end tag </\(expected.name)>", at: index)
        }
        index = cursor + 1
    }

    // MARK: Values

    mutating func parseValue() throws(FormatFailure) -> StoredValue {
        try skipMisc(prolog: false)
        let start = index
        let (tag, selfClosing) = try startTag()
        return try parseValue(tag: tag, selfClosing: selfClosing, at: start)
    }

    /// One value. Containers recurse through here, so scalars are read in another function:
    /// the frame that repeats per nesting level stays small, also in debug builds.
    mutating func parseValue(tag: Tag, selfClosing: Bool, at start: Int) throws(FormatFailure) -> StoredValue {
        valueCount += 1
        if valueCount > limits.maximumValueCount { throw limits.valueCountFailure(at: position(start)) }
        switch tag {
        case .dict: return try parseDictionary(selfClosing: selfClosing, at: start)
        case .array: return try parseArray(selfClosing: selfClosing, at: start)
        default: return try parseScalar(tag: tag, selfClosing: selfClosing, at: start)
        }
    }

    @inline(never)
    mutating func parseScalar(tag: Tag, selfClosing: Bool, at start: Int) throws(FormatFailure) -> StoredValue {
        switch tag {
        case .dict, .array: throw malformed("<\(tag.name)> where a scalar was expected", at: start)
        case .string: return .string(try text(of: .string, selfClosing: selfClosing, at: start))
        case .true, .false:
            if !selfClosing {
                try skipMisc(prolog: false)
                try endTag(tag, openedAt: start)
            }
            return .bool(tag == .true)
        case .integer:
            let contentStart = index
            let reader = self  // the closure reads the same bytes while this parser moves on
            return try withContent(of: .integer, selfClosing: selfClosing, at: start) { content throws(FormatFailure) in
                try reader.integer(content, at: contentStart)
            }
        case .real:
            let contentStart = index
            let reader = self
            return try withContent(of: .real, selfClosing: selfClosing, at: start) { content throws(FormatFailure) in
                try reader.real(content, at: contentStart)
            }
        case .date:
            let contentStart = index
            let reader = self
            return try withContent(of: .date, selfClosing: selfClosing, at: start) { content throws(FormatFailure) in
                guard let date = DateText.date(from: reader.trimmed(content)) else {
                    throw reader.malformed(
                        "invalid date \"\(reader.shown(content))\"; expected YYYY-MM-DDTHH:MM:SSZ", at: contentStart)
                }
                return .date(date)
            }
        case .data:
            let contentStart = index
            let reader = self
            return try withContent(of: .data, selfClosing: selfClosing, at: start) { content throws(FormatFailure) in
                guard let data = Data(base64Encoded: Data(content.filter { !reader.isWhitespace($0) })) else {
                    throw reader.malformed("invalid Base64 in <data>", at: contentStart)
                }
                return .data(data)
            }
        case .key:
            throw malformed("<key> outside a <dict>", at: start)
        case .plist:
            throw malformed("<plist> inside a property list", at: start)
        case .other(let name):
            throw malformed(
                "unknown element <\(name)>; property lists hold dict, array, string, integer, real, true, false, date and data",
                at: start)
        }
    }

    mutating func enterContainer(at start: Int) throws(FormatFailure) {
        depth += 1
        guard depth <= maximumDepth else { throw limits.depthFailure(at: position(start)) }
    }

    mutating func parseArray(selfClosing: Bool, at start: Int) throws(FormatFailure) -> StoredValue {
        try enterContainer(at: start)
        if selfClosing {
            depth -= 1
            return .array([])
        }
        var elements: [StoredValue] = []
        while true {
            try skipMisc(prolog: false)
            if hasPrefix("</", at: index) { break }
            do {
                elements.append(try parseValue())
            } catch {
                throw error.inside(.index(elements.count))
            }
        }
        try endTag(.array, openedAt: start)
        depth -= 1
        return .array(elements)
    }

    mutating func parseDictionary(selfClosing: Bool, at start: Int) throws(FormatFailure) -> StoredValue {
        try enterContainer(at: start)
        if selfClosing {
            depth -= 1
            return .dictionary(StoredDictionary())
        }
        var entries: [StoredDictionary.Element] = []
        while true {
            try skipMisc(prolog: false)
            if hasPrefix("</", at: index) { break }
            let keyStart = index
            let (tag, selfClosing) = try startTag()
            guard tag == .key else {
                throw malformed("<\(tag.name)> where a <key> was expected in a <dict>", at: keyStart)
            }
            let key = try text(of: .key, selfClosing: selfClosing, at: keyStart, interning: true)
            try skipMisc(prolog: false)
            guard !hasPrefix("</", at: index) else {
                throw malformed("<key>\(shown(key))</key> has no value", at: index)
            }
            do {
                entries.append((key, try parseValue()))
            } catch {
                throw error.inside(.key(key))
            }
        }
        try endTag(.dict, openedAt: start)
        depth -= 1
        return .dictionary(StoredDictionary(readEntries: entries))
    }

    // MARK: Text

    /// The character data of an element up to its end tag, with references and CDATA resolved.
    /// `interning` reuses strings read before (for keys).
    mutating func text(of tag: Tag, selfClosing: Bool, at start: Int, interning: Bool = false) throws(FormatFailure)
        -> String
    {
        if selfClosing { return "" }
        // Plain text up to the end tag, the usual case: no copy before the String.
        let contentStart = index
        if let end = try plainContentEnd(of: tag, at: start) {
            return interning ? try key(contentStart..<end) : try string(contentStart..<end)
        }
        var buffer: [UInt8] = []
        var runStart = index
        var cursor = index
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "<") {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<cursor]))
                if hasPrefix("<![CDATA[", at: cursor) {
                    guard let end = find("]]>", from: cursor + 9) else {
                        throw malformed("unterminated CDATA section", at: cursor)
                    }
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(cursor + 9)..<(end - 3)]))
                    cursor = end
                } else if hasPrefix("<!--", at: cursor) {
                    guard let end = find("-->", from: cursor + 4) else {
                        throw malformed("unterminated comment", at: cursor)
                    }
                    try validate(cursor..<end)
                    cursor = end
                } else {
                    index = cursor
                    try endTag(tag, openedAt: start)
                    return try buffer.withUnsafeBufferPointer { text throws(FormatFailure) in
                        guard let string = UTF8Validation.string(text) else {
                            throw malformed(
                                "invalid UTF-8 in the text of <\(tag.name)>; XML property lists are read as UTF-8",
                                at: start)
                        }
                        return string
                    }
                }
                runStart = cursor
            } else if byte == UInt8(ascii: "&") {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<cursor]))
                cursor = try reference(at: cursor, into: &buffer)
                runStart = cursor
            } else {
                cursor += 1
            }
        }
        throw malformed("unexpected end of input inside <\(tag.name)>", at: start)
    }

    /// Resolves the reference at `offset` (`&amp;`, `&#60;`, `&#x3C;`); returns the offset after it.
    func reference(at offset: Int, into buffer: inout [UInt8]) throws(FormatFailure) -> Int {
        var end = offset + 1
        while end < bytes.count, end - offset < 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw malformed("'&' that does not start a reference; write it as &amp;", at: offset)
        }
        let name = UnsafeBufferPointer(rebasing: bytes[(offset + 1)..<end])
        let text = String(decoding: name, as: UTF8.self)
        switch text {
        case "amp": buffer.append(UInt8(ascii: "&"))
        case "lt": buffer.append(UInt8(ascii: "<"))
        case "gt": buffer.append(UInt8(ascii: ">"))
        case "quot": buffer.append(UInt8(ascii: "\""))
        case "apos": buffer.append(UInt8(ascii: "'"))
        default:
            guard text.hasPrefix("#") else {
                throw malformed(
                    "unknown entity &\(text);: only &amp; &lt; &gt; &quot; &apos; and character references are accepted (entities declared in a DTD are never expanded)",
                    at: offset)
            }
            let digits = text.dropFirst()
            let scalar: UInt32? =
                digits.hasPrefix("x")
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let scalar, scalar != 0, Unicode.Scalar(scalar) != nil,
                !digits.hasPrefix("+"), !digits.hasPrefix("-"), !digits.dropFirst().hasPrefix("+")
            else {
                throw malformed("invalid character reference &\(text);", at: offset)
            }
            UTF8Validation.append(scalar, to: &buffer)
        }
        return end + 1
    }

    /// The key spelled by `range`, which must be valid UTF-8.
    mutating func key(_ range: Range<Int>) throws(FormatFailure) -> String {
        if let key = keys.string(UnsafeBufferPointer(rebasing: bytes[range])) { return key }
        return try string(range)
    }

    /// The text of `range`, which must be valid UTF-8.
    func string(_ range: Range<Int>) throws(FormatFailure) -> String {
        let text = UnsafeBufferPointer(rebasing: bytes[range])
        if let string = UTF8Validation.string(text) { return string }
        let bad = UTF8Validation.firstInvalidByte(in: bytes, range) ?? range.lowerBound
        throw malformed(
            "invalid UTF-8 (byte \(UTF8Validation.hex(bytes[bad]))); XML property lists are read as UTF-8", at: bad)
    }

    /// Checks that markup outside text (comments, declarations, attributes) is UTF-8.
    func validate(_ range: Range<Int>) throws(FormatFailure) {
        if let bad = UTF8Validation.firstInvalidByte(in: bytes, range) {
            throw malformed(
                "invalid UTF-8 (byte \(UTF8Validation.hex(bytes[bad]))); XML property lists are read as UTF-8", at: bad)
        }
    }

    func shown(_ text: some StringProtocol) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : String(text)
    }

    /// When an element's character data is plain text (no references, CDATA or comments)
    /// running up to its end tag, reads past the end tag and returns where the text ends;
    /// otherwise leaves `index` where it is and returns `nil`.
    mutating func plainContentEnd(of tag: Tag, at start: Int) throws(FormatFailure) -> Int? {
        let base = bytes.baseAddress!
        let end =
            memchr(base + index, Int32(UInt8(ascii: "<")), bytes.count - index)
            .map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base } ?? bytes.count
        guard end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "/"),
            memchr(base + index, Int32(UInt8(ascii: "&")), end - index) == nil
        else { return nil }
        index = end
        try endTag(tag, openedAt: start)
        return end
    }

    /// Calls `body` with an element's character data without making a `String` when the
    /// data is plain text (no references, CDATA or comments), as numbers always are.
    mutating func withContent(
        of tag: Tag, selfClosing: Bool, at start: Int,
        _ body: (UnsafeBufferPointer<UInt8>) throws(FormatFailure) -> StoredValue
    ) throws(FormatFailure) -> StoredValue {
        let contentStart = index
        if !selfClosing, let end = try plainContentEnd(of: tag, at: start) {
            return try body(UnsafeBufferPointer(rebasing: bytes[contentStart..<end]))
        }
        var text = try text(of: tag, selfClosing: selfClosing, at: start)
        let result = text.withUTF8 { content -> Result<StoredValue, FormatFailure> in
            do throws(FormatFailure) {
                return .success(try body(content))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// `content` without leading and trailing XML whitespace.
    func trimmed(_ content: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = content.count
        while start < end, isWhitespace(content[start]) { start += 1 }
        while end > start, isWhitespace(content[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: content[start..<end])
    }

    func shown(_ content: UnsafeBufferPointer<UInt8>) -> String {
        shown(String(decoding: content, as: UTF8.self))
    }

    func integer(_ content: UnsafeBufferPointer<UInt8>, at offset: Int) throws(FormatFailure) -> StoredValue {
        var text = trimmed(content)
        var negative = false
        if let sign = text.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            text = UnsafeBufferPointer(rebasing: text.dropFirst())
        }
        var radix: UInt64 = 10
        if text.count > 2, text[0] == UInt8(ascii: "0"), text[1] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            text = UnsafeBufferPointer(rebasing: text.dropFirst(2))
        }
        guard !text.isEmpty else { throw malformed("invalid integer \"\(shown(content))\"", at: offset) }
        var magnitude: UInt64 = 0
        for byte in text {
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt64(byte - UInt8(ascii: "A") + 10)
            default: throw malformed("invalid integer \"\(shown(content))\"", at: offset)
            }
            let (times, overflow1) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, overflow2) = times.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else {
                throw malformed(
                    "integer \(shown(content)) does not fit in 64 bits (the range is \(Int64.min) to \(UInt64.max))",
                    at: offset)
            }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else {
                throw malformed(
                    "integer \(shown(content)) does not fit in 64 bits (the range is \(Int64.min) to \(UInt64.max))",
                    at: offset)
            }
            return .int(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
        }
        return magnitude <= UInt64(Int64.max) ? .int(Int64(magnitude)) : .uint(magnitude)
    }

    func real(_ content: UnsafeBufferPointer<UInt8>, at offset: Int) throws(FormatFailure) -> StoredValue {
        let text = trimmed(content)
        if let first = text.first,
            first | 0x20 == UInt8(ascii: "n") || first | 0x20 == UInt8(ascii: "i")
                || ((first == UInt8(ascii: "+") || first == UInt8(ascii: "-")) && text.count > 1
                    && text[1] | 0x20 == UInt8(ascii: "i"))
        {
            switch String(decoding: text, as: UTF8.self).lowercased() {
            case "nan": return .double(.nan)
            case "inf", "+inf", "infinity", "+infinity": return .double(.infinity)
            case "-inf", "-infinity": return .double(-.infinity)
            default: throw malformed("invalid real \"\(shown(content))\"", at: offset)
            }
        }
        guard let value = NumberParsing.double(text) else {
            throw malformed("invalid real \"\(shown(content))\"", at: offset)
        }
        guard value.isFinite else {
            throw malformed(
                "real \(shown(content)) is too large for a Double; write +infinity if that is meant", at: offset)
        }
        return .double(value)
    }

}
