/// Chooses the codec that ``RawCodable`` (and ``RawStringCodable``) use for a type's raw value.
///
/// Without it the raw value is canonical compact JSON (``JSONCodec``). Conform the *value* type
/// and every `RawCodable<Value>` picks the codec up, with no change at call sites:
///
/// ```swift
/// extension Settings: CustomRawValueCodec {
///     static var rawValueCodec: some StringCodec { .propertyList(.xml) }
/// }
/// let stored = RawCodable(settings).rawValue   // now an XML property list
/// ```
///
/// Changing the codec of a type whose raw values are already stored makes those values
/// unreadable: migrate them first.
public protocol CustomRawValueCodec {
    /// The codec's type.
    associatedtype RawValueCodec: StringCodec
    /// The codec used to encode and decode this type's raw value.
    static var rawValueCodec: RawValueCodec { get }
}

/// The raw-value codec for `Value`: its own choice, or canonical JSON.
func rawValueCodec<Value>(for type: Value.Type) -> any StringCodec {
    if let custom = type as? any CustomRawValueCodec.Type {
        return custom.rawValueCodec
    }
    return JSONCodec.json
}
