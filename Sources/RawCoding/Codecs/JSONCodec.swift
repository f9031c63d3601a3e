import Foundation

/// JSON text, deterministic: keys sorted by their UTF-8 bytes, `/` not escaped.
///
/// Reach it as `.json` (compact, the canonical form ``RawCodable`` uses for `rawValue`) or
/// `.json(.pretty)`:
///
/// ```swift
/// let text = try JSONCodec.json.encodeToString(settings)   // {"fontSize":14,"theme":"dark"}
/// ```
///
/// Representation choices, stable across versions because stored data depends on them:
/// - Non-finite numbers are written as the strings `"NaN"`, `"Infinity"` and `"-Infinity"` and
///   read back from them, so encoding never fails on them.
/// - `Date` is a number: seconds since 2001-01-01T00:00:00Z (Foundation's default), `Data` is
///   Base64 text, `URL` is its absolute string, `Decimal` a JSON number.
/// - Top-level scalars are allowed (`42`, `"text"`, `null`).
public struct JSONCodec: StringCodec, Hashable {
    /// How the text is laid out.
    public enum Formatting: Hashable, Sendable {
        /// No whitespace: `{"a":1,"b":[true]}`. The canonical form.
        case compact
        /// Indented, one member per line.
        case pretty
    }

    /// How the text is laid out.
    public var formatting: Formatting
    /// Bounds on the input this codec decodes.
    public var limits: Limits

    /// Creates a JSON codec.
    /// - Parameters:
    ///   - formatting: Compact (default) or pretty.
    ///   - limits: Bounds on decoded input.
    public init(formatting: Formatting = .compact, limits: Limits = .default) {
        self.formatting = formatting
        self.limits = limits
    }

    static let nonFiniteStrings = (positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")

    /// The engine's options for JSON: Foundation's `JSONEncoder` representations.
    var encoder: StoredValueEncoder {
        var encoder = StoredValueEncoder()
        encoder.dateEncodingStrategy = .deferredToDate
        encoder.dataEncodingStrategy = .base64
        encoder.decimalEncoding = .stored
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: Self.nonFiniteStrings.positiveInfinity,
            negativeInfinity: Self.nonFiniteStrings.negativeInfinity,
            nan: Self.nonFiniteStrings.nan)
        encoder.maximumDepth = limits.effectiveDepth
        return encoder
    }

    /// The engine's options for reading JSON back.
    var decoder: StoredValueDecoder {
        var decoder = StoredValueDecoder()
        decoder.dateDecodingStrategy = .deferredToDate
        decoder.dataDecodingStrategy = .base64
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: Self.nonFiniteStrings.positiveInfinity,
            negativeInfinity: Self.nonFiniteStrings.negativeInfinity,
            nan: Self.nonFiniteStrings.nan)
        decoder.maximumDepth = limits.effectiveDepth
        return decoder
    }

    public func encode<Value: Encodable>(_ value: Value) throws(RawCodingError) -> Data {
        try guardedEncode(value) { value in
            let tree = try encoder.encode(value)
            return Data(try JSONWriter(formatting: formatting).writeBytes(tree))
        }
    }

    public func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws(RawCodingError) -> Value {
        try guardedDecode(type, from: data, limits: limits) { data in
            let tree = try JSONReader(limits: limits).readTree(data)
            return try decoder.decode(type, from: tree)
        }
    }

    /// `json`, or `pretty.json` for the pretty form (so both can sit beside each other).
    public var fileExtension: String { formatting == .pretty ? "pretty.json" : "json" }

    public func encodeToString<Value: Encodable>(_ value: Value) throws(RawCodingError) -> String {
        // The writer only writes valid UTF-8.
        String(decoding: try encode(value), as: UTF8.self)
    }

    public func decode<Value: Decodable>(_ type: Value.Type, from string: String) throws(RawCodingError) -> Value {
        try decodeText(type, from: string, limits: limits)
    }
}

extension Codec where Self == JSONCodec {
    /// Compact, canonical JSON: keys sorted by UTF-8 bytes, no whitespace.
    public static var json: JSONCodec { JSONCodec() }

    /// JSON with the given formatting, such as `.json(.pretty)`.
    /// - Parameter formatting: ``JSONCodec/Formatting/compact`` or ``JSONCodec/Formatting/pretty``.
    /// - Returns: A JSON codec.
    public static func json(_ formatting: JSONCodec.Formatting) -> JSONCodec {
        JSONCodec(formatting: formatting)
    }
}
