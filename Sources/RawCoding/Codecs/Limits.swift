/// Bounds a codec enforces on the input it decodes, so that hostile or corrupt input fails
/// quickly with an error instead of exhausting memory or time.
///
/// ```swift
/// let codec = JSONCodec(limits: Limits(maximumInputSize: 64 << 20))
/// ```
public struct Limits: Hashable, Sendable {
    /// The largest input, in bytes (UTF-8 bytes for text), a codec accepts. Default: 8 MiB.
    public var maximumInputSize: Int

    /// Creates limits.
    /// - Parameter maximumInputSize: The largest input in bytes. Zero or less accepts no input.
    public init(maximumInputSize: Int = 8 << 20) {
        self.maximumInputSize = maximumInputSize
    }

    /// The default limits: 8 MiB of input.
    public static let `default` = Limits()

    /// Throws when `byteCount` exceeds ``maximumInputSize``.
    func checkInputSize(_ byteCount: Int, decoding type: Any.Type) throws(RawCodingError) {
        guard byteCount > maximumInputSize else { return }
        throw RawCodingError(
            kind: .limitExceeded, typeName: String(reflecting: type),
            reason: "input is \(byteCount) bytes, over the limit of \(maximumInputSize) bytes; raise Limits.maximumInputSize if this input is expected")
    }
}
