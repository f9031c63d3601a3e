/// What an evolving decode read: the value, and what writing it back needs.
public struct StoredDecoding<Value> {
    /// The decoded value, migrated and with missing keys filled in.
    public var value: Value
    /// Keys of the payload the model does not know; pass them to
    /// ``Codec/encodeStored(_:keeping:)`` when writing the value back.
    public var unknownKeys: StoredUnknownKeys
    /// The version the payload was written at, for a ``StoredVersioned`` type (1 for a payload
    /// that records none); `nil` otherwise.
    public var storedVersion: Int?
    /// The key paths that took the default's value because the payload lacked them, such as
    /// `volume` or `account.color`.
    public var filledKeyPaths: [String]

    /// Whether writing the value back would change the payload's form: it was migrated from
    /// an earlier version or had keys filled in.
    public var isOutdated: Bool {
        guard filledKeyPaths.isEmpty else { return true }
        guard let storedVersion, let versioned = TypeTraits.of(Value.self).versioned else { return false }
        return storedVersion < versioned.storedVersion
    }
}

extension StoredDecoding: Sendable where Value: Sendable {}
extension StoredDecoding: Equatable where Value: Equatable {}
