import Foundation

/// Dates as text, in UTC: the property-list form `2001-01-01T00:00:00Z` (whole seconds), and
/// exact ISO 8601 (`2001-01-01T00:00:00.25Z`, with as many fractional digits as the `Date`
/// needs to read back as itself). Shared by the XML property-list reader and writer and the
/// JSON codec's ISO 8601 dates.
package enum DateText {
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
        guard bytes.count == 20, bytes[19] == UInt8(ascii: "Z") else { return nil }
        return bytes.withUnsafeBufferPointer { wholeSeconds($0) }.map { Date(timeIntervalSince1970: Double($0)) }
    }

    /// The decimal digits of `bytes[range]` as a number; `nil` if one is not a digit.
    @inline(__always)
    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int64? {
        var value: Int64 = 0
        for index in range {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
        }
        return value
    }

    /// The days since 1970 of the `YYYY-MM-DD` at the start of `bytes`.
    private static func days(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = digits(bytes, 0..<4), let month = digits(bytes, 5..<7), let day = digits(bytes, 8..<10),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        return daysFromCivil(year: year, month: month, day: day)
    }

    /// The seconds since 1970 of the `YYYY-MM-DDTHH:MM:SS` at the start of `bytes`.
    private static func wholeSeconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard bytes.count >= 19, let days = days(bytes), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let hour = digits(bytes, 11..<13), let minute = digits(bytes, 14..<16),
            let second = digits(bytes, 17..<19), hour < 24, minute < 60, second < 60
        else { return nil }
        return days * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// Seconds from 1970-01-01 to 2001-01-01, the reference date.
    static let referenceDateOffset: Int64 = 978_307_200

    /// `date` as ISO 8601 in UTC with the fewest fractional digits (none for whole seconds, as
    /// `ISO8601DateFormatter` writes) that read back as exactly this `Date`; `nil` outside the
    /// years 0000–9999, for a non-finite date, or when 20 fractional digits are not enough.
    package static func exactISO8601(of date: Date) -> String? {
        let seconds = date.timeIntervalSinceReferenceDate
        guard seconds.isFinite, seconds.magnitude < 1e12 else { return nil }
        let whole = seconds.rounded(.down)
        let fraction = seconds - whole  // exact: both are within 2^53 of each other
        guard let base = text(of: Date(timeIntervalSinceReferenceDate: whole)) else { return nil }
        guard fraction != 0 else { return base }
        let stem = base.dropLast()  // the "Z"
        var scale = 1.0
        for digits in 1...20 {
            scale *= 10
            let scaled = (fraction * scale).rounded()
            guard scaled < scale else { continue }
            var text = String(UInt64(scaled))
            text = String(repeating: "0", count: digits - text.count) + text
            while text.hasSuffix("0") { text.removeLast() }
            if let parsed = Double("0." + text), whole + parsed == seconds {
                return "\(stem).\(text)Z"
            }
        }
        return nil
    }

    /// Why ``exactISO8601(of:)`` gave `nil` for `date`, and what to do.
    static func notExactlyISO8601(_ date: Date) -> String {
        "ISO 8601 text cannot hold the date \(date.timeIntervalSinceReferenceDate) seconds from 2001 exactly (it holds finite dates in the years 0000 to 9999); use the .secondsSinceReferenceDate date strategy"
    }

    /// Why ``dateFromISO8601(_:)`` gave `nil` for `text`.
    static func notISO8601(_ text: String) -> String {
        "\"\(text.prefix(64))\" is not an ISO 8601 date-time (YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)) or date (YYYY-MM-DD)"
    }

    /// Reads ISO 8601 date-times as written by ``exactISO8601(of:)`` and by `ISO8601DateFormatter`:
    /// `YYYY-MM-DDTHH:MM:SS`, optional fractional seconds, then `Z` or an offset `±HH:MM`; and
    /// a date alone, `YYYY-MM-DD`, as midnight UTC.
    package static func dateFromISO8601(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { dateFromISO8601(bytes: $0) }
    }

    /// As ``dateFromISO8601(_:)``, from the text's UTF-8, without copying it.
    static func dateFromISO8601(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        if bytes.count == 10 {
            guard let days = days(bytes) else { return nil }
            return Date(timeIntervalSinceReferenceDate: Double(days * 86_400 - referenceDateOffset))
        }
        guard let wholeSince1970 = wholeSeconds(bytes) else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            let start = index + 1
            index = start
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            guard index > start, let value = self.fraction(bytes, start..<index) else { return nil }
            fraction = value
        }
        var offset: Int64 = 0
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "Z"), index + 1 == bytes.count {
            offset = 0
        } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"), index + 6 == bytes.count,
            bytes[index + 3] == UInt8(ascii: ":"),
            let hours = digits(bytes, (index + 1)..<(index + 3)),
            let minutes = digits(bytes, (index + 4)..<(index + 6)),
            hours < 24, minutes < 60
        {
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        let whole = Double(wholeSince1970 - offset - referenceDateOffset)
        return Date(timeIntervalSinceReferenceDate: whole + fraction)
    }

    /// The value of the fractional digits `bytes[range]` (those after the point), correctly
    /// rounded: up to 15 digits, one division of two exact doubles (which rounds once, as
    /// reading the text does); more, through the text.
    private static func fraction(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        if range.count <= 15, let numerator = digits(bytes, range) {
            return Double(numerator) / NumberParsing.powersOfTen[range.count]
        }
        return Double("0." + String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
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
