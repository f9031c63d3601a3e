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

    /// Writes `value` for a caller of a writer's public `write(_:)`.
    func writeValue(_ value: StoredValue) throws(RawCodingError) -> Data {
        do {
            return Data(try serialize(value, limits: Limits(maximumValueCount: .max), refusingLoss: false))
        } catch {
            throw RawCodingError(error, subject: StoredValue.self)
        }
    }
}
