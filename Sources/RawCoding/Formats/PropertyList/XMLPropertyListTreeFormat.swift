import Foundation

/// XML property lists (``XMLPropertyListReader`` and ``XMLPropertyListWriter``) in the format
/// layer.
package struct XMLPropertyListTreeFormat: TreeFormat {
    package init() {}

    package var formatName: String { "XML property list" }

    /// Whether the first visible character (after whitespace and a byte-order mark) is `<`, in
    /// UTF-8, UTF-16 or UTF-32 (``WideText``).
    package static func hasSignature(_ data: Data) -> Bool {
        // Zero bytes are the high bytes of UTF-16 and UTF-32 characters; FE and FF their marks.
        let skipped: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF, 0x00, 0xFE, 0xFF]
        return data.prefix(256).first(where: { !skipped.contains($0) }) == UInt8(ascii: "<")
    }

    /// Reads UTF-8, and UTF-16 or UTF-32 made UTF-8 first, as Core Foundation reads them (a
    /// failure's position then counts the text's characters as UTF-8 bytes).
    package func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits) throws(FormatFailure) -> StoredValue {
        let wide = WideText.detect(bytes) != nil
        return try WideText.withUTF8(bytes) { utf8 throws(FormatFailure) in
            var parser = XMLPropertyListParser(bytes: utf8, limits: limits, wide: wide)
            return try parser.parseDocument()
        }
    }

    package func serialize(_ value: StoredValue, limits: Limits, loss: LossPolicy) throws(FormatFailure) -> [UInt8] {
        try XMLPropertyListWriter().writeBytes(value, refusingLoss: loss == .refuse)
    }

    /// Every value takes at least seven bytes (`<true/>`).
    package var valueCounting: ValueCounting { .boundedBySize(mostValues: { $0 / 7 + 1 }) }
}
