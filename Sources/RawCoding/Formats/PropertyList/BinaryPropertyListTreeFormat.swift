import Foundation

/// Binary property lists (``BinaryPropertyListReader`` and ``BinaryPropertyListWriter``) in the
/// format layer.
package struct BinaryPropertyListTreeFormat: TreeFormat {
    package init() {}

    package var formatName: String { "binary property list" }

    /// Whether `data` starts with a binary property list's header (`bplist0?`).
    package static func hasSignature(_ data: Data) -> Bool {
        BinaryPropertyListSpec.hasReadableHeader(data)
    }

    package func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits) throws(FormatFailure) -> StoredValue {
        var parser = try BinaryPropertyListParser(bytes: bytes, limits: limits)
        return try parser.parseRoot()
    }

    /// Every loss policy writes the same bytes: a binary property list holds every value of a
    /// tree exactly (dates to the bit, bytes as bytes), so there is nothing to refuse.
    package func serialize(_ value: StoredValue, limits: Limits, loss: LossPolicy) throws(FormatFailure) -> [UInt8] {
        try BinaryPropertyListWriter().writeBytes(value, maximumValueCount: limits.maximumValueCount)
    }

    package var valueCounting: ValueCounting { .whileWriting }
}
