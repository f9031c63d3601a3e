import Foundation

extension TreeFormat {
    /// Reads `data` for a caller of a reader's public `read(_:)`.
    func readValue(_ data: Data, limits: Limits) throws(RawCodingError) -> StoredValue {
        do {
            return try readTree(data, limits: limits)
        } catch {
            throw RawCodingError(error, subject: StoredValue.self)
        }
    }

    /// Writes `value` for a caller of a writer's public `write(_:)`: what the format's reader
    /// would refuse under `limits` is refused, as codecs refuse it; what the format cannot hold
    /// exactly (a date in JSON) is written as the writer documents.
    func writeValue(_ value: StoredValue, limits: Limits) throws(RawCodingError) -> Data {
        do {
            return Data(try writeTree(value, limits: limits, loss: .allow))
        } catch {
            throw RawCodingError(error, subject: StoredValue.self)
        }
    }
}
