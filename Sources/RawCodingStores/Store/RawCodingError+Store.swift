import Foundation
import RawCoding

extension RawCodingError {
    /// A storage failure in `store` at `key`.
    static func storage(
        _ reason: String, in store: Any.Type, key: String?, underlying: (any Error)? = nil
    ) -> RawCodingError {
        RawCodingError(
            kind: .storageFailed, typeName: String(describing: store),
            codingPath: key.map { [StoredCodingKey(stringValue: $0)] } ?? [], reason: reason,
            underlyingError: underlying)
    }

    /// This error with `key` in front of its coding path, naming what was stored there.
    func at(key: String) -> RawCodingError {
        RawCodingError(
            kind: kind, typeName: typeName, codingPath: [StoredCodingKey(stringValue: key)] + codingPath,
            reason: reason, underlyingError: underlyingError, position: position)
    }
}
