import Foundation
import RawCoding

extension KeyValueStore {
    /// Gathers values an app stored one key each (`@AppStorage("username")`,
    /// `@AppStorage("ringtone")`, …) into one dictionary under `key`, the form a `Codable`
    /// struct is stored in, then removes the old keys.
    ///
    /// ```swift
    /// try store.moveKeys(["username": "username", "privateAccount": "isPrivate"], into: "settings")
    /// @Stored("settings", store: store) var settings = Settings()   // fills what was not moved
    /// ```
    ///
    /// Nothing is lost on the way: the dictionary is written first, and the old keys are
    /// removed only after it is stored. If `key` already holds a value (a run after the move),
    /// nothing changes.
    /// - Parameters:
    ///   - mapping: Old key → the field name in the dictionary.
    ///   - key: The key of the dictionary.
    /// - Returns: The old keys that were moved; empty if `key` already held a value or no old
    ///   key held one.
    /// - Throws: `RawCodingError` from the store; the old keys are then still there.
    @discardableResult
    public func moveKeys(_ mapping: [String: String], into key: String) throws(RawCodingError) -> [String] {
        guard try read(forKey: key) == nil else { return [] }
        var fields: [(String, StoredValue)] = []
        var found: [(String, StoredValue)] = []
        for oldKey in mapping.keys.sorted() {
            guard let old = try read(forKey: oldKey), let field = mapping[oldKey] else { continue }
            fields.append((field, old))
            found.append((oldKey, old))
        }
        guard !found.isEmpty else { return [] }
        let wrote = try update(forKey: key) { (value: inout StoredValue?) throws(RawCodingError) -> Bool in
            guard value == nil else { return false }
            value = .dictionary(StoredDictionary(fields))
            return true
        }
        guard wrote else { return [] }
        // Remove an old key only if it still holds what was moved: a later write is kept.
        for (oldKey, old) in found {
            try update(forKey: oldKey) { (value: inout StoredValue?) throws(RawCodingError) in
                if value == old { value = nil }
            }
        }
        return found.map(\.0)
    }
}
