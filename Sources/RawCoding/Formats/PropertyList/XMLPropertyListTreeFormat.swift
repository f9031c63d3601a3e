import Foundation

/// XML property lists (``XMLPropertyListReader`` and ``XMLPropertyListWriter``) in the format
/// layer.
package struct XMLPropertyListTreeFormat: TreeFormat {
    package init() {}

    package var formatName: String { "XML property list" }

    /// Whether the first visible character (after whitespace and a byte-order mark) is `<`.
    package static func hasSignature(_ data: Data) -> Bool {
        let skipped: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF]
        return data.prefix(64).first(where: { !skipped.contains($0) }) == UInt8(ascii: "<")
    }

    package func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits) throws(FormatFailure) -> StoredValue {
        var parser = XMLPropertyListParser(bytes: bytes, limits: limits)
        return try parser.parseDocument()
    }

    package func serialize(_ value: StoredValue, limits: Limits, loss: LossPolicy) throws(FormatFailure) -> [UInt8] {
        try XMLPropertyListWriter().writeBytes(value, refusingLoss: loss == .refuse)
    }

    /// Every value takes at least seven bytes (`<true/>`).
    package var valueCounting: ValueCounting { .boundedBySize(mostValues: { $0 / 7 + 1 }) }
}
