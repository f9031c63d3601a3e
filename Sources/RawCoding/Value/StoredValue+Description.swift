import Foundation

extension StoredValue: CustomStringConvertible, CustomDebugStringConvertible {
    /// A compact, JSON-like rendering: `{"theme": "dark", "size": 14, "at": date(2001-01-01T00:00:00Z)}`.
    /// Data shows its size and first bytes; the text is for reading, not parsing. Where the
    /// thread's stack is nearly used up (a deep tree on a small thread), the levels below are
    /// shown as `…`.
    public var description: String {
        var output = ""
        var stack = StackCheck()
        write(to: &output, depth: 0, stack: &stack)
        return output
    }

    public var debugDescription: String { "StoredValue(\(description))" }

    private func write(to output: inout String, depth: Int, stack: inout StackCheck) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .uint(let value): output += String(value)
        case .double(let value): output += "\(value)"
        case .decimal(let value): output += "\(value)"
        case .string(let value): output += Self.quoted(value)
        case .data(let value):
            let prefix = value.prefix(8).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
            output += "data(\(value.count) bytes\(value.isEmpty ? "" : ": \(prefix)\(value.count > 8 ? "…" : "")"))"
        case .date(let value):
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            output += "date(\(formatter.string(from: value)))"
        case .array(let elements):
            guard stack.allows(depth: depth + 1) else {
                output += "…"
                return
            }
            output += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { output += ", " }
                element.write(to: &output, depth: depth + 1, stack: &stack)
            }
            output += "]"
        case .dictionary(let entries):
            guard stack.allows(depth: depth + 1) else {
                output += "…"
                return
            }
            output += "{"
            for (position, entry) in entries.enumerated() {
                if position > 0 { output += ", " }
                output += Self.quoted(entry.key) + ": "
                entry.value.write(to: &output, depth: depth + 1, stack: &stack)
            }
            output += "}"
        }
    }

    /// `text` in double quotes, with quotes, backslashes and control characters escaped.
    package static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20: result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

extension StoredDictionary: CustomStringConvertible {
    public var description: String { StoredValue.dictionary(self).description }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
