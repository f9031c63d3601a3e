import Foundation

/// JSON text to a binary property list without the tree in between: the parser walks the
/// document with a stack of open containers instead of recursion, and each value goes to a
/// ``StreamingBinaryPropertyListWriter`` as soon as it is complete. For documents too large to
/// hold as a tree (the command-line tool's large inputs).
package enum JSONToBinaryPropertyList {
    /// Converts `data`, passing every scalar through `transform` (with a function that renders
    /// its path, such as `a.b[1]`) before it is written.
    /// - Throws: `FormatFailure` for malformed JSON, exceeded limits or a value a property list
    ///   cannot hold (with its path), and what `transform` throws.
    package static func convert(
        _ data: Data, limits: Limits, transform: (StoredValue, () -> String) throws -> StoredValue
    ) throws -> [UInt8] {
        guard data.count <= limits.maximumInputBytes else { throw limits.inputSizeFailure(data.count) }
        return try data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self), limits: limits)
            // Binary output of a JSON document of numbers and short strings is about its size;
            // the offset table adds up to a fifth.
            var writer = StreamingBinaryPropertyListWriter(
                maximumPlaces: limits.maximumValueCount, expectedSize: data.count * 2 + (1 << 20))
            let root = try parser.stream(into: &writer, transform: transform)
            return writer.finish(root: root)
        }
    }
}

extension JSONParser {
    /// An open array or object: the numbers of the values (and keys) written so far.
    struct OpenContainer {
        let isObject: Bool
        var values: [UInt32] = []
        var keys: [UInt32] = []
        /// The key of the value being read; `nil` until it has been read.
        var key: String?
        /// Whether a value is being read (not the separator after one), for error paths: a
        /// failure between values is the container's, as the recursive reader reports it.
        var readingValue = true

        var step: TreePathStep? {
            guard readingValue else { return nil }
            return isObject ? key.map(TreePathStep.key) : .index(values.count)
        }
    }

    /// Writes the document's values to `writer`; the root object's number.
    mutating func stream(
        into writer: inout StreamingBinaryPropertyListWriter,
        transform: (StoredValue, () -> String) throws -> StoredValue
    ) throws -> UInt32 {
        try startDocument()
        var open: [OpenContainer] = []
        var root: UInt32 = 0
        do {
            values: while true {
                valueCount += 1
                if valueCount > limits.maximumValueCount || index >= bytes.count { throw valueFailure() }
                try writer.countPlaces(1)
                var completed: UInt32
                switch bytes[index] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let isObject = bytes[index] == UInt8(ascii: "{")
                    try enterContainer()
                    skipWhitespace()
                    if index < bytes.count, bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        index += 1
                        depth -= 1
                        completed = isObject ? try writer.dictionary(keys: [], values: []) : try writer.array([])
                    } else {
                        open.append(OpenContainer(isObject: isObject))
                        if isObject { try readKey(into: &open[open.count - 1], writer: &writer) }
                        continue values
                    }
                default:
                    let scalar = try parseScalar()
                    completed = try writer.scalar(try transform(scalar, { Self.pathText(open.compactMap(\.step)) }))
                }
                // The value is complete: add it to its container, closing those that end here.
                while !open.isEmpty {
                    let last = open.count - 1
                    open[last].values.append(completed)
                    open[last].readingValue = false
                    let isObject = open[last].isObject
                    skipWhitespace()
                    let expected = isObject ? "',' or '}'" : "',' or ']'"
                    guard index < bytes.count else { throw unexpected(at: index, expecting: expected) }
                    let byte = bytes[index]
                    index += 1
                    if byte == UInt8(ascii: ",") {
                        skipWhitespace()
                        open[last].key = nil
                        if isObject { try readKey(into: &open[last], writer: &writer) }
                        open[last].readingValue = true
                        continue values
                    }
                    guard byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                        throw unexpected(at: index - 1, expecting: expected)
                    }
                    let container = open.removeLast()
                    depth -= 1
                    completed =
                        isObject
                        ? try writer.dictionary(keys: container.keys, values: container.values)
                        : try writer.array(container.values)
                }
                root = completed
                break
            }
        } catch let failure as FormatFailure {
            var located = failure
            for step in open.reversed().compactMap(\.step) { located = located.inside(step) }
            throw located
        }
        try endDocument()
        return root
    }

    /// Reads `"key":` and writes the key.
    mutating func readKey(
        into container: inout OpenContainer, writer: inout StreamingBinaryPropertyListWriter
    ) throws(FormatFailure) {
        let key = try parseKey()
        container.key = key
        try writer.countPlaces(1)
        container.keys.append(try writer.string(key))
    }

    /// `a.b[1]`, `<top level>` for none.
    static func pathText(_ steps: [TreePathStep]) -> String {
        CodingPathFormatter.render(steps.map(\.codingKey))
    }
}
