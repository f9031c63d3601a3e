import Foundation

/// A type that is `Codable` and `RawRepresentable` with a `String` raw value, made safe.
///
/// This is what the popular snippet attempts: a model whose `rawValue` is its own JSON, so it can
/// go into `@AppStorage` directly. The protocol supplies `rawValue` and `init?(rawValue:)`
/// through ``CustomRawValueCodec/rawValueCodec`` (canonical JSON by default).
///
/// **The recursion trap.** For a type that is `Codable & RawRepresentable<String>`, the standard
/// library's default `encode(to:)` encodes `rawValue`, and a JSON `rawValue` calls
/// `encode(to:)` again: infinite recursion, a stack overflow. Decoding recurses the same way
/// through `init?(rawValue:)`. A type that declares no `encode(to:)`/`init(from:)` of its own
/// gets this protocol's defaults instead, which detect the re-entry (per thread, per type) and
/// throw a ``RawCodingError`` of kind ``RawCodingError/Kind/recursionTrap`` that names the type
/// and both fixes:
///
/// 1. store the model as ``RawCodable```<Model>` and drop the raw-value conformance, or
/// 2. give the model its own memberwise `encode(to:)` and `init(from:)`:
///
/// ```swift
/// struct Settings: RawStringCodable {
///     var theme: String
///     enum CodingKeys: String, CodingKey { case theme }
///     init(theme: String) { self.theme = theme }
///     init(from decoder: any Decoder) throws {
///         theme = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .theme)
///     }
///     func encode(to encoder: any Encoder) throws {
///         var container = encoder.container(keyedBy: CodingKeys.self)
///         try container.encode(theme, forKey: .theme)
///     }
/// }
/// ```
///
/// Do not conform an enum with `String` raw values: it is already safely `Codable` and
/// `RawRepresentable`, and this protocol's `rawValue` would replace the compiler's (the trap
/// error then says so).
///
/// `rawValue` cannot throw: a failure there goes to the enclosing RawCoding call on the same
/// thread if there is one, otherwise to ``RawCodingDiagnostics``, and `rawValue` returns `""`.
/// The guard works per type: a type whose own `encode(to:)` embeds another value *of the same
/// type* through `rawValue` is reported as a trap too.
public protocol RawStringCodable: Codable, RawRepresentable, CustomRawValueCodec where RawValue == String {}

extension RawStringCodable {
    /// Canonical compact JSON, unless the type chooses another codec.
    public static var rawValueCodec: JSONCodec { .json }

    /// The value encoded with ``CustomRawValueCodec/rawValueCodec``; `""` if that fails (the
    /// failure is reported, see ``RawStringCodable``).
    public var rawValue: String {
        let encoded = RecursionGuard.whileActive(Self.self, .encoding) { () throws(RawCodingError) in
            try Self.rawValueCodec.encodeStoredToString(self)
        }
        switch encoded {
        case .success(let text):
            return text
        case .failure(let error):
            RecursionGuard.reportFailedWrite(error)
            return ""
        }
    }

    /// Decodes a raw value; `nil` when it does not decode. Why is reported to
    /// ``RawCodingDiagnostics`` (for non-empty text), and a recursion trap is always reported.
    public init?(rawValue: String) {
        let decoded = RecursionGuard.whileActive(Self.self, .decoding) { () throws(RawCodingError) in
            // It has nowhere to keep unknown keys.
            var unknownKeys = StoredUnknownKeys.none
            return try Self.rawValueCodec.decodeStoredValue(
                Self.self, fromText: rawValue, recordingUnknownKeys: false, unknownKeys: &unknownKeys)
        }
        switch decoded {
        case .success(let value):
            self = value
        case .failure(let error):
            RecursionGuard.reportFailedRead(error, of: rawValue)
            return nil
        }
    }

    /// The default for types without an `encode(to:)` of their own: the standard library's
    /// behaviour (encode `rawValue` as a string), with the recursion trap turned into a thrown
    /// ``RawCodingError``.
    public func encode(to encoder: any Encoder) throws {
        if RecursionGuard.isActive(Self.self, .encoding) {
            throw RecursionGuard.trapError(Self.self, .encoding, codingPath: encoder.codingPath)
        }
        let (raw, parked) = RecursionGuard.collectingParked { rawValue }
        if let parked {
            guard parked.kind == .recursionTrap else { throw parked }
            throw RecursionGuard.trapError(Self.self, .encoding, codingPath: encoder.codingPath)
        }
        var container = encoder.singleValueContainer()
        try container.encode(raw)
    }

    /// The default for types without an `init(from:)` of their own: the standard library's
    /// behaviour (decode a string, then `init?(rawValue:)`), with the recursion trap turned into
    /// a thrown ``RawCodingError``.
    public init(from decoder: any Decoder) throws {
        if RecursionGuard.isActive(Self.self, .decoding) {
            throw RecursionGuard.trapError(Self.self, .decoding, codingPath: decoder.codingPath)
        }
        let raw: String
        do {
            raw = try decoder.singleValueContainer().decode(String.self)
        } catch let DecodingError.typeMismatch(type, context) {
            throw DecodingError.typeMismatch(
                type,
                DecodingError.Context(
                    codingPath: context.codingPath,
                    debugDescription:
                        "\(context.debugDescription) \(String(reflecting: Self.self)) has no init(from:) of its own, "
                        + "so RawStringCodable's default reads it as its raw-value string. To decode it member by member, "
                        + "give it its own init(from:) and encode(to:), or store it as RawCodable<\(String(reflecting: Self.self))>.",
                    underlyingError: context.underlyingError))
        }
        let (decoded, parked) = RecursionGuard.collectingParked { Self(rawValue: raw) }
        if let parked {
            guard parked.kind == .recursionTrap else { throw parked }
            throw RecursionGuard.trapError(Self.self, .decoding, codingPath: decoder.codingPath)
        }
        guard let decoded else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "\(String(reflecting: Self.self)) cannot be initialized from raw value \(raw.debugDescription.prefix(200))"
                ))
        }
        self = decoded
    }
}
