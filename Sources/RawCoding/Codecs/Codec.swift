import Foundation

/// Turns `Encodable` values into bytes and bytes back into `Decodable` values.
///
/// Codecs are small `Sendable` values; the built-in ones are reachable as static members, so a
/// call site reads as the format it uses:
///
/// ```swift
/// let data = try codec.encode(settings)                 // codec: some Codec = .json
/// let back = try codec.decode(Settings.self, from: data)
/// let binary: some Codec = .propertyList(.binary)
/// ```
///
/// Every codec round-trips top-level scalars (`Int`, `String`, `Bool`, `Double`, `Date`,
/// `Data`, optionals), and every failure is thrown as a ``RawCodingError`` carrying the coding
/// path and the underlying error.
public protocol Codec: Sendable {
    /// Encodes `value`.
    /// - Parameter value: The value to encode.
    /// - Returns: The encoded bytes.
    /// - Throws: ``RawCodingError`` of kind ``RawCodingError/Kind/encodingFailed`` or
    ///   ``RawCodingError/Kind/recursionTrap``.
    func encode<Value: Encodable>(_ value: Value) throws(RawCodingError) -> Data

    /// Decodes a value of `type` from `data`.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: Bytes in this codec's format.
    /// - Returns: The decoded value.
    /// - Throws: ``RawCodingError`` of kind ``RawCodingError/Kind/decodingFailed``,
    ///   ``RawCodingError/Kind/limitExceeded`` or ``RawCodingError/Kind/recursionTrap``.
    func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws(RawCodingError) -> Value

    /// The file-name extension for this codec's output, without the leading dot: `json`,
    /// `pretty.json`, `xml.plist`, `binary.plist`.
    ///
    /// Fixture files (the `RawCodingTesting` module) are named with it, so two codecs used for
    /// the same fixture need different extensions. A codec that does not say gets `data`.
    var fileExtension: String { get }
}

extension Codec {
    public var fileExtension: String { "data" }
}

/// A ``Codec`` whose format is text, so it can also encode to and decode from `String`.
///
/// `RawCodable` and `RawStringCodable` use a `StringCodec` for their `rawValue`.
public protocol StringCodec: Codec {
    /// Encodes `value` as text.
    /// - Parameter value: The value to encode.
    /// - Returns: The encoded text.
    /// - Throws: ``RawCodingError``, as ``Codec/encode(_:)``.
    func encodeToString<Value: Encodable>(_ value: Value) throws(RawCodingError) -> String

    /// Decodes a value of `type` from `string`.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - string: Text in this codec's format.
    /// - Returns: The decoded value.
    /// - Throws: ``RawCodingError``, as ``Codec/decode(_:from:)``.
    func decode<Value: Decodable>(_ type: Value.Type, from string: String) throws(RawCodingError) -> Value
}

extension Codec {
    /// Encodes through the engine and writes with `format`, refusing what the format's reader
    /// under `limits` would refuse; every failure becomes a ``RawCodingError``.
    func encode<Value: Encodable>(
        _ value: Value, with encoder: StoredValueEncoder, format: some TreeFormat, limits: Limits
    ) throws(RawCodingError) -> Data {
        try RecursionGuard.codecScope(encoding: Value.self) { () throws -> Data in
            let tree = try encoder.encode(value)
            return Data(try format.writeTree(tree, limits: limits, depthChecked: true))
        }
    }

    /// Reads with `format` under `limits` and decodes through the engine; every failure
    /// becomes a ``RawCodingError``.
    func decode<Value: Decodable>(
        _ type: Value.Type, from data: Data, with decoder: StoredValueDecoder, format: some TreeFormat, limits: Limits
    ) throws(RawCodingError) -> Value {
        try RecursionGuard.codecScope(decoding: Value.self) { () throws -> Value in
            let tree = try format.readTree(data, limits: limits)
            return try decoder.decode(type, from: tree)
        }
    }
}
