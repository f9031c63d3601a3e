/// Renders coding paths the way people write key paths: `items[2].name`.
package enum CodingPathFormatter {
    package static func render(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "<top level>" }
        var text = ""
        for key in path {
            if let index = key.intValue,
                key.stringValue.isEmpty || key.stringValue == "Index \(index)" || key.stringValue == "\(index)"
            {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue.isEmpty ? "\"\"" : key.stringValue
            }
        }
        return text
    }
}
