import Foundation

/// Markup: whitespace, comments, processing instructions, the DOCTYPE, start and end tags.
extension XMLPropertyListParser {
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
                guard let end = find("-->", from: index + 4) else {
                    throw endedEarly("unterminated comment", at: index)
                }
                try validate(index..<end)
                index = end
            } else if hasPrefix("<?", at: index) {
                guard let end = find("?>", from: index + 2) else {
                    throw endedEarly("unterminated processing instruction", at: index)
                }
                try validate(index..<end)
                if prolog, !wide, bytes[index + 2] == UInt8(ascii: "x"), hasPrefix("<?xml", at: index),
                    isWhitespace(bytes[index + 5])
                {
                    try checkDeclaredEncoding(in: (index + 5)..<(end - 2))
                }
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

    /// The XML declaration's `encoding`, in 8-bit text: what it names must be what the text is
    /// read as, UTF-8 (or US-ASCII, a part of it). Core Foundation reads the text in the
    /// encoding named and refuses a name it does not know (`encoding="foobar"`); read as UTF-8,
    /// text in another 8-bit encoding could give other characters without an error, so any
    /// other name is refused, naming it. As in Core Foundation, a declaration whose encoding is
    /// not a quoted value says nothing, and a wide document's is not read: its byte-order mark
    /// or zero bytes tell its encoding.
    func checkDeclaredEncoding(in declaration: Range<Int>) throws(FormatFailure) {
        var cursor = declaration.lowerBound
        func skipSpaces() { while cursor < declaration.upperBound, isWhitespace(bytes[cursor]) { cursor += 1 } }
        while cursor < declaration.upperBound,
            bytes[cursor] != UInt8(ascii: "e") || !hasPrefix("encoding", at: cursor)
        {
            cursor += 1
        }
        cursor += 8
        skipSpaces()
        guard cursor < declaration.upperBound, bytes[cursor] == UInt8(ascii: "=") else { return }
        cursor += 1
        skipSpaces()
        guard cursor < declaration.upperBound,
            case let quote = bytes[cursor], quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'")
        else { return }
        let valueStart = cursor + 1
        cursor = valueStart
        while cursor < declaration.upperBound, bytes[cursor] != quote { cursor += 1 }
        let name = UnsafeBufferPointer(rebasing: bytes[valueStart..<cursor])
        guard !Self.namesUTF8(name) else { return }
        throw malformed(
            "the XML declaration names the encoding \"\(shown(String(decoding: name, as: UTF8.self)))\", which is not "
                + "read: XML property lists are read as UTF-8 (or UTF-16 or UTF-32 with a byte-order mark); convert "
                + "the file to UTF-8 and declare encoding=\"UTF-8\"",
            at: valueStart)
    }

    /// The encoding names read as UTF-8, in lowercase.
    private static let namesReadAsUTF8: [StaticString] = ["utf-8", "utf8", "us-ascii", "ascii"]

    /// Whether `name` is one of ``namesReadAsUTF8`` in any case, compared byte by byte: the usual
    /// `UTF-8` makes no `String`.
    static func namesUTF8(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        namesReadAsUTF8.contains { known in
            known.utf8CodeUnitCount == name.count
                && zip(name, UnsafeBufferPointer(start: known.utf8Start, count: known.utf8CodeUnitCount)).allSatisfy {
                    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 == $1 : $0 == $1
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
        throw endedEarly("unterminated document type declaration", at: start)
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
        PropertyListTag.named(UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// Reads a start tag at `index`: its name and whether it closes itself (`<dict/>`).
    /// Attributes are skipped.
    mutating func startTag() throws(FormatFailure) -> (Tag, selfClosing: Bool) {
        let start = index
        guard index < bytes.count else { throw endedEarly("unexpected end of input; expected an element", at: index) }
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
        throw cursor < bytes.count
            ? malformed("unterminated <\(tag.name)> tag", at: start)
            : endedEarly("unexpected end of input inside the <\(tag.name)> tag", at: start)
    }

    /// Reads `</name>` at `index`.
    mutating func endTag(_ expected: Tag, openedAt opening: Int) throws(FormatFailure) {
        if let name = expected.staticName {
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
            throw index < bytes.count
                ? malformed(
                    "unexpected content; expected </\(expected.name)> to close the element opened at \(position(opening))",
                    at: index)
                : endedEarly("unexpected end of input; expected </\(expected.name)>", at: index)
        }
        var cursor = index + 2
        while cursor < bytes.count, isNameByte(bytes[cursor]) { cursor += 1 }
        guard cursor < bytes.count else {
            throw endedEarly("unexpected end of input inside </\(expected.name)>", at: index)
        }
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
}
