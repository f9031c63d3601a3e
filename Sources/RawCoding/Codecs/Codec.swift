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

    /// Reads `data` into the tree this codec's decoding works from, without decoding a type.
    ///
    /// The tree level is what schema migrations, default filling and stores work on. The tree
    /// is in this codec's representation: with `.json`, a date is the number its date strategy
    /// writes and bytes are Base64 text; property lists keep dates and bytes as such.
    ///
    /// The default implementation decodes a ``StoredValue`` with ``Codec/decode(_:from:)``, so a codec
    /// written outside the package has a tree level without writing one.
    /// - Parameter data: Bytes in this codec's format.
    /// - Returns: The tree the bytes hold.
    /// - Throws: ``RawCodingError``, as ``Codec/decode(_:from:)``.
    func readTree(from data: Data) throws(RawCodingError) -> StoredValue

    /// Writes a tree in this codec's format, refusing what ``Codec/readTree(from:)`` would refuse.
    ///
    /// The default implementation encodes the ``StoredValue`` with ``Codec/encode(_:)``.
    /// - Parameter tree: A tree in this codec's representation.
    /// - Returns: The bytes.
    /// - Throws: ``RawCodingError``, as ``Codec/encode(_:)``.
    func writeTree(_ tree: StoredValue) throws(RawCodingError) -> Data

    /// Encodes `value` into the tree ``Codec/encode(_:)`` would write: `writeTree(encodeTree(value))`
    /// gives the same bytes as `encode(value)`.
    ///
    /// The default implementation reads back what ``Codec/encode(_:)`` writes.
    /// - Parameter value: The value to encode.
    /// - Returns: Its tree.
    /// - Throws: ``RawCodingError``, as ``Codec/encode(_:)``.
    func encodeTree<Value: Encodable>(_ value: Value) throws(RawCodingError) -> StoredValue

    /// Decodes a value of `type` from a tree in this codec's representation, with this codec's
    /// options: `decode(type, fromTree: readTree(from: data))` equals `decode(type, from: data)`.
    ///
    /// The default implementation decodes what ``Codec/writeTree(_:)`` writes.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - tree: The tree.
    /// - Returns: The decoded value.
    /// - Throws: ``RawCodingError``, as ``Codec/decode(_:from:)``.
    func decode<Value: Decodable>(_ type: Value.Type, fromTree tree: StoredValue) throws(RawCodingError) -> Value
}

extension Codec {
    public var fileExtension: String { "data" }

    public func readTree(from data: Data) throws(RawCodingError) -> StoredValue {
        try decode(StoredValue.self, from: data)
    }

    public func writeTree(_ tree: StoredValue) throws(RawCodingError) -> Data {
        try encode(tree)
    }

    public func encodeTree<Value: Encodable>(_ value: Value) throws(RawCodingError) -> StoredValue {
        do {
            return try readTree(from: encode(value))
        } catch let error where error.typeName == String(reflecting: StoredValue.self) {
            throw error.about(Value.self)
        }
    }

    public func decode<Value: Decodable>(_ type: Value.Type, fromTree tree: StoredValue) throws(RawCodingError) -> Value
    {
        let data: Data
        do {
            data = try writeTree(tree)
        } catch {
            throw error.about(Value.self)
        }
        return try decode(type, from: data)
    }
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
            let tree = try VersionEnvelope.recording(try encoder.encode(value), for: Value.self)
            return Data(try format.writeTree(tree, limits: limits, depthChecked: true))
        }
    }

    /// Writes `value` straight into the sink of the root `makeRoot` makes
    /// (``SinkEncodingNode/root(options:sink:)``), where `finish` takes the output and answers
    /// its size in bytes (or `nil`). `false` where the tree path must encode the value: a
    /// versioned value (its envelope is added to the tree), anything the sink path gives up on,
    /// and output over `limits` (the tree path names the limit).
    ///
    /// The output goes to the caller through `finish`, not as a result: a result of a type
    /// chosen by the caller would be a generic optional, looked up at run time.
    func encodeDirectly<Value: Encodable, Sink: EncodingSink>(
        _ value: Value, limits: Limits, traits: TypeTraits? = nil, root makeRoot: () -> SinkEncodingNode<Sink>,
        finish: (inout Sink) -> Int?
    ) throws(RawCodingError) -> Bool {
        guard !(traits ?? TypeTraits.of(Value.self)).isStoredVersioned else { return false }
        return try RecursionGuard.codecScope(encoding: Value.self) { () -> Bool in
            guard let written = SinkEncoding.encode(value, root: makeRoot(), limits: limits),
                let count = finish(&written.sink)
            else { return false }
            return count <= limits.maximumInputBytes
        }
    }

    /// Reads with `format` under `limits` and decodes through the engine; every failure
    /// becomes a ``RawCodingError``.
    func decode<Value: Decodable>(
        _ type: Value.Type, from data: Data, with decoder: StoredValueDecoder, format: some TreeFormat, limits: Limits
    ) throws(RawCodingError) -> Value {
        try RecursionGuard.codecScope(decoding: Value.self) { () throws -> Value in
            let tree = try format.readTree(data, limits: limits)
            return try decoder.decode(type, from: VersionEnvelope.plainPayload(tree, for: Value.self))
        }
    }

    /// The tree level of the built-in codecs: the format alone.
    func readTree(from data: Data, format: some TreeFormat, limits: Limits) throws(RawCodingError) -> StoredValue {
        try RecursionGuard.codecScope(decoding: StoredValue.self) { () throws -> StoredValue in
            try format.readTree(data, limits: limits)
        }
    }

    /// Writes a tree with `format`, refusing what its reader under `limits` would refuse.
    func writeTree(_ tree: StoredValue, format: some TreeFormat, limits: Limits) throws(RawCodingError) -> Data {
        try RecursionGuard.codecScope(encoding: StoredValue.self) { () throws -> Data in
            Data(try format.writeTree(tree, limits: limits))
        }
    }

    /// Encodes through the engine alone, recording a ``StoredVersioned`` value's version.
    func encodeTree<Value: Encodable>(_ value: Value, with encoder: StoredValueEncoder) throws(RawCodingError)
        -> StoredValue
    {
        try RecursionGuard.codecScope(encoding: Value.self) { () throws -> StoredValue in
            try VersionEnvelope.recording(try encoder.encode(value), for: Value.self)
        }
    }

    /// Decodes through the engine alone.
    func decode<Value: Decodable>(
        _ type: Value.Type, fromTree tree: StoredValue, with decoder: StoredValueDecoder
    ) throws(RawCodingError) -> Value {
        try RecursionGuard.codecScope(decoding: Value.self) { () throws -> Value in
            try decoder.decode(type, from: VersionEnvelope.plainPayload(tree, for: Value.self))
        }
    }
}

extension RawCodingError {
    /// This error, naming `subject` as the type it was about.
    func about(_ subject: Any.Type) -> RawCodingError {
        RawCodingError(
            kind: kind, typeName: String(reflecting: subject), codingPath: codingPath, reason: reason,
            underlyingError: underlyingError, position: position)
    }
}
