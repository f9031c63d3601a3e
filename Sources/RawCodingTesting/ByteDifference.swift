import Foundation

/// A readable account of where two encodings first differ.
///
/// Text (valid UTF-8 without control characters other than tab, line feed and carriage
/// return) is shown as the first differing line with a few lines of context, long lines cut
/// to a window around the difference; anything else as a hex window around the first
/// differing byte. Lines marked `-` are the fixture's, `+` the other side's.
enum ByteDifference {
    static let contextLines = 3
    static let lineWindow = 100

    /// Describes how `actual` differs from `fixture`; `actualLabel` names the other side.
    static func describe(fixture: Data, actual: Data, actualLabel: String = "encoded") -> String {
        if let fixtureText = text(fixture), let actualText = text(actual) {
            return describeText(fixture: fixtureText, actual: actualText, actualLabel: actualLabel)
        }
        return describeBytes(fixture: [UInt8](fixture), actual: [UInt8](actual), actualLabel: actualLabel)
    }

    static func text(_ data: Data) -> String? {
        guard let string = String(data: data, encoding: .utf8) else { return nil }
        let allowed: Set<Unicode.Scalar> = ["\t", "\n", "\r"]
        for scalar in string.unicodeScalars where scalar.value < 0x20 && !allowed.contains(scalar) {
            return nil
        }
        return string
    }

    // MARK: Text

    static func describeText(fixture: String, actual: String, actualLabel: String) -> String {
        let left = lines(fixture)
        let right = lines(actual)
        var index = 0
        while index < left.count, index < right.count, left[index] == right[index] { index += 1 }
        let column = firstDifferentColumn(
            index < left.count ? left[index] : "", index < right.count ? right[index] : "")
        let width = String(max(left.count, right.count)).count
        var output = ["First difference at line \(index + 1), column \(column) (- fixture, + \(actualLabel)):"]
        for context in max(0, index - contextLines)..<index {
            output.append(row(" ", context, left[context], width: width, column: nil))
        }
        for line in index..<(index + contextLines + 1) {
            let fixtureLine = line < left.count ? left[line] : nil
            let actualLine = line < right.count ? right[line] : nil
            if fixtureLine == nil, actualLine == nil { break }
            if let fixtureLine, let actualLine, fixtureLine == actualLine, line != index {
                output.append(row(" ", line, fixtureLine, width: width, column: nil))
                continue
            }
            let lineColumn = line == index ? column : nil
            output.append(
                fixtureLine.map { row("-", line, $0, width: width, column: lineColumn) }
                    ?? "- \(pad("", width)) | (end of fixture)")
            output.append(
                actualLine.map { row("+", line, $0, width: width, column: lineColumn) }
                    ?? "+ \(pad("", width)) | (end of \(actualLabel))")
        }
        return output.joined(separator: "\n")
    }

    /// Lines split on line feeds; a final line feed shows as a last empty line.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The 1-based column (in Unicode scalars) of the first difference between two lines.
    static func firstDifferentColumn(_ lhs: String, _ rhs: String) -> Int {
        var column = 1
        var left = lhs.unicodeScalars.makeIterator()
        var right = rhs.unicodeScalars.makeIterator()
        while let l = left.next(), let r = right.next(), l == r { column += 1 }
        return column
    }

    static func row(_ marker: String, _ line: Int, _ text: String, width: Int, column: Int?) -> String {
        "\(marker) \(pad(String(line + 1), width)) | \(window(visible(text), around: column))"
    }

    static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// Carriage returns and tabs made visible, so a difference in them can be seen.
    static func visible(_ text: String) -> String {
        text.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\t", with: "\\t")
    }

    /// A long line cut to `lineWindow` scalars around `column` (or from its start).
    static func window(_ text: String, around column: Int?) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count > lineWindow else { return text }
        let centre = (column ?? 1) - 1
        let start = max(0, min(centre - lineWindow / 2, scalars.count - lineWindow))
        let end = min(scalars.count, start + lineWindow)
        var result = String(String.UnicodeScalarView(scalars[start..<end]))
        if start > 0 { result = "…" + result }
        if end < scalars.count { result += "…" }
        return result
    }

    // MARK: Bytes

    static let bytesPerRow = 16

    static func describeBytes(fixture: [UInt8], actual: [UInt8], actualLabel: String) -> String {
        var offset = 0
        while offset < fixture.count, offset < actual.count, fixture[offset] == actual[offset] { offset += 1 }
        var output = [
            "First difference at byte \(offset) (0x\(hex(offset, digits: 8))); fixture \(fixture.count) bytes, "
                + "\(actualLabel) \(actual.count) bytes (- fixture, + \(actualLabel)):"
        ]
        let firstRow = max(0, offset / bytesPerRow - 1) * bytesPerRow
        for rowStart in stride(from: firstRow, to: firstRow + 3 * bytesPerRow, by: bytesPerRow) {
            let left = slice(fixture, rowStart)
            let right = slice(actual, rowStart)
            if left.isEmpty, right.isEmpty { break }
            if left == right {
                output.append("  " + hexRow(rowStart, left))
            } else {
                output.append(
                    "- " + (left.isEmpty ? "\(hex(rowStart, digits: 8))  (end of fixture)" : hexRow(rowStart, left)))
                output.append(
                    "+ "
                        + (right.isEmpty
                            ? "\(hex(rowStart, digits: 8))  (end of \(actualLabel))" : hexRow(rowStart, right)))
            }
        }
        return output.joined(separator: "\n")
    }

    static func slice(_ bytes: [UInt8], _ start: Int) -> ArraySlice<UInt8> {
        start < bytes.count ? bytes[start..<min(bytes.count, start + bytesPerRow)] : []
    }

    static func hexRow(_ offset: Int, _ bytes: ArraySlice<UInt8>) -> String {
        let hexBytes = bytes.map { hex(Int($0), digits: 2) }.joined(separator: " ")
        let padding = String(repeating: " ", count: (bytesPerRow - bytes.count) * 3)
        let ascii = String(bytes.map { (0x20..<0x7F).contains($0) ? Character(Unicode.Scalar($0)) : "." })
        return "\(hex(offset, digits: 8))  \(hexBytes)\(padding)  |\(ascii)|"
    }

    static func hex(_ value: Int, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
