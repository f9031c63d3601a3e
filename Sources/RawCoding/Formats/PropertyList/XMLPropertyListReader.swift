import Foundation

/// Reads an XML property list (Apple's DTD) into a ``StoredValue``.
///
/// ```swift
/// let tree = try XMLPropertyListReader().read(data)
/// ```
///
/// Accepted: the elements of Apple's DTD (`dict`/`key`, `array`, `string`, `integer`
/// (decimal, or hexadecimal with `0x`; spaces before and after the sign, none after the
/// digits, as Core Foundation reads it), `real` (including `nan`, `inf`, `+infinity`; spaces
/// before it, none after),
/// `true`, `false`, `date` (`YYYY-MM-DDTHH:MM:SSZ`), `data` (Base64, whitespace ignored)),
/// self-closing forms such as `<dict/>`, any value as the root with or without the
/// `<plist>` element, comments, processing instructions, CDATA sections, the five predefined
/// entities and numeric character references.
///
/// Refused: anything else, including the character U+0000 (which no XML can hold, and
/// ``XMLPropertyListWriter`` refuses), entity references other than the five (a DTD's entity
/// declarations are never read, so nothing is expanded, and nothing outside the input is
/// ever fetched), a DTD with an internal subset, text in no Unicode encoding (UTF-8, or
/// UTF-16 or UTF-32 told by a byte-order mark or zero bytes, is read), an 8-bit document whose
/// XML declaration names another encoding than UTF-8 (or US-ASCII), integers outside
/// `Int64.min...UInt64.max`, and reals too large for a `Double` or so small they would read as
/// zero. A repeated key keeps its last value. Text is kept as
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
    typealias Tag = PropertyListTag

    let bytes: UnsafeBufferPointer<UInt8>
    let limits: Limits
    let maximumDepth: Int
    /// Whether `bytes` were UTF-16 or UTF-32, made UTF-8: the XML declaration's encoding is then
    /// not read.
    let wide: Bool
    var index = 0
    var depth = 0
    var valueCount = 0
    var keys = KeyInterner()
    var stack = StackCheck()

    init(bytes: UnsafeBufferPointer<UInt8>, limits: Limits, wide: Bool = false) {
        self.bytes = bytes
        self.limits = limits
        self.wide = wide
        maximumDepth = limits.effectiveDepth
    }

    // MARK: Errors

    func position(_ offset: Int) -> InputPosition {
        InputPosition(byteOffset: offset, inText: bytes)
    }

    func malformed(_ reason: String, at offset: Int) -> FormatFailure {
        .malformed(reason, at: position(offset))
    }

    /// Malformed because the input ends inside an element, tag or comment.
    func endedEarly(_ reason: String, at offset: Int) -> FormatFailure {
        .endedEarly(reason, at: position(offset))
    }

    // MARK: Document

    mutating func parseDocument() throws(FormatFailure) -> StoredValue {
        // No XML can hold U+0000, so the writer refuses it: the reader does too, wherever it is,
        // so that whatever is read can be written back.
        if let base = bytes.baseAddress, let zero = memchr(base, 0, bytes.count) {
            throw malformed(
                "the character U+0000, which no XML can hold (a value holding it needs the binary layout or JSON)",
                at: UnsafeRawPointer(zero) - UnsafeRawPointer(base))
        }
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

    mutating func enterContainer(at start: Int) throws(FormatFailure) {
        depth += 1
        guard depth <= maximumDepth else { throw limits.depthFailure(at: position(start)) }
        guard stack.allows(depth: depth) else { throw stack.measured.failure(depth: depth, at: position(start)) }
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
}
