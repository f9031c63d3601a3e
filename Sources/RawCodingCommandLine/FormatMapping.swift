import Foundation
import RawCoding

/// The fixed mapping between JSON and property lists, and what it changed, for the notes on
/// standard error.
///
/// - Property list → JSON: a date becomes ISO 8601 text in UTC (`2026-11-30T20:24:18.25Z`,
///   every fractional digit the date needs), data becomes Base64 text in a data URL
///   (`data:;base64,AP8QgH8=`), so that it can be told from a string that happens to be Base64
///   (`"work"` is).
/// - JSON → property list: `null` is an error naming its path (property lists have no null),
///   unless `--nulls` says to drop it (its key or array element goes) or to write the string
///   `$null` (as Foundation's property-list encoders write `nil`), noting the paths.
///   A number with at most 17 significant digits that no `Double` holds exactly (the
///   `%.17g` text of a double, such as `0.10000000000000001`) becomes the `Double` nearest to
///   it, as every other tool reads it; one with more digits is an error naming
///   `--round-numbers`, which rounds it too (and is noted). With `--restore`, strings that are ISO 8601 date-times become dates again, and data URLs
///   holding canonical Base64 become data.
/// - A string that looks like what `--restore` reads back (an ISO 8601 date-time, a data URL)
///   is noted when written to JSON: nothing in JSON tells the two apart.
/// - A real with a whole value is a JSON integer (`1`), so it reads back as an integer: noted.
/// - Into XML property lists, dates keep whole seconds (Apple's format): a fraction is dropped,
///   and noted.
struct FormatMapping {
    /// What to turn back from text.
    struct Restore: OptionSet {
        let rawValue: Int
        static let dates = Restore(rawValue: 1)
        static let data = Restore(rawValue: 2)

        static func read(_ text: String?) throws(ToolFailure) -> Restore {
            guard let text else { return [] }
            var restore: Restore = []
            for part in text.split(separator: ",") {
                switch part {
                case "dates": restore.insert(.dates)
                case "data": restore.insert(.data)
                default: throw .usage("--restore takes dates, data or dates,data, not \(text)")
                }
            }
            return restore
        }
    }

    /// What becomes of a JSON `null` going into a property list (`--nulls`).
    enum Nulls: String, CaseIterable {
        /// Stop the conversion, naming the null's path (plutil refuses nulls too).
        case refuse
        /// Leave the null out: its dictionary entry or array element goes.
        case drop
        /// Write the string `$null`, as Foundation's property-list encoders write `nil`.
        case string

        static func read(_ text: String?) throws(ToolFailure) -> Nulls {
            guard let text else { return .refuse }
            guard let nulls = Nulls(rawValue: text) else {
                throw .usage("--nulls takes refuse, drop or string, not \(text)")
            }
            return nulls
        }
    }

    /// A kind of change, counted with the paths of its first occurrences.
    struct Change {
        /// How many paths a note lists.
        static let pathsListed = 5

        var count = 0
        var paths: [String] = []

        var firstPath: String { paths.first ?? "" }

        mutating func note(_ path: () -> String) {
            if count < Self.pathsListed { paths.append(path()) }
            count += 1
        }

        /// `a, b and c`, or `a, b, c, d, e and 12 more`.
        var listedPaths: String {
            let rest = count - paths.count
            if rest > 0 { return paths.joined(separator: ", ") + " and \(rest) more" }
            guard paths.count > 1 else { return firstPath }
            return paths.dropLast().joined(separator: ", ") + " and " + paths[paths.count - 1]
        }
    }

    var datesToText = Change()
    var dataToText = Change()
    var textToDates = Change()
    var textToData = Change()
    var droppedFractions = Change()
    var wholeReals = Change()
    var restorableText = Change()
    var roundedNumbers = Change()
    var droppedNulls = Change()
    var nullStrings = Change()
    var stack = StackCheck()
    /// Whether numbers of more than 17 significant digits become the nearest `Double` in a
    /// property list (`--round-numbers`) instead of stopping the conversion.
    var roundsNumbers = false
    /// What a null going into a property list becomes (`--nulls`), when the command takes
    /// that option (`convert`, `-convert`); `nil` where it does not (a refused null's message
    /// then names no option).
    var nulls: Nulls?

    init(roundingNumbers: Bool = false, nulls: Nulls? = nil) {
        roundsNumbers = roundingNumbers
        self.nulls = nulls
    }

    /// The most significant digits a number may have for its nearest `Double` to be taken
    /// without `--round-numbers`: enough for the shortest text of every `Double` and its
    /// `%.17g` text.
    static let digitsOfADouble = 17

    /// `tree` ready for `output`; `under` is where `tree` sits in its document (an extracted
    /// value's key path), so that messages give paths from the document's root.
    mutating func map(
        _ tree: StoredValue, to output: OutputFormat, restoring restore: Restore, under: [any CodingKey] = []
    ) throws(ToolFailure) -> StoredValue {
        var path = under
        return try map(tree, to: output, restore: restore, path: &path)
    }

    /// Whether `value` is a null that `--nulls drop` leaves out of `output` (noting its path).
    private mutating func drops(_ value: StoredValue, to output: OutputFormat, path: [any CodingKey]) -> Bool {
        guard nulls == .drop, !output.isJSON, value == .null else { return false }
        droppedNulls.note { CodingPathFormatter.render(path) }
        return true
    }

    private mutating func map(
        _ value: StoredValue, to output: OutputFormat, restore: Restore, path: inout [any CodingKey]
    ) throws(ToolFailure) -> StoredValue {
        // A container whose contents need no change is returned as it is, so containers a
        // binary property list shares stay shared instead of being copied at every place.
        if value.arrayValue != nil || value.dictionaryValue != nil, !stack.allows(depth: path.count + 1) {
            throw .input(
                "\(CodingPathFormatter.render(path)): " + stack.measured.exhaustedReason(depth: path.count + 1))
        }
        switch value {
        case .array(let elements):
            var mapped: [StoredValue]?
            for (index, element) in elements.enumerated() {
                path.append(StoredCodingKey(index: index))
                defer { path.removeLast() }
                if drops(element, to: output, path: path) {
                    if mapped == nil { mapped = Array(elements[..<index]) }
                    continue
                }
                let new = try map(element, to: output, restore: restore, path: &path)
                if mapped == nil, new != element {
                    mapped = Array(elements[..<index])
                    mapped?.reserveCapacity(elements.count)
                }
                mapped?.append(new)
            }
            return mapped.map(StoredValue.array) ?? value
        case .dictionary(let dictionary):
            var mapped: StoredDictionary?
            for (position, (key, element)) in dictionary.enumerated() {
                path.append(StoredCodingKey(stringValue: key))
                defer { path.removeLast() }
                if drops(element, to: output, path: path) {
                    if mapped == nil {
                        mapped = StoredDictionary(dictionary.prefix(position).map { ($0.key, $0.value) })
                    }
                    continue
                }
                let new = try map(element, to: output, restore: restore, path: &path)
                if mapped == nil, new != element {
                    mapped = StoredDictionary(dictionary.prefix(position).map { ($0.key, $0.value) })
                }
                mapped?[key] = new
            }
            return mapped.map(StoredValue.dictionary) ?? value
        default:
            let current = path
            return try scalar(value, to: output, restore: restore, path: { CodingPathFormatter.render(current) })
        }
    }

    /// One scalar ready for `output`; `path` renders where it is, for notes and errors.
    mutating func scalar(
        _ value: StoredValue, to output: OutputFormat, restore: Restore, path: () -> String
    ) throws(ToolFailure) -> StoredValue {
        switch value {
        case .date(let date):
            if output.isJSON {
                guard let text = DateText.exactISO8601(of: date) else {
                    throw .input(
                        "the date at \(path()) (\(date.timeIntervalSinceReferenceDate) seconds from 2001) is outside the years 0000-9999, which ISO 8601 text holds"
                    )
                }
                datesToText.note(path)
                return .string(text)
            }
            if output == .xml, date.timeIntervalSinceReferenceDate.rounded(.down) != date.timeIntervalSinceReferenceDate
            {
                droppedFractions.note(path)
            }
            return value
        case .double(let double) where output.isJSON && double.isFinite && double.rounded() == double:
            // JSON writes 1.0 as 1, which reads back as an integer.
            wholeReals.note(path)
            return value
        case .data(let bytes) where output.isJSON:
            dataToText.note(path)
            return .string(Self.dataURLPrefix + bytes.base64EncodedString())
        case .string(let text) where output.isJSON:
            // --restore would read it back as a date or data: say so, as no mark tells them apart.
            if text.hasPrefix(Self.dataURLPrefix) || (text.utf8.count >= 20 && DateText.dateFromISO8601(text) != nil) {
                restorableText.note(path)
            }
            return value
        case .decimal(let decimal) where !output.isJSON:
            // Only numbers that no Double holds exactly are decimals in the tree.
            // From the decimal's fields where they decide, else from its text (made once).
            let digits: Int
            let nearest: Double?
            if let read = DecimalText.significantDigitsAndNearestDouble(of: decimal) {
                (digits, nearest) = (read.digits, read.nearest)
            } else {
                let text = DecimalText.text(of: decimal)
                (digits, nearest) = (Self.significantDigits(text), Double(text))
            }
            guard digits <= Self.digitsOfADouble || roundsNumbers else {
                throw .input(
                    "the number \(DecimalText.text(of: decimal)) at \(path()) has \(digits) significant digits, more "
                        + "than a Double (a property list's real) holds; --round-numbers writes the nearest real instead"
                )
            }
            guard let double = nearest, double.isFinite else {
                throw .input(
                    "the number \(DecimalText.text(of: decimal)) at \(path()) is outside the range of a property list's real"
                )
            }
            if digits > Self.digitsOfADouble { roundedNumbers.note(path) }
            return .double(double)
        case .null where !output.isJSON:
            switch nulls {
            case .string:
                nullStrings.note(path)
                return .string("$null")
            case .refuse, .drop, nil:
                // A null `drop` meets here is the whole document: there is nothing to leave it out of.
                throw .input(
                    "null at \(path()) cannot be written to a property list, which has no null value"
                        + (nulls == .refuse
                            ? "; --nulls drop leaves nulls out, --nulls string writes them as the string $null" : ""))
            }
        case .string(let text) where !output.isJSON && !restore.isEmpty:
            if restore.contains(.dates), text.utf8.count >= 20, let date = DateText.dateFromISO8601(text) {
                textToDates.note(path)
                if output == .xml,
                    date.timeIntervalSinceReferenceDate.rounded(.down) != date.timeIntervalSinceReferenceDate
                {
                    droppedFractions.note(path)
                }
                return .date(date)
            }
            if restore.contains(.data), text.hasPrefix(Self.dataURLPrefix),
                let bytes = Self.canonicalBase64(String(text.dropFirst(Self.dataURLPrefix.count)))
            {
                textToData.note(path)
                return .data(bytes)
            }
            return value
        default:
            return value
        }
    }

    /// The significant digits of a decimal's text (`-0.00120` has 2).
    static func significantDigits(_ text: String) -> Int {
        let digits = text.utf8.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
            .filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard let first = digits.firstIndex(where: { $0 != UInt8(ascii: "0") }),
            let last = digits.lastIndex(where: { $0 != UInt8(ascii: "0") })
        else { return 0 }
        return last - first + 1
    }

    /// How data is written in JSON: a data URL with the default media type (RFC 2397).
    static let dataURLPrefix = "data:;base64,"

    /// The bytes of `text` when it is Base64 exactly as `Data.base64EncodedString()` writes it
    /// (padded, no line breaks), so encoding them gives `text` back.
    static func canonicalBase64(_ text: String) -> Data? {
        guard text.utf8.count % 4 == 0, let bytes = Data(base64Encoded: text),
            bytes.base64EncodedString() == text
        else { return nil }
        return bytes
    }

    /// The notes to print: one line per kind of change that happened.
    var notes: [String] {
        var lines: [String] = []
        func add(_ change: Change, _ what: String) {
            guard change.count > 0 else { return }
            lines.append("note: \(change.count) \(what) (first at \(change.firstPath))")
        }
        add(datesToText, "date(s) became ISO 8601 text; --restore dates reads them back as dates")
        add(
            dataToText, "data value(s) became Base64 data URLs (data:;base64,…); --restore data reads them back as data"
        )
        add(textToDates, "string(s) were read back as dates (--restore dates)")
        add(textToData, "string(s) were read back as data (--restore data)")
        add(wholeReals, "real(s) with a whole value are written as JSON integers, and read back as integers")
        add(
            restorableText,
            "string(s) look like ISO 8601 dates or data URLs: --restore would read them back as dates or data")
        add(roundedNumbers, "number(s) of more than 17 significant digits were rounded to the nearest real")
        add(droppedFractions, "date(s) lost their fraction of a second: XML property lists store whole seconds")
        if droppedNulls.count > 0 {
            lines.append(
                "note: \(droppedNulls.count) null(s) were left out (--nulls drop), at \(droppedNulls.listedPaths)")
        }
        if nullStrings.count > 0 {
            lines.append(
                "note: \(nullStrings.count) null(s) were written as the string $null (--nulls string), at \(nullStrings.listedPaths)"
            )
        }
        return lines
    }
}
