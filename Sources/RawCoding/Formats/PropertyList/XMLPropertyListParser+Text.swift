import Foundation

/// Character data: text up to an end tag, entity and character references, CDATA, keys and
/// UTF-8 validation.
extension XMLPropertyListParser {
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
                        throw endedEarly("unterminated CDATA section", at: cursor)
                    }
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(cursor + 9)..<(end - 3)]))
                    cursor = end
                } else if hasPrefix("<!--", at: cursor) {
                    guard let end = find("-->", from: cursor + 4) else {
                        throw endedEarly("unterminated comment", at: cursor)
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
        throw endedEarly("unexpected end of input inside <\(tag.name)>", at: start)
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
}
