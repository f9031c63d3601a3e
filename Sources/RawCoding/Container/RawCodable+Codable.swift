/// Transparent coding: a `RawCodable<Value>` inside another `Codable` type encodes exactly as
/// `Value` does, through a single-value container so coders still special-case `Date`, `Data`,
/// `URL` and `Decimal`. It never goes through `rawValue`, so it cannot reach the recursion trap.
extension RawCodable: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(Value.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}
