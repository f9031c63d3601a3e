// Explicit rather than synthesized: the standard library's `==` for RawRepresentable types would
// otherwise be a candidate, comparing (and encoding) raw values.
//
// Equal values have the same `rawValue`: two values are equal when their wrapped values are and
// they carry the same unknown keys, which `rawValue` writes back. A value read from text that
// held a key `Value` does not know is therefore not equal to `RawCodable(value)` of the same
// wrapped value: writing either would store different text.
extension RawCodable: Equatable where Value: Equatable {
    /// Whether both wrap equal values and carry the same ``unknownKeys``.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.wrappedValue == rhs.wrappedValue && lhs.unknownKeys == rhs.unknownKeys
    }
}

extension RawCodable: Hashable where Value: Hashable {
    /// Hashes the wrapped value and the ``unknownKeys``, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(wrappedValue)
        hasher.combine(unknownKeys)
    }
}

extension RawCodable: CustomStringConvertible, CustomDebugStringConvertible {
    /// The wrapped value's description.
    public var description: String {
        String(describing: wrappedValue)
    }

    /// `RawCodable<Type>(value)`, with the value's debug description.
    public var debugDescription: String {
        "RawCodable<\(String(reflecting: Value.self))>(\(String(reflecting: wrappedValue)))"
    }
}
