import Foundation
import RawCoding

extension KeyValueStore {
    /// Decodes the value under `key`, filling missing keys and migrating as
    /// `Codec.decodeStored(_:fromTree:defaultValue:)` does, with the store's ``codec``.
    /// - Parameters:
    ///   - type: The type.
    ///   - key: The key.
    /// - Returns: The value, or `nil` if the key holds nothing. Keys the payload lacks are
    ///   filled from `Value.defaultValue` when `Value` is `StoredDefault`.
    /// - Throws: `RawCodingError` from the store or the decoding, with the key
    ///   first in its coding path.
    public func value<Value: Decodable>(_ type: Value.Type, forKey key: String) throws(RawCodingError) -> Value? {
        try decodedValue(type, forKey: key, defaultValue: nil)
    }

    /// Decodes the value under `key`, or returns `defaultValue` if the key holds nothing:
    /// keys the payload lacks are filled from `defaultValue`, and `StoredVersioned` types are
    /// migrated, as `Codec.decodeStored(_:fromTree:defaultValue:)` does.
    ///
    /// ```swift
    /// let settings = try store.value(Settings.self, forKey: "settings", defaultValue: Settings())
    /// ```
    /// - Parameters:
    ///   - type: The type.
    ///   - key: The key.
    ///   - defaultValue: The value when the key holds nothing, and the source of keys the
    ///     payload lacks.
    /// - Returns: The value.
    /// - Throws: `RawCodingError` from the store or the decoding, with the key
    ///   first in its coding path; a payload that does not decode is left as it is.
    public func value<Value: Decodable>(
        _ type: Value.Type, forKey key: String, defaultValue: Value
    ) throws(RawCodingError) -> Value {
        try decodedValue(type, forKey: key, defaultValue: defaultValue) ?? defaultValue
    }

    private func decodedValue<Value: Decodable>(
        _ type: Value.Type, forKey key: String, defaultValue: Value?
    ) throws(RawCodingError) -> Value? {
        guard let tree = try read(forKey: key) else { return nil }
        do {
            return try StoredForm.decode(type, fromTree: tree, codec: codec, defaultValue: defaultValue).decoded.value
        } catch {
            throw error.at(key: key)
        }
    }

    /// Stores `value` under `key` with the store's ``codec``, keeping the keys the stored
    /// payload has and `Value` does not know; a stored payload that does not decode as `Value`
    /// is set aside (``setAside(forKey:)``) in the same step of the store as the write
    /// (``replace(_:forKey:settingAside:)``), so nothing is lost. `nil` for an optional
    /// `Value` (a value that encodes as `null`) removes the key.
    ///
    /// The value is written in the form `writing` chooses (``StoredForm``): the store's own
    /// tree by default, which sets aside a payload in another form first, as one that does not
    /// decode.
    ///
    /// A payload equal to the one this store's last write of a `Value` under `key` wrote (by
    /// `set` or ``Stored``) is not decoded again: it is taken to decode, with the unknown keys
    /// that write kept, as ``Stored`` takes its own writes. Any other payload is decoded.
    /// - Parameters:
    ///   - value: The value.
    ///   - key: The key.
    ///   - writing: The form to write in; ``StoredWriting/native`` by default.
    /// - Throws: `RawCodingError` from encoding, reading (a storage failure) or writing;
    ///   nothing was written or set aside.
    public func set<Value: Codable>(
        _ value: Value, forKey key: String, writing: StoredWriting = .native
    ) throws(RawCodingError) {
        let base = try writeBackBase(of: value, forKey: key, codec: codec)
        try writeBack(value, forKey: key, codec: codec, base: base, writing: writing)
    }

    /// Reads, changes and writes the value under `key` as one step (see
    /// ``update(forKey:_:)``), keeping the payload's unknown keys and its ``StoredForm``: a
    /// value found as JSON text is written back as JSON text, so its other readers still read
    /// it (`set(_:forKey:writing:)` or ``Stored`` moves it to the native form, setting the
    /// original aside).
    ///
    /// ```swift
    /// let launches = try store.update(Int.self, forKey: "launches", defaultValue: 0) { $0 += 1; return $0 }
    /// ```
    /// - Parameters:
    ///   - type: The type.
    ///   - key: The key.
    ///   - defaultValue: The value `body` gets when the key holds nothing, and the source of
    ///     keys the payload lacks.
    ///   - body: Changes the value.
    /// - Returns: What `body` returns.
    /// - Throws: `RawCodingError`; a stored payload that does not decode is an
    ///   error and is left as it is.
    @discardableResult
    public func update<Value: Codable, Result>(
        _ type: Value.Type, forKey key: String, defaultValue: Value,
        _ body: (inout Value) throws(RawCodingError) -> Result
    ) throws(RawCodingError) -> Result {
        let codec = self.codec
        return try update(forKey: key) { (tree: inout StoredValue?) throws(RawCodingError) -> Result in
            var value = defaultValue
            var unknownKeys = StoredUnknownKeys.none
            var form = StoredForm.native
            if let stored = tree {
                let found: FormDecoding<Value>
                do throws(RawCodingError) {
                    found = try StoredForm.decode(
                        Value.self, fromTree: stored, codec: codec, defaultValue: defaultValue)
                } catch {
                    throw error.at(key: key)
                }
                value = found.decoded.value
                unknownKeys = found.decoded.unknownKeys
                form = found.form
            }
            let result = try body(&value)
            let new: StoredValue
            do throws(RawCodingError) {
                new = try form.encode(value, keeping: unknownKeys, codec: codec)
            } catch {
                throw error.at(key: key)
            }
            tree = new.isNull ? nil : new
            return result
        }
    }

    /// The value under `key` now, then each new value, from writes through any instance on
    /// the same storage and the external changes the store reports (see
    /// ``StoredProperty/values()``).
    /// - Parameters:
    ///   - type: The type.
    ///   - key: The key.
    ///   - defaultValue: The value when the key holds nothing or does not decode, and the
    ///     source of keys the payload lacks.
    /// - Returns: The stream.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    public func values<Value: Codable & Sendable>(
        _ type: Value.Type, forKey key: String, defaultValue: Value
    ) -> AsyncStream<Value> {
        StoredProperty(key, store: self, defaultValue: defaultValue).values()
    }
}
