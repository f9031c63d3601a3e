import Foundation

/// What every format reader shares: the input-size check, the bytes as a buffer, and turning
/// a failure into the ``RawCodingError`` the public `read(_:)` throws.
protocol FormatReader {
    var limits: Limits { get }

    /// Parses a whole input.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits) throws(FormatFailure) -> StoredValue
}

extension FormatReader {
    /// Reads `data` for a codec, which names the type in the error itself.
    func readTree(_ data: Data) throws(FormatFailure) -> StoredValue {
        guard data.count <= limits.maximumInputSize else {
            throw .limit("input is \(data.count) bytes, over the limit of \(limits.maximumInputSize) bytes (Limits.maximumInputSize)", at: InputPosition(byteOffset: max(limits.maximumInputSize, 0)))
        }
        let limits = self.limits
        let result = data.withUnsafeBytes { raw -> Result<StoredValue, FormatFailure> in
            do throws(FormatFailure) {
                return .success(try Self.parse(raw.bindMemory(to: UInt8.self), limits: limits))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Reads `data` for a caller of the public API.
    func readValue(_ data: Data) throws(RawCodingError) -> StoredValue {
        do {
            return try readTree(data)
        } catch {
            throw RawCodingError(error, subject: StoredValue.self)
        }
    }
}
