import Foundation

/// Checks a property list's structure before Foundation's `PropertyListDecoder` sees it.
///
/// `PropertyListDecoder` crashes or stalls on some hostile inputs (see the package's notes on
/// Foundation on Linux): a binary string whose count overruns its object, an array containing
/// itself, references that expand a tiny file into millions of values, and very deep XML
/// nesting that overflows the stack. This pass rejects those shapes with a `DecodingError`
/// naming the byte offset, in time linear in the input. It is not a parser: everything it lets
/// through is still validated by `PropertyListDecoder`.
enum PropertyListPreflight {
    /// Nesting deeper than this is rejected (JSONDecoder's limit is the same).
    static let maximumDepth = 512
    /// A binary property list that expands to more values than this is rejected.
    static let maximumExpandedValues = 1_000_000

    static func check(_ data: Data) throws {
        let bytes = [UInt8](data)
        if bytes.starts(with: Array("bplist".utf8)) {
            try BinaryPropertyListPreflight(bytes: bytes).check()
        } else {
            try checkXMLDepth(bytes)
        }
    }

    static func corrupted(_ message: String) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: [], debugDescription: message))
    }

    /// Counts `<array>`/`<dict>` nesting, skipping comments, CDATA and processing instructions.
    private static func checkXMLDepth(_ bytes: [UInt8]) throws {
        var depth = 0
        var index = 0
        func hasPrefix(_ prefix: String, at position: Int) -> Bool {
            let prefix = Array(prefix.utf8)
            return position + prefix.count <= bytes.count
                && bytes[position..<(position + prefix.count)].elementsEqual(prefix)
        }
        func skip(past terminator: String, from position: Int) -> Int {
            let terminator = Array(terminator.utf8)
            if let range = bytes[position...].firstRange(of: terminator) { return range.upperBound }
            return bytes.count
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else { index += 1; continue }
            if hasPrefix("<!--", at: index) {
                index = skip(past: "-->", from: index + 4)
            } else if hasPrefix("<![CDATA[", at: index) {
                index = skip(past: "]]>", from: index + 9)
            } else if hasPrefix("<?", at: index) {
                index = skip(past: "?>", from: index + 2)
            } else {
                let close = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")
                let nameStart = close ? index + 2 : index + 1
                let end = skip(past: ">", from: nameStart)
                let selfClosing = end >= 2 && bytes[end - 2] == UInt8(ascii: "/")
                let isContainer = hasPrefix("array", at: nameStart) || hasPrefix("dict", at: nameStart)
                if isContainer && !selfClosing {
                    depth += close ? -1 : 1
                    if depth > maximumDepth {
                        throw corrupted("property list nests deeper than \(maximumDepth) levels at byte offset \(index)")
                    }
                }
                index = end
            }
        }
    }
}
