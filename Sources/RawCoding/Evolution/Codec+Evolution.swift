import Foundation

extension Codec {
    /// Decodes a value stored by this or an earlier version of its model: runs the
    /// ``StoredVersioned`` migrations, fills keys the payload lacks from `defaultValue`, and
    /// returns the keys the model does not know, for writing back.
    ///
    /// ```swift
    /// let stored = try codec.decodeStored(Settings.self, from: data)
    /// var settings = stored.value
    /// settings.volume = 0.8
    /// let updated = try codec.encodeStored(settings, keeping: stored.unknownKeys)
    /// ```
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: A payload written by ``Codec/encodeStored(_:keeping:)`` or by ``Codec/encode(_:)``
    ///     (both record a ``StoredVersioned`` value's version).
    ///   - defaultValue: Fills keys the payload lacks (see ``StoredDefault``); `nil` uses
    ///     `Value.defaultValue` when `Value` is ``StoredDefault``, and fills nothing otherwise.
    /// - Returns: The value, its stored version, the keys filled in and the keys unknown to it.
    /// - Throws: ``RawCodingError``: of kind ``RawCodingError/Kind/migrationFailed`` for a
    ///   payload from a newer version or a step that fails, otherwise as ``Codec/decode(_:from:)``.
    public func decodeStored<Value: Decodable>(
        _ type: Value.Type, from data: Data, defaultValue: Value? = nil
    ) throws(RawCodingError) -> StoredDecoding<Value> {
        let traits = TypeTraits.of(Value.self)
        if let json = self as? JSONCodec, json.scanTakes(Value.self, traits: traits) {
            // Without a default value, only a `StoredDefault` type has defaults.
            let defaults =
                defaultValue != nil || traits.isStoredDefault
                ? try StoredEvolution.defaults(of: Value.self, given: defaultValue) : nil
            var unknownKeys = StoredUnknownKeys.none
            var filledKeyPaths: [String] = []
            do {
                let value = try data.withUnsafeBytes { bytes in
                    try json.decodeStoredFromScan(
                        type, from: bytes, defaults: defaults, recordingUnknownKeys: true, unknownKeys: &unknownKeys,
                        filledKeyPaths: &filledKeyPaths)
                }
                return StoredDecoding(
                    value: value, unknownKeys: unknownKeys, storedVersion: nil, filledKeyPaths: filledKeyPaths)
            } catch {
                // Not swallowed: the tree path below reads the same bytes again and throws its
                // own error, the reference for these bytes (or reads what the scan leaves).
            }
        }
        return try decodeStoredFromTree(type, from: data, defaultValue: defaultValue, recordingUnknownKeys: true)
    }

    /// The value of ``Codec/decodeStored(_:from:defaultValue:)`` from text, without a default,
    /// its unknown keys put in `unknownKeys`: for callers that keep nothing else (`RawCodable`,
    /// the raw-string types). No `StoredDecoding<Value>` or `Value?` on the way from the scan:
    /// each is a generic type looked up at run time, about 330 instructions.
    func decodeStoredValue<Value: Decodable>(
        _ type: Value.Type, fromText text: String, recordingUnknownKeys: Bool, unknownKeys: inout StoredUnknownKeys
    ) throws(RawCodingError) -> Value {
        if let json = self as? JSONCodec {
            return try json.decodeStoredValue(
                type, fromText: text, recordingUnknownKeys: recordingUnknownKeys, unknownKeys: &unknownKeys)
        }
        return try decodeStoredValueFromTree(
            type, from: Data(utf8Of: text), recordingUnknownKeys: recordingUnknownKeys, unknownKeys: &unknownKeys)
    }

    /// ``decodeStoredValue(_:fromText:recordingUnknownKeys:unknownKeys:)`` through the tree. Not
    /// inlined: its `StoredDecoding<Value>` would be looked up on entry to the caller.
    @inline(never)
    func decodeStoredValueFromTree<Value: Decodable>(
        _ type: Value.Type, from data: Data, recordingUnknownKeys: Bool, unknownKeys: inout StoredUnknownKeys
    ) throws(RawCodingError) -> Value {
        let stored = try decodeStoredFromTree(
            type, from: data, defaultValue: nil, recordingUnknownKeys: recordingUnknownKeys)
        unknownKeys = stored.unknownKeys
        return stored.value
    }

    /// ``Codec/decodeStored(_:from:defaultValue:)`` through the tree: every codec, every type.
    private func decodeStoredFromTree<Value: Decodable>(
        _ type: Value.Type, from data: Data, defaultValue: Value?, recordingUnknownKeys: Bool
    ) throws(RawCodingError) -> StoredDecoding<Value> {
        let tree: StoredValue
        do {
            tree = try readTree(from: data)
        } catch {
            throw error.about(Value.self)
        }
        return try StoredEvolution.read(
            type, tree: tree, codec: self, defaultValue: defaultValue, recordingUnknownKeys: recordingUnknownKeys)
    }

    /// As ``Codec/decodeStored(_:from:defaultValue:)``, from a tree read with ``Codec/readTree(from:)`` (a
    /// store that keeps trees).
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - tree: The stored tree, in this codec's representation.
    ///   - defaultValue: Fills keys the tree lacks.
    /// - Returns: The value, its stored version, the keys filled in and the keys unknown to it.
    /// - Throws: ``RawCodingError``, as ``Codec/decodeStored(_:from:defaultValue:)``.
    public func decodeStored<Value: Decodable>(
        _ type: Value.Type, fromTree tree: StoredValue, defaultValue: Value? = nil
    ) throws(RawCodingError) -> StoredDecoding<Value> {
        try StoredEvolution.read(type, tree: tree, codec: self, defaultValue: defaultValue)
    }

    /// Encodes a value for storage: records the ``StoredVersioned`` version and writes back
    /// the keys an earlier read found unknown.
    /// - Parameters:
    ///   - value: The value to store.
    ///   - unknownKeys: ``StoredDecoding/unknownKeys`` of the payload this value replaces.
    /// - Returns: The payload.
    /// - Throws: ``RawCodingError``, as ``Codec/encode(_:)``.
    public func encodeStored<Value: Encodable>(
        _ value: Value, keeping unknownKeys: StoredUnknownKeys = .none
    ) throws(RawCodingError) -> Data {
        // With nothing to keep, a built-in codec's own encode writes the same bytes (it records
        // the version too) without a tree in between.
        if unknownKeys.isEmpty, self is any EncodesAsStored { return try encode(value) }
        return try encodeStoredThroughTree(value, keeping: unknownKeys)
    }

    /// ``Codec/encodeStored(_:keeping:)`` through the tree: every codec, any unknown keys.
    func encodeStoredThroughTree<Value: Encodable>(
        _ value: Value, keeping unknownKeys: StoredUnknownKeys
    ) throws(RawCodingError) -> Data {
        let tree = try StoredEvolution.write(value, codec: self, keeping: unknownKeys)
        do {
            return try writeTree(tree)
        } catch {
            throw error.about(Value.self)
        }
    }

    /// As ``Codec/encodeStored(_:keeping:)``, to a tree (for a store that keeps trees).
    /// - Parameters:
    ///   - value: The value to store.
    ///   - unknownKeys: The keys to write back.
    /// - Returns: The tree, in this codec's representation.
    /// - Throws: ``RawCodingError``, as ``Codec/encodeTree(_:)``.
    public func encodeStoredTree<Value: Encodable>(
        _ value: Value, keeping unknownKeys: StoredUnknownKeys = .none
    ) throws(RawCodingError) -> StoredValue {
        try StoredEvolution.write(value, codec: self, keeping: unknownKeys)
    }
}

extension StringCodec {
    /// As ``Codec/decodeStored(_:from:defaultValue:)``, from text.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - string: The payload.
    ///   - defaultValue: Fills keys the payload lacks.
    /// - Returns: The value, its stored version, the keys filled in and the keys unknown to it.
    /// - Throws: ``RawCodingError``, as ``Codec/decodeStored(_:from:defaultValue:)``.
    public func decodeStored<Value: Decodable>(
        _ type: Value.Type, from string: String, defaultValue: Value? = nil
    ) throws(RawCodingError) -> StoredDecoding<Value> {
        try decodeStored(type, from: Data(utf8Of: string), defaultValue: defaultValue)
    }

    /// As ``Codec/encodeStored(_:keeping:)``, to text.
    /// - Parameters:
    ///   - value: The value to store.
    ///   - unknownKeys: The keys to write back.
    /// - Returns: The payload as text.
    /// - Throws: ``RawCodingError``, as ``Codec/encodeStored(_:keeping:)``.
    public func encodeStoredToString<Value: Encodable>(
        _ value: Value, keeping unknownKeys: StoredUnknownKeys = .none
    ) throws(RawCodingError) -> String {
        String(decoding: try encodeStored(value, keeping: unknownKeys), as: UTF8.self)
    }
}

/// A codec whose ``Codec/encode(_:)`` writes what ``Codec/encodeStored(_:keeping:)`` writes with
/// no unknown keys: the built-in codecs, which record a ``StoredVersioned`` value's version
/// themselves (a codec from elsewhere may not).
protocol EncodesAsStored: Codec {}

extension JSONCodec: EncodesAsStored {}
extension PropertyListCodec: EncodesAsStored {}
