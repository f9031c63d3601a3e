import Foundation

/// Writes a ``StoredValue`` as an XML property list, in the layout Apple's tools write
/// (the DTD header, tab indentation, `<dict/>` for an empty dictionary).
///
/// ```swift
/// let data = try XMLPropertyListWriter().write(["theme": "dark"])
/// ```
///
/// The output is deterministic: keys are sorted by their UTF-8 bytes. Values map as
/// Apple's format has them: ``StoredValue/int(_:)`` and ``StoredValue/uint(_:)`` `<integer>`,
/// doubles `<real>` (shortest text; `nan`, `+infinity`, `-infinity`), dates `<date>` in UTC
/// **to the whole second, rounded down** (the format has no fractions), bytes `<data>` as
/// Base64 in lines of 68 characters. Property lists have no null: ``StoredValue/null`` is
/// written as the string `$null`, as Foundation's `PropertyListEncoder` does.
///
/// Strings are written as they are with `&`, `<` and `>` escaped; like Apple's writer, control
/// characters other than tab and line breaks are written raw, which Apple's reader and
/// ``XMLPropertyListReader`` accept but strict XML readers (Python's `plistlib`) do not. U+0000,
/// which no XML can hold, is refused in a string or key with its path, as Foundation's
/// `PropertyListEncoder` refuses it.
///
/// It writes only what ``XMLPropertyListReader`` with the same ``limits`` reads back: a tree nested
/// deeper, holding more values, or giving more bytes than the limits allow is a thrown error,
/// as it is for ``PropertyListCodec``.
public struct XMLPropertyListWriter: Sendable {
    /// What the output may hold: the limits of the ``XMLPropertyListReader`` that is to read it.
    public var limits: Limits

    /// Creates a writer.
    /// - Parameter limits: The limits of the reader the output is for; ``Limits/default`` by
    ///   default.
    public init(limits: Limits = .default) {
        self.limits = limits
    }

    /// Writes `value` as an XML property list.
    /// - Parameter value: The tree to write; any value may be the root.
    /// - Returns: UTF-8 XML, ending in a newline.
    /// - Throws: ``RawCodingError`` of kind ``RawCodingError/Kind/encodingFailed``, with its
    ///   path, for a date outside the years 0000–9999 that the format's text can hold, or a
    ///   ``StoredValue/decimal(_:)`` that no real holds exactly.
    ///   Of the same kind, naming the limit, for a tree ``limits`` do not let the reader read
    ///   back.
    public func write(_ value: StoredValue) throws(RawCodingError) -> Data {
        try XMLPropertyListTreeFormat().writeValue(value, limits: limits)
    }

    /// `refusingLoss`: throw for a date with a fraction of a second (the format stores whole
    /// seconds) instead of dropping the fraction as Apple's writer does.
    func writeBytes(_ value: StoredValue, refusingLoss: Bool = false) throws(FormatFailure) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024)
        var output = XMLOutput(bytes: bytes)
        output.refusesLoss = refusingLoss
        output.append(Self.header)
        try output.write(value, indent: 0)
        output.append("</plist>\n")
        return output.bytes
    }

    static let header: StaticString = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """
}

/// What the XML writers escape and refuse, and why.
enum XMLRefusal {
    /// The high bit of each byte of `word` that needs escaping (`&`, `<`, `>`, U+0000), and
    /// possibly of bytes after one.
    @inline(__always)
    static func specials(in word: UInt64) -> UInt64 {
        // `<` and `>` differ only in the bit 0x02.
        EscapeRuns.matches(UInt8(ascii: "&"), in: word)
            | EscapeRuns.matches(UInt8(ascii: ">"), in: word | 0x0202_0202_0202_0202)
            | EscapeRuns.matches(0, in: word)
    }

    /// Why a string or key with U+0000 is refused.
    static let nul =
        "an XML property list cannot hold the character U+0000 in a string or key (no XML can); use the binary layout or JSON, which hold it"

    /// Why writing `date` would lose part of it: its fraction of a second.
    static func loss(writing date: Date) -> String? {
        let seconds = date.timeIntervalSinceReferenceDate
        guard seconds.isFinite, seconds != seconds.rounded(.down) else { return nil }
        return
            "an XML property list stores dates to the whole second, and this date's fraction of \(seconds - seconds.rounded(.down)) s would be lost; round the date to a second or use the binary layout, which keeps it"
    }
}

/// The growing output of the XML writers: the tree writer's array, or a sink's
/// ``OutputBuffer``.
struct XMLOutput<Bytes: ByteOutput> {
    var refusesLoss = false
    /// Whether a string or key written so far held U+0000, which XML cannot hold: the
    /// bytes are not a document to hand out (the tree writer throws at once).
    var wroteNUL = false
    var bytes: Bytes
    var keyOrder = KeyOrder()
    var stack = StackCheck()

    init(bytes: Bytes) {
        self.bytes = bytes
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        bytes.appendBytes(text)
    }

    @inline(__always)
    mutating func tabs(_ count: Int) {
        for _ in 0..<count { bytes.appendByte(0x09) }
    }

    /// Writes `value` at the start of a line indented `indent` tabs (the tabs already written),
    /// ending with a newline.
    mutating func write(_ value: StoredValue, indent: Int) throws(FormatFailure) {
        switch value {
        case .null:
            element(.string, PropertyListNullMarker.text)
        case .bool(let flag):
            empty(flag ? .true : .false)
        case .int(let number):
            open(.integer)
            NumberText.append(number, to: &bytes)
            close(.integer)
        case .uint(let number):
            open(.integer)
            NumberText.append(number, to: &bytes)
            close(.integer)
        case .double(let number):
            open(.real)
            if number.isNaN {
                append("nan")
            } else if number.isInfinite {
                append(number < 0 ? "-infinity" : "+infinity")
            } else {
                NumberText.append(number, to: &bytes)
            }
            close(.real)
        case .decimal(let number):
            // Property lists have no decimals: a real when one holds it exactly.
            guard let double = number.exactDouble else { throw .unwritable(number.propertyListRefusal) }
            try write(.double(double), indent: indent)
        case .string(let text):
            element(.string, text)
            if wroteNUL { throw .unwritable(XMLRefusal.nul) }
        case .date(let date):
            if refusesLoss, let loss = XMLRefusal.loss(writing: date) { throw .unwritable(loss) }
            guard let text = DateText.text(of: date) else {
                throw .unwritable(
                    "an XML property list cannot hold the date \(date.timeIntervalSince1970) seconds since 1970: its text holds the years 0000 to 9999 only"
                )
            }
            open(.date)
            bytes.appendUTF8(text)
            close(.date)
        case .data(let data):
            writeData(data, indent: indent)
        case .array(let elements):
            guard !elements.isEmpty else { return empty(.array) }
            guard stack.allows(depth: indent + 1) else { throw stack.measured.failure(depth: indent + 1, at: nil) }
            open(.array)
            bytes.appendByte(0x0A)
            for (position, element) in elements.enumerated() {
                tabs(indent + 1)
                do {
                    try write(element, indent: indent + 1)
                } catch {
                    throw error.inside(.index(position))
                }
            }
            tabs(indent)
            close(.array)
        case .dictionary(let dictionary):
            guard !dictionary.isEmpty else { return empty(.dict) }
            guard stack.allows(depth: indent + 1) else { throw stack.measured.failure(depth: indent + 1, at: nil) }
            open(.dict)
            bytes.appendByte(0x0A)
            for position in keyOrder.order(of: dictionary) {
                let (key, element) = dictionary.entries[position]
                tabs(indent + 1)
                self.element(.key, key)
                if wroteNUL { throw FormatFailure.unwritable(XMLRefusal.nul).inside(.key(key)) }
                tabs(indent + 1)
                do {
                    try write(element, indent: indent + 1)
                } catch {
                    throw error.inside(.key(key))
                }
            }
            tabs(indent)
            close(.dict)
        }
    }

    /// Base64 lines of 68 characters, each indented as the element.
    mutating func writeData(_ data: Data, indent: Int) {
        open(.data)
        bytes.appendByte(0x0A)
        let base64 = Array(data.base64EncodedString().utf8)
        var start = 0
        while start < base64.count {
            tabs(indent)
            base64.withUnsafeBufferPointer {
                bytes.appendBytes(UnsafeBufferPointer(rebasing: $0[start..<min(start + 68, base64.count)]))
            }
            bytes.appendByte(0x0A)
            start += 68
        }
        tabs(indent)
        close(.data)
    }

    mutating func element(_ tag: PropertyListTag, _ text: String) {
        open(tag)
        escape(text)
        close(tag)
    }

    /// `<name>`, the name from the tag table the reader uses.
    @inline(__always)
    mutating func open(_ tag: PropertyListTag) {
        append(tag.openingText)
    }

    /// `</name>` and a newline.
    @inline(__always)
    mutating func close(_ tag: PropertyListTag) {
        append(tag.closingText)
    }

    /// `<name/>` and a newline.
    @inline(__always)
    mutating func empty(_ tag: PropertyListTag) {
        append(tag.emptyText)
    }

    mutating func escape(_ text: String) {
        if bytes.appendIfPlain(text, specials: XMLRefusal.specials(in:)) { return }
        var text = text
        text.withUTF8 { utf8 in
            EscapeRuns.split(
                utf8,
                specials: XMLRefusal.specials(in:),
                isSpecial: {
                    $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == 0
                },
                run: { bytes.appendBytes($0) },
                special: { byte in
                    switch byte {
                    case UInt8(ascii: "&"): append("&amp;")
                    case UInt8(ascii: "<"): append("&lt;")
                    case 0: wroteNUL = true
                    default: append("&gt;")
                    }
                })
        }
    }
}
