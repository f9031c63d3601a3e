import Foundation
import RawCoding

extension RawCodingError {
    /// A storage failure in `store` at `key`.
    package static func storage(
        _ reason: String, in store: Any.Type, key: String?, underlying: (any Error)? = nil
    ) -> RawCodingError {
        RawCodingError(
            kind: .storageFailed, typeName: String(describing: store),
            codingPath: key.map { [StoredCodingKey(stringValue: $0)] } ?? [], reason: reason,
            underlyingError: underlying)
    }

    /// The error of an `async` call in `store` whose task was cancelled before it changed anything.
    package static func cancelled(in store: Any.Type, key: String?) -> RawCodingError {
        RawCodingError(
            kind: .cancelled, typeName: String(describing: store),
            codingPath: key.map { [StoredCodingKey(stringValue: $0)] } ?? [],
            reason: "the task was cancelled before the call changed anything; nothing was written",
            underlyingError: CancellationError())
    }

    /// The refusal of `null` as the whole value under `key` in `store`: a store holds values,
    /// and a removal is how a key stops holding one.
    package static func nullAtTopLevel(in store: Any.Type, key: String) -> RawCodingError {
        RawCodingError(
            kind: .encodingFailed, typeName: String(describing: store), codingPath: [StoredCodingKey(stringValue: key)],
            reason: "a store cannot hold null at the top level; remove the key instead")
    }

    /// This error with `key` in front of its coding path, naming what was stored there: what a
    /// store does with an error from decoding or encoding the value under `key`, so that the
    /// message reads `at settings.theme` rather than `at theme`.
    ///
    /// ```swift
    /// do {
    ///     return try codec.readTree(from: data)
    /// } catch {
    ///     throw error.at(key: key)
    /// }
    /// ```
    /// - Parameter key: The store's key for the value the error is about.
    /// - Returns: The same error, its coding path starting at `key`.
    public func at(key: String) -> RawCodingError {
        RawCodingError(
            kind: kind, typeName: typeName, codingPath: [StoredCodingKey(stringValue: key)] + codingPath,
            reason: reason, underlyingError: underlyingError, position: position)
    }
}
