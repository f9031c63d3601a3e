/// The keys of a stored payload that the model reading it does not know, kept so that writing
/// the value back does not drop them.
///
/// A payload written by a newer version of an app can hold keys the running version has no
/// property for. ``Codec/decodeStored(_:from:defaultValue:)`` returns them, and
/// ``Codec/encodeStored(_:keeping:)`` writes them back beside the model's own keys, so an older
/// app that edits one setting leaves the newer app's settings in place. ``RawCodable`` and the
/// stores keep them for you.
///
/// What is kept: keys of the stored dictionary, and of dictionaries nested under keys the
/// model knows, that the model's types did not ask for. What is not: keys inside array
/// elements (an element has no identity to find it by after the array changes), anything
/// under a key whose value the model no longer writes (a struct set to `nil`), and enum cases
/// the model does not know (the value cannot be decoded at all, so there is nothing to write
/// back).
public struct StoredUnknownKeys: Sendable, Hashable, CustomStringConvertible {
    /// Keys the model did not ask for, with their stored values.
    var values: StoredDictionary
    /// The unknown keys of dictionaries under keys the model knows, by stored key.
    var nested: [String: StoredUnknownKeys]

    /// No unknown keys.
    public static let none = StoredUnknownKeys(values: [:], nested: [:])

    /// Whether there are none.
    public var isEmpty: Bool { values.isEmpty && nested.isEmpty }

    /// Where each unknown key is, as key paths such as `account.color`, sorted.
    public var keyPaths: [String] {
        var paths = values.keys
        for (key, inner) in nested {
            paths += inner.keyPaths.map { "\(key).\($0)" }
        }
        return paths.sorted()
    }

    public var description: String {
        isEmpty ? "no unknown keys" : keyPaths.joined(separator: ", ")
    }

    /// `tree` with these keys added where it lacks them.
    func applied(to tree: StoredValue) -> StoredValue {
        guard !isEmpty, case .dictionary(var dictionary) = tree else { return tree }
        for (key, value) in values where dictionary[key] == nil {
            dictionary.append(key: key, value: value)
        }
        for (key, inner) in nested {
            if let child = dictionary[key] { dictionary[key] = inner.applied(to: child) }
        }
        return .dictionary(dictionary)
    }

    /// The keys of `tree` that `ledger` does not know.
    static func unknown(in tree: StoredValue, ledger: KeyLedger) -> StoredUnknownKeys {
        guard case .dictionary(let dictionary) = tree, !ledger.knowsAll else { return .none }
        var unknown = StoredUnknownKeys.none
        for (key, value) in dictionary {
            switch ledger.match(key) {
            case .unknown:
                unknown.values.append(key: key, value: value)
            case .known(inner: let child?):
                let inner = Self.unknown(in: value, ledger: child)
                if !inner.isEmpty { unknown.nested[key] = inner }
            case .known(inner: nil):
                break
            }
        }
        return unknown
    }
}
