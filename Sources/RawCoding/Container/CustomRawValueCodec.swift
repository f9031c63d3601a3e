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
///
/// Swift 6.3.1 miscompiles this lookup under `-O` when it is inlined and `rawValueCodec` is read
/// straight off the opened `any CustomRawValueCodec.Type`: the optimized code crashes in
/// `swift_release` in every release build that uses ``CustomRawValueCodec``. Opening
/// the metatype through a generic function and keeping the lookup out of line avoids it; the
/// release-mode test run in `.ci/run` guards the workaround.
@inline(never)
func rawValueCodec<Value>(for type: Value.Type) -> any StringCodec {
    if TypeTraits.of(type).hasCustomRawValueCodec, let custom = type as? any CustomRawValueCodec.Type {
        return customCodec(of: custom)
    }
    return JSONCodec.json
}

@inline(never)
private func customCodec<Custom: CustomRawValueCodec>(of type: Custom.Type) -> any StringCodec {
    type.rawValueCodec
}
