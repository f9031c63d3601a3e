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
/// ``XMLPropertyListReader`` accept but strict XML readers (Python's `plistlib`) do not.
public struct XMLPropertyListWriter: Sendable {
    /// Creates a writer.
    public init() {}

    /// Writes `value` as an XML property list.
    /// - Parameter value: The tree to write; any value may be the root.
    /// - Returns: UTF-8 XML, ending in a newline.
    /// - Throws: ``RawCodingError`` of kind ``RawCodingError/Kind/encodingFailed``, with its
    ///   path, for a date outside the years 0000–9999 that the format's text can hold.
    public func write(_ value: StoredValue) throws(RawCodingError) -> Data {
        do {
            return Data(try writeBytes(value))
        } catch {
            throw RawCodingError(error, subject: StoredValue.self)
        }
    }

    func writeBytes(_ value: StoredValue) throws(FormatFailure) -> [UInt8] {
        var output = XMLOutput()
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

    /// Property lists' stand-in for null, as Foundation's coders write and read it.
    static let nullMarker = "$null"
}

struct XMLOutput {
    var bytes: [UInt8] = []
    var keyOrder = KeyOrder()

    init() {
        bytes.reserveCapacity(1024)
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inline(__always)
    mutating func tabs(_ count: Int) {
        for _ in 0..<count { bytes.append(0x09) }
    }

    /// Writes `value` at the start of a line indented `indent` tabs (the tabs already written),
    /// ending with a newline.
    mutating func write(_ value: StoredValue, indent: Int) throws(FormatFailure) {
        switch value {
        case .null:
            element("string", XMLPropertyListWriter.nullMarker)
        case .bool(let flag):
            append(flag ? "<true/>\n" : "<false/>\n")
        case .int(let number):
            append("<integer>")
            NumberText.append(number, to: &bytes)
            append("</integer>\n")
        case .uint(let number):
            append("<integer>")
            NumberText.append(number, to: &bytes)
            append("</integer>\n")
        case .double(let number):
            append("<real>")
            if number.isNaN {
                append("nan")
            } else if number.isInfinite {
                append(number < 0 ? "-infinity" : "+infinity")
            } else {
                NumberText.append(number, to: &bytes)
            }
            append("</real>\n")
        case .decimal(let number):
            // Property lists have no decimals: a real, read back as the nearest Double.
            append("<real>")
            if number.isNaN { append("nan") } else { bytes.append(contentsOf: number.description.utf8) }
            append("</real>\n")
        case .string(let text):
            element("string", text)
        case .date(let date):
            guard let text = PropertyListDate.text(of: date) else {
                throw .unwritable("an XML property list cannot hold the date \(date.timeIntervalSince1970) seconds since 1970: its text holds the years 0000 to 9999 only")
            }
            append("<date>")
            bytes.append(contentsOf: text.utf8)
            append("</date>\n")
        case .data(let data):
            append("<data>\n")
            let base64 = Array(data.base64EncodedString().utf8)
            var start = 0
            while start < base64.count {
                tabs(indent)
                bytes.append(contentsOf: base64[start..<min(start + 68, base64.count)])
                bytes.append(0x0A)
                start += 68
            }
            tabs(indent)
            append("</data>\n")
        case .array(let elements):
            guard !elements.isEmpty else { return append("<array/>\n") }
            append("<array>\n")
            for (position, element) in elements.enumerated() {
                tabs(indent + 1)
                do {
                    try write(element, indent: indent + 1)
                } catch {
                    throw error.inside(.index(position))
                }
            }
            tabs(indent)
            append("</array>\n")
        case .dictionary(let dictionary):
            guard !dictionary.isEmpty else { return append("<dict/>\n") }
            append("<dict>\n")
            for position in keyOrder.order(of: dictionary) {
                let (key, element) = dictionary.entries[position]
                tabs(indent + 1)
                self.element("key", key)
                tabs(indent + 1)
                do {
                    try write(element, indent: indent + 1)
                } catch {
                    throw error.inside(.key(StoredCodingKey(stringValue: key)))
                }
            }
            tabs(indent)
            append("</dict>\n")
        }
    }

    mutating func element(_ name: StaticString, _ text: String) {
        bytes.append(UInt8(ascii: "<"))
        append(name)
        bytes.append(UInt8(ascii: ">"))
        escape(text)
        bytes.append(contentsOf: [UInt8(ascii: "<"), UInt8(ascii: "/")])
        append(name)
        bytes.append(contentsOf: [UInt8(ascii: ">"), 0x0A])
    }

    mutating func escape(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): append("&amp;")
            case UInt8(ascii: "<"): append("&lt;")
            case UInt8(ascii: ">"): append("&gt;")
            default: bytes.append(byte)
            }
        }
    }
}

/// Property-list dates as text: `2001-01-01T00:00:00Z`, UTC, whole seconds.
enum PropertyListDate {
    /// The text of `date`, rounded down to the second; `nil` outside the years 0000–9999
    /// that four digits spell (`Date.distantPast` is in the year 0000).
    static func text(of date: Date) -> String? {
        let seconds = (date.timeIntervalSince1970).rounded(.down)
        guard seconds >= -62_167_219_200, seconds <= 253_402_300_799 else { return nil }
        let total = Int64(seconds)
        var days = total / 86_400
        var secondOfDay = total % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = civil(fromDays: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
            + "-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }

    /// Reads `YYYY-MM-DDTHH:MM:SSZ`; `nil` when the text is not exactly that, or not a real
    /// date and time.
    static func date(from text: some Collection<UInt8>) -> Date? {
        let bytes = Array(text)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              bytes[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let total = days * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(total))
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
