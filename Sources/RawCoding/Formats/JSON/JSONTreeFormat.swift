import Foundation

/// JSON text (``JSONReader`` and ``JSONWriter``) in the format layer. JSON has no signature:
/// ``TreeFormats/detect(_:)`` takes for JSON whatever is not a property list.
package struct JSONTreeFormat: TreeFormat {
    package var formatting: JSONFormatting
    package var sortsKeys: Bool
    /// How text is read; writing is always strict JSON, which JSON5 readers read too.
    package var syntax: JSONSyntax
    /// Whether text without braces is read as the members of a dictionary.
    package var assumesTopLevelDictionary: Bool

    package init(
        formatting: JSONFormatting = .compact, sortsKeys: Bool = true, syntax: JSONSyntax = .strict,
        assumesTopLevelDictionary: Bool = false
    ) {
        self.formatting = formatting
        self.sortsKeys = sortsKeys
        self.syntax = syntax
        self.assumesTopLevelDictionary = assumesTopLevelDictionary
    }

    /// Whether reading is plain RFC 8259 JSON, which the flat scan reads too.
    package var readsPlainJSON: Bool { syntax == .strict && !assumesTopLevelDictionary }

    package var formatName: String { "JSON" }

    /// Reads UTF-8, and UTF-16 or UTF-32 (RFC 4627's detection, ``WideText``) made UTF-8
    /// first, as `JSONDecoder` reads them (a failure's position then counts the text's
    /// characters as UTF-8 bytes).
    package func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits) throws(FormatFailure) -> StoredValue {
        try WideText.withUTF8(bytes) { utf8 throws(FormatFailure) in
            if syntax == .json5 {
                var parser = JSON5Parser(bytes: utf8, limits: limits)
                return try parser.parseDocument(topLevelDictionary: assumesTopLevelDictionary)
            }
            var parser = JSONParser(bytes: utf8, limits: limits)
            return assumesTopLevelDictionary ? try parser.parseTopLevelDictionary() : try parser.parseDocument()
        }
    }

    package func serialize(_ value: StoredValue, limits: Limits, loss: LossPolicy) throws(FormatFailure) -> [UInt8] {
        try JSONWriter(formatting: formatting, sortsKeys: sortsKeys).writeBytes(value, refusingLoss: loss == .refuse)
    }

    /// Whether the reader under `limits` takes `data`, answered by the flat scan without a
    /// tree: `true` when the scan takes it (the scan takes only documents the reader reads,
    /// to the same values), `nil` when only reading the tree can tell (the scan gives up on
    /// malformed input, a limit, a repeated key or a key with escapes). The scan is not
    /// recursive: unlike the reader, it never refuses a document for the stack the calling
    /// thread has left.
    package func acceptsWithoutTree(_ data: Data, limits: Limits) -> Bool? {
        guard readsPlainJSON else { return nil }
        let taken = data.withUnsafeBytes { raw in JSONScan.takes(raw.bindMemory(to: UInt8.self), limits: limits) }
        return taken ? true : nil
    }

    /// A document of n bytes holds at most (n + 1) / 2 values: a scalar takes a byte, and an
    /// array or object its two brackets plus a separator between members.
    package var valueCounting: ValueCounting { .boundedBySize(mostValues: { ($0 + 1) / 2 }) }
}
