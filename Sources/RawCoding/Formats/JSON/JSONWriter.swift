import Foundation

/// Writes a ``StoredValue`` as JSON text, deterministically.
///
/// ```swift
/// let data = try JSONWriter().write(["theme": "dark", "size": 14])   // {"size":14,"theme":"dark"}
/// ```
///
/// The output is the same for the same tree on every run and platform:
/// - keys sorted by their UTF-8 bytes (``sortsKeys``, on by default; off keeps the tree's order);
/// - numbers as the shortest text that reads back as the same `Double` (`0.1`, `1e-05`),
///   integral doubles without `.0` (`3`, `-0`), integers exactly;
/// - strings escape only `"`, `\` and control characters (`\n`, `\t`, …, `\u001f`); `/` and
///   everything else is written as UTF-8.
///
/// JSON has no dates or bytes: a ``StoredValue/date(_:)`` is written as its seconds since
/// 2001-01-01 and ``StoredValue/data(_:)`` as Base64 text, as Foundation's `JSONEncoder` does by
/// default. Infinite and NaN doubles cannot be written: that is a thrown error naming where
/// the value is.
///
/// It writes only what ``JSONReader`` with the same ``limits`` reads back: a tree nested deeper,
/// holding more values, or giving more bytes than the limits allow is a thrown error, as it is
/// for ``JSONCodec``.
public struct JSONWriter: Sendable {
    /// Compact (no whitespace) or pretty (two-space indent, `"key" : value`).
    public var formatting: JSONFormatting
    /// Whether dictionary keys are sorted by their UTF-8 bytes (the canonical form) rather than
    /// kept in the tree's order.
    public var sortsKeys: Bool
    /// What the output may hold: the limits of the ``JSONReader`` that is to read it.
    public var limits: Limits

    /// Creates a writer.
    /// - Parameters:
    ///   - formatting: Compact (default) or pretty.
    ///   - sortsKeys: Sort keys by UTF-8 bytes (default) or keep the tree's order.
    ///   - limits: The limits of the reader the output is for; ``Limits/default`` by default.
    public init(formatting: JSONFormatting = .compact, sortsKeys: Bool = true, limits: Limits = .default) {
        self.formatting = formatting
        self.sortsKeys = sortsKeys
        self.limits = limits
    }

    /// Writes `value` as JSON.
    /// - Parameter value: The tree to write.
    /// - Returns: UTF-8 JSON text, without a trailing newline.
    /// - Throws: ``RawCodingError`` of kind ``RawCodingError/Kind/encodingFailed`` for an
    ///   infinite or NaN double, with its path, and for a tree ``limits`` do not let
    ///   ``JSONReader`` read back (the reason names the limit), as codecs report it.
    public func write(_ value: StoredValue) throws(RawCodingError) -> Data {
        try JSONTreeFormat(formatting: formatting, sortsKeys: sortsKeys).writeValue(value, limits: limits)
    }

    /// `refusingLoss`: throw for a date or bytes (which JSON would give back as a number and a
    /// string) instead of writing them as `JSONEncoder` does.
    func writeBytes(_ value: StoredValue, refusingLoss: Bool = false) throws(FormatFailure) -> [UInt8] {
        var output = JSONOutput(pretty: formatting == .pretty, sortsKeys: sortsKeys)
        output.refusesLoss = refusingLoss
        try output.write(value, indent: 0)
        return output.bytes
    }
}

/// How JSON text is laid out.
public enum JSONFormatting: Hashable, Sendable {
    /// No whitespace: `{"a":1,"b":[true]}`. The canonical form.
    case compact
    /// Indented, one member per line.
    case pretty
}

/// The growing output of a ``JSONWriter``.
struct JSONOutput {
    var pretty: Bool
    let sortsKeys: Bool
    var refusesLoss = false
    var bytes: [UInt8] = []
    var keyOrder = KeyOrder()
    var stack = StackCheck()

    static let dateLoss =
        "JSON has no dates: the date would be written as a number of seconds since 2001 and read back as a number"
    static let dataLoss = "JSON has no bytes: the data would be written as Base64 text and read back as a string"

    init(pretty: Bool, sortsKeys: Bool) {
        self.pretty = pretty
        self.sortsKeys = sortsKeys
        bytes.reserveCapacity(1024)
    }

    mutating func write(_ value: StoredValue, indent: Int) throws(FormatFailure) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .int(let number): NumberText.append(number, to: &bytes)
        case .uint(let number): NumberText.append(number, to: &bytes)
        case .double(let number):
            guard number.isFinite else {
                throw .unwritable(
                    "JSON cannot hold the number \(number); encode with nonFiniteNumbers: .strings, as JSONCodec does by default, or use a property list"
                )
            }
            NumberText.append(number, to: &bytes)
        case .decimal(let number):
            guard !number.isNaN else { throw .unwritable("JSON cannot hold a NaN Decimal") }
            DecimalText.append(number, to: &bytes)
        case .string(let text): writeString(text)
        case .date(let date):
            if refusesLoss { throw .unwritable(Self.dateLoss) }
            NumberText.append(date.timeIntervalSinceReferenceDate, to: &bytes)
        case .data(let data):
            if refusesLoss { throw .unwritable(Self.dataLoss) }
            writeString(data.base64EncodedString())
        case .array(let elements): try writeArray(elements, indent: indent)
        case .dictionary(let dictionary): try writeDictionary(dictionary, indent: indent)
        }
    }

    mutating func writeArray(_ elements: [StoredValue], indent: Int) throws(FormatFailure) {
        guard !elements.isEmpty else { return append("[]") }
        guard stack.allows(depth: indent + 1) else { throw stack.measured.failure(depth: indent + 1, at: nil) }
        bytes.append(UInt8(ascii: "["))
        for (position, element) in elements.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            newline(indent + 1)
            do {
                try write(element, indent: indent + 1)
            } catch {
                throw error.inside(.index(position))
            }
        }
        newline(indent)
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func writeDictionary(_ dictionary: StoredDictionary, indent: Int) throws(FormatFailure) {
        guard !dictionary.isEmpty else { return append("{}") }
        guard stack.allows(depth: indent + 1) else { throw stack.measured.failure(depth: indent + 1, at: nil) }
        bytes.append(UInt8(ascii: "{"))
        let order = sortsKeys ? keyOrder.order(of: dictionary) : Array(dictionary.indices)
        for position in order {
            let (key, value) = dictionary.entries[position]
            if position != order[0] { bytes.append(UInt8(ascii: ",")) }
            newline(indent + 1)
            writeString(key)
            if pretty { append(" : ") } else { bytes.append(UInt8(ascii: ":")) }
            do {
                try write(value, indent: indent + 1)
            } catch {
                throw error.inside(.key(key))
            }
        }
        newline(indent)
        bytes.append(UInt8(ascii: "}"))
    }

    @inline(__always)
    mutating func newline(_ indent: Int) {
        guard pretty else { return }
        bytes.appendJSONNewline(indent: indent)
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func writeString(_ text: String) {
        bytes.appendJSONString(text)
    }
}

extension ByteOutput {
    /// `text` as a JSON string, quoted and escaped.
    mutating func appendJSONString(_ text: String) {
        appendByte(UInt8(ascii: "\""))
        if appendIfPlain(text, specials: JSONStringBytes.specials(in:)) {
            appendByte(UInt8(ascii: "\""))
            return
        }
        dropLast(count: 1)
        var text = text
        text.withUTF8 { utf8 in
            appendByte(UInt8(ascii: "\""))
            EscapeRuns.split(
                utf8, specials: JSONStringBytes.specials(in:),
                isSpecial: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C },
                run: { appendBytes($0) },
                special: { byte in
                    appendByte(UInt8(ascii: "\\"))
                    switch byte {
                    case 0x22, 0x5C: appendByte(byte)
                    case 0x08: appendByte(UInt8(ascii: "b"))
                    case 0x0C: appendByte(UInt8(ascii: "f"))
                    case 0x0A: appendByte(UInt8(ascii: "n"))
                    case 0x0D: appendByte(UInt8(ascii: "r"))
                    case 0x09: appendByte(UInt8(ascii: "t"))
                    default:
                        let digits: StaticString = "0123456789abcdef"
                        appendBytes("u00")
                        appendByte(digits.utf8Start[Int(byte >> 4)])
                        appendByte(digits.utf8Start[Int(byte & 0xF)])
                    }
                })
            appendByte(UInt8(ascii: "\""))
        }
    }

    /// A newline and `indent` levels of two spaces, for pretty output.
    mutating func appendJSONNewline(indent: Int) {
        appendByte(UInt8(ascii: "\n"))
        for _ in 0..<(indent * 2) { appendByte(UInt8(ascii: " ")) }
    }
}
