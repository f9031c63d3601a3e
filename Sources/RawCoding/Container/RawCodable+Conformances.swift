// Explicit rather than synthesized: the standard library's `==` for RawRepresentable types would
// otherwise be a candidate, comparing (and encoding) raw values.
extension RawCodable: Equatable where Value: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.wrappedValue == rhs.wrappedValue
    }
}

extension RawCodable: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(wrappedValue)
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
