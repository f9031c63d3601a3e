import Foundation
import RawCoding

/// Values given on the command line, and values printed bare: plutil's `-type` names, its
/// typed values (`-integer 3`, `-json '{"a":1}'`) and its raw output.
enum ValueText {
    /// The types a value can be given as, and checked against (`-expect`).
    enum Kind: String, CaseIterable {
        case bool, integer, float, string, date, data, xml, json, array, dictionary

        /// Whether the kind takes a value (`array` and `dictionary` are empty).
        var takesValue: Bool { self != .array && self != .dictionary }

        /// The kinds `-expect` checks, by the names `-type` prints.
        static let expectable: [Kind] = [.bool, .integer, .float, .string, .date, .data, .dictionary, .array]
    }

    /// plutil's name for the type of `value`: `bool`, `integer`, `float`, `string`, `date`,
    /// `data`, `dictionary` or `array` (`null`, from JSON, has its own).
    static func typeName(_ value: StoredValue) -> String {
        switch value {
        case .bool: "bool"
        case .int, .uint: "integer"
        case .double, .decimal: "float"
        case .string: "string"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        case .null: "null"
        }
    }

    /// The value `text` gives as `kind`.
    /// - Throws: An input failure naming the kind and the text, with the `option` the user
    ///   wrote it with.
    static func value(_ text: String?, as kind: Kind, option: String, limits: Limits) throws(ToolFailure)
        -> StoredValue
    {
        guard kind.takesValue else { return kind == .array ? .array([]) : .dictionary([:]) }
        guard let text else { throw .usage("\(option) needs a value") }
        func bad(_ expected: String) -> ToolFailure { .input("\(option) takes \(expected), not \(text)") }
        switch kind {
        case .bool:
            // plutil: YES or true (any case) is true, anything else false.
            return .bool(["yes", "true"].contains(text.lowercased()))
        case .integer:
            if let number = Int64(text) { return .int(number) }
            if let number = UInt64(text) { return .uint(number) }
            throw bad("a whole number that 64 bits hold")
        case .float:
            guard let number = Double(text), number.isFinite else { throw bad("a finite number") }
            // A number so small that it reads as 0 is another number: refused, as the readers do.
            let significand = text.prefix { $0 != "e" && $0 != "E" }
            guard number != 0 || !significand.contains(where: { ("1"..."9").contains($0) }) else {
                throw bad("a number a Double holds (this one would read as 0)")
            }
            return .double(number)
        case .string:
            return .string(text)
        case .date:
            guard let date = DateText.dateFromISO8601(text) else {
                throw bad("a date as XML property lists write it (2026-12-04T08:00:00Z)")
            }
            return .date(date)
        case .data:
            // Spaces and line breaks may separate the groups; any other stray character is an
            // error, not skipped, so a mistyped value is never stored as other bytes.
            let compact = String(text.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) })
            guard let bytes = Data(base64Encoded: compact) else { throw bad("Base64 text") }
            return .data(bytes)
        case .xml, .json:
            let format: any TreeFormat = kind == .xml ? XMLPropertyListTreeFormat() : JSONTreeFormat()
            do {
                return try format.readTree(Data(text.utf8), limits: limits)
            } catch {
                let line = Document.errorLine(path: option, format: format, failure: error)
                throw .input(line)
            }
        case .array, .dictionary:
            preconditionFailure("handled above")
        }
    }

    /// `value` printed bare (plutil's `raw`): a Boolean as `true` or `false`, a number as its
    /// shortest text, a string as it is, a date in RFC 3339 (UTC), data in Base64, a
    /// dictionary's keys one per line, and an array's count. No newline at the end.
    static func raw(_ value: StoredValue) -> String {
        switch value {
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): "\(number)"
        case .uint(let number): "\(number)"
        case .double(let number): "\(number)"
        case .decimal(let number): "\(number)"
        case .string(let text): text
        case .date(let date):
            DateText.exactISO8601(of: date) ?? "\(date.timeIntervalSinceReferenceDate)"
        case .data(let bytes): bytes.base64EncodedString()
        case .dictionary(let dictionary): dictionary.keys.joined(separator: "\n")
        case .array(let elements): "\(elements.count)"
        case .null: "null"
        }
    }
}
