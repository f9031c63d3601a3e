import Foundation

/// Any `Codable` value, `RawRepresentable` as a `String`: storable wherever only strings fit.
///
/// Use it with SwiftUI's `@AppStorage`, a key-value store or a text column:
///
/// ```swift
/// struct Settings: Codable, Equatable { var theme = "dark"; var fontSize = 14 }
///
/// @AppStorage("settings") var settings = RawCodable(Settings())
/// settings.fontSize += 1               // dynamic member lookup reaches Settings' properties
/// ```
///
/// - `rawValue` is canonical JSON: compact, keys sorted by UTF-8 bytes, `/` unescaped, the same
///   bytes for equal values on every run. A type can choose another codec with
///   ``CustomRawValueCodec``.
/// - `init?(rawValue:)` returns `nil` for malformed, wrong-shaped, empty or oversized input and
///   reports why to ``RawCodingDiagnostics``; ``init(decoding:)`` throws a ``RawCodingError``
///   that says why and where.
/// - Inside another `Codable` type, a `RawCodable<Settings>` encodes exactly as `Settings`
///   would (never as an escaped JSON string), so it never reaches the recursion trap.
///
/// Stored text outlives the model that wrote it (see <doc:ChangingYourModel>):
/// - When `Value` is ``StoredDefault``, keys missing from the stored text (a property added
///   since) take the default's values instead of failing the decode.
/// - When `Value` is ``StoredVersioned``, `rawValue` records the version and `init(rawValue:)`
///   runs the migrations from the stored version.
/// - Keys the stored text has and `Value` does not know (written by a newer version of the
///   app) are kept in ``unknownKeys`` and written back by `rawValue`, so editing a value does
///   not drop them.
///
/// Two values are equal when their wrapped values are and they carry the same unknown keys, so
/// equal values have equal raw values.
@dynamicMemberLookup
public struct RawCodable<Value: Codable>: RawRepresentable {
    /// The stored value.
    public var wrappedValue: Value

    /// Keys of the decoded text that `Value` does not know; ``rawValue`` writes them back.
    /// Empty for a value created with ``init(_:)``.
    public var unknownKeys: StoredUnknownKeys

    /// Wraps a value.
    /// - Parameter value: The value to store.
    public init(_ value: Value) {
        self.wrappedValue = value
        self.unknownKeys = .none
    }

    /// The codec used for ``rawValue``: `Value`'s ``CustomRawValueCodec`` choice, or `.json`.
    public static var codec: any StringCodec { rawValueCodec(for: Value.self) }

    /// The value encoded with ``codec``: canonical JSON by default, with the version of a
    /// ``StoredVersioned`` value and the ``unknownKeys`` read with it.
    ///
    /// This property cannot throw. If `Value`'s `encode(to:)` throws, the failure is reported
    /// (see ``RawCodingDiagnostics``) and the result is the empty string, which
    /// ``init(rawValue:)`` rejects: a value that cannot be encoded never reads back as some
    /// other value. Call ``encodedRawValue()`` to get the error instead.
    public var rawValue: String {
        do {
            return try encodedRawValue()
        } catch {
            RecursionGuard.reportFailedWrite(error)
            return ""
        }
    }

    /// Decodes a raw value, returning `nil` when it is malformed, wrong-shaped, empty or larger
    /// than the codec's ``Limits``. Why is reported to ``RawCodingDiagnostics`` as
    /// ``RawCodingDiagnostics/Event/Kind/storedValueDidNotDecode`` (for non-empty text), so a
    /// stored value that stops decoding is never dropped silently; ``init(decoding:)`` throws it.
    /// - Parameter rawValue: Text produced by ``rawValue``.
    @inlinable
    public init?(rawValue: String) {
        // Inlinable, and the decode itself, not `self.init(decoding:)`: an initializer of a
        // generic struct compiled for any `Value` looks its type up at run time (about 330
        // instructions), one specialized where it is called does not.
        var unknownKeys = StoredUnknownKeys.none
        do {
            wrappedValue = try Self.decodedValue(rawValue, unknownKeys: &unknownKeys)
        } catch {
            RecursionGuard.reportFailedRead(error, of: rawValue)
            return nil
        }
        self.unknownKeys = unknownKeys
    }

    /// Decodes a raw value, throwing when it cannot.
    /// - Parameter rawValue: Text produced by ``rawValue``.
    /// Migrates (``StoredVersioned``), fills missing keys (``StoredDefault``) and keeps unknown
    /// keys, as ``Codec/decodeStored(_:from:defaultValue:)`` does.
    /// - Throws: ``RawCodingError`` naming the coding path and the reason.
    public init(decoding rawValue: String) throws(RawCodingError) {
        var unknownKeys = StoredUnknownKeys.none
        wrappedValue = try Self.decodedValue(rawValue, unknownKeys: &unknownKeys)
        self.unknownKeys = unknownKeys
    }

    /// The value of `rawValue`, decoded as ``init(decoding:)`` says, its unknown keys put in
    /// `unknownKeys`.
    @usableFromInline
    static func decodedValue(
        _ rawValue: String, unknownKeys: inout StoredUnknownKeys
    ) throws(RawCodingError) -> Value {
        let traits = TypeTraits.of(Value.self)
        guard !traits.hasCustomRawValueCodec else {
            return try codec.decodeStoredValue(
                Value.self, fromText: rawValue, recordingUnknownKeys: true, unknownKeys: &unknownKeys)
        }
        // The default codec called as itself, not through `any StringCodec`: no existential box
        // to make and open, and no cast to find the scan.
        return try JSONCodec().decodeStoredValue(
            Value.self, fromText: rawValue, recordingUnknownKeys: true, unknownKeys: &unknownKeys, traits: traits)
    }

    /// The raw value, throwing instead of reporting when the value cannot be encoded.
    /// - Returns: The same text as ``rawValue``.
    /// - Throws: ``RawCodingError`` naming the coding path and the reason.
    public func encodedRawValue() throws(RawCodingError) -> String {
        // Nothing to keep and the default codec: its own text encode writes what
        // `encodeStoredToString` writes (``EncodesAsStored``), without the existential codec and
        // without data in between.
        let traits = TypeTraits.of(Value.self)
        if unknownKeys.isEmpty, !traits.hasCustomRawValueCodec {
            return try JSONCodec().encodeToString(wrappedValue, options: JSONCodec.defaultSinkOptions, traits: traits)
        }
        return try Self.codec.encodeStoredToString(wrappedValue, keeping: unknownKeys)
    }

    /// Reads a property of the wrapped value.
    public subscript<Property>(dynamicMember keyPath: KeyPath<Value, Property>) -> Property {
        wrappedValue[keyPath: keyPath]
    }

    /// Reads and writes a property of the wrapped value.
    public subscript<Property>(dynamicMember keyPath: WritableKeyPath<Value, Property>) -> Property {
        get { wrappedValue[keyPath: keyPath] }
        set { wrappedValue[keyPath: keyPath] = newValue }
    }
}

extension RawCodable: Sendable where Value: Sendable {}
