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

    private static let commentOpen = Array("<!--".utf8), commentClose = Array("-->".utf8)
    private static let cdataOpen = Array("<![CDATA[".utf8), cdataClose = Array("]]>".utf8)
    private static let instructionOpen = Array("<?".utf8), instructionClose = Array("?>".utf8)
    private static let tagClose = Array(">".utf8)
    private static let arrayName = Array("array".utf8), dictName = Array("dict".utf8)

    /// Counts `<array>`/`<dict>` nesting, skipping comments, CDATA and processing instructions.
    private static func checkXMLDepth(_ bytes: [UInt8]) throws {
        func has(_ prefix: [UInt8], at position: Int) -> Bool {
            position + prefix.count <= bytes.count
                && bytes[position..<(position + prefix.count)].elementsEqual(prefix)
        }
        func end(of terminator: [UInt8], from position: Int) -> Int {
            ByteSearch.end(of: terminator, in: bytes, from: position) ?? bytes.count
        }
        var depth = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else { index += 1; continue }
            if has(commentOpen, at: index) {
                index = end(of: commentClose, from: index + commentOpen.count)
            } else if has(cdataOpen, at: index) {
                index = end(of: cdataClose, from: index + cdataOpen.count)
            } else if has(instructionOpen, at: index) {
                index = end(of: instructionClose, from: index + instructionOpen.count)
            } else {
                let close = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")
                let nameStart = close ? index + 2 : index + 1
                let tagEnd = end(of: tagClose, from: nameStart)
                let selfClosing = tagEnd >= 2 && bytes[tagEnd - 2] == UInt8(ascii: "/")
                if !selfClosing && (has(arrayName, at: nameStart) || has(dictName, at: nameStart)) {
                    depth += close ? -1 : 1
                    if depth > maximumDepth {
                        throw corrupted("property list nests deeper than \(maximumDepth) levels at byte offset \(index)")
                    }
                }
                index = tagEnd
            }
        }
    }
}
