import Foundation
import RawCoding

extension UserDefaults {
    /// Stores a `Codable` value as native property-list objects (a struct becomes a
    /// dictionary in the defaults file), keeping keys the stored payload has and `Value`
    /// does not know, and setting aside a stored payload that does not decode as `Value`.
    ///
    /// ```swift
    /// try UserDefaults.standard.setStored(settings, forKey: "settings")
    /// let settings = try UserDefaults.standard.stored(Settings.self, forKey: "settings")
    /// ```
    /// - Parameters:
    ///   - value: The value.
    ///   - key: The key.
    /// - Throws: `RawCodingError`; nothing was written.
    public func setStored<Value: Codable>(_ value: Value, forKey key: String) throws(RawCodingError) {
        try UserDefaultsStore(defaults: self).set(value, forKey: key)
    }

    /// Reads a value stored with ``setStored(_:forKey:)`` (or by an earlier version of the
    /// model: keys the payload lacks are filled from `Value.defaultValue` for a `StoredDefault`
    /// type, `StoredVersioned` types migrated).
    /// - Parameters:
    ///   - type: The type.
    ///   - key: The key.
    /// - Returns: The value, or `nil` if the key holds nothing.
    /// - Throws: `RawCodingError` when the payload does not decode; it is left as it is.
    public func stored<Value: Decodable>(_ type: Value.Type, forKey key: String) throws(RawCodingError) -> Value? {
        try UserDefaultsStore(defaults: self).value(type, forKey: key)
    }

    /// Reads a value stored with ``setStored(_:forKey:)``, or `defaultValue` if the key holds
    /// nothing; keys the payload lacks are filled from `defaultValue`.
    /// - Parameters:
    ///   - type: The type.
    ///   - key: The key.
    ///   - defaultValue: The value when the key holds nothing, and the source of keys the
    ///     payload lacks.
    /// - Returns: The value.
    /// - Throws: `RawCodingError` when the payload does not decode; it is left as it is.
    public func stored<Value: Decodable>(
        _ type: Value.Type, forKey key: String, defaultValue: Value
    ) throws(RawCodingError) -> Value {
        try UserDefaultsStore(defaults: self).value(type, forKey: key, defaultValue: defaultValue)
    }
}
