import Foundation

/// Where the version of a ``StoredVersioned`` payload is kept: a `"$version"` key in a stored
/// dictionary, or `{"$version": n, "$value": payload}` around anything else.
enum VersionEnvelope {
    static let versionKey = "$version"
    static let valueKey = "$value"

    /// The version a stored tree was written at (1 when it records none, with `recorded`
    /// false) and the payload without the version.
    static func open(_ tree: StoredValue, as type: Any.Type) throws(RawCodingError) -> (
        version: Int, payload: StoredValue, recorded: Bool
    ) {
        guard case .dictionary(let dictionary) = tree, let recorded = dictionary[versionKey] else {
            return (1, tree, false)
        }
        guard let version = version(of: recorded) else {
            throw RawCodingError(
                kind: .migrationFailed, typeName: String(reflecting: type),
                codingPath: [StoredCodingKey(stringValue: versionKey)],
                reason:
                    "the stored version is \(recorded), not a whole number from 1 up; the payload was left as it is")
        }
        return (version, payload(of: dictionary), true)
    }

    /// What a dictionary recording a version holds without it.
    private static func payload(of recorded: StoredDictionary) -> StoredValue {
        var dictionary = recorded
        dictionary[versionKey] = nil
        if dictionary.count == 1, let value = dictionary[valueKey] { return value }
        return .dictionary(dictionary)
    }

    /// `tree`, the top-level value of a `Value`, recording the current version when `Value`
    /// is ``StoredVersioned``: what every write of a codec stores, so that no call writes a
    /// versioned value that would read back as version 1 and be migrated again.
    static func recording<Value>(_ tree: StoredValue, for type: Value.Type) throws(RawCodingError) -> StoredValue {
        // An optional's `nil` is no value, and records no version.
        guard let versioned = TypeTraits.of(Value.self).versioned, tree != .null else { return tree }
        let version = versioned.storedVersion
        guard version >= 1 else {
            throw StoredEvolution.configurationError(Value.self, "storedVersion is \(version); versions start at 1")
        }
        return close(tree, version: version)
    }

    /// What a plain decode (`decode(_:from:)`, `decode(_:fromTree:)`) of `Value` reads: `tree`
    /// without its version when it records `Value`'s current one, `tree` as it is when it
    /// records none (it is taken to be in the current shape), and a ``RawCodingError`` of kind
    /// ``RawCodingError/Kind/migrationFailed`` naming `decodeStored` when it records another
    /// version: a plain decode never migrates, and never reads an older payload as if it were
    /// current.
    static func plainPayload<Value>(_ tree: StoredValue, for type: Value.Type) throws(RawCodingError) -> StoredValue {
        guard let versioned = TypeTraits.of(Value.self).versioned,
            case .dictionary(let dictionary) = tree,
            dictionary[versionKey] != nil
        else { return tree }
        let (version, payload, _) = try open(tree, as: Value.self)
        guard version == versioned.storedVersion else {
            let advice =
                version < versioned.storedVersion
                ? "decodeStored(_:from:) migrates it" : "it was written by a newer version of the model"
            throw RawCodingError(
                kind: .migrationFailed, typeName: String(reflecting: Value.self),
                codingPath: [StoredCodingKey(stringValue: versionKey)],
                reason:
                    "the payload records version \(version) and the type is version \(versioned.storedVersion); a plain decode does not migrate: \(advice)"
            )
        }
        return payload
    }

    /// `tree` without the version ``recording(_:for:)`` added, when it records `Value`'s
    /// current version; otherwise `tree` as it is. A typed migration step uses it on the new
    /// type's encoding, whose result is a payload, not a stored value.
    static func removingCurrentVersion<Value>(_ tree: StoredValue, for type: Value.Type) -> StoredValue {
        guard let versioned = TypeTraits.of(Value.self).versioned,
            case .dictionary(let dictionary) = tree,
            let recorded = dictionary[versionKey], version(of: recorded) == versioned.storedVersion
        else { return tree }
        return payload(of: dictionary)
    }

    /// `payload` recording `version`.
    static func close(_ payload: StoredValue, version: Int) -> StoredValue {
        guard case .dictionary(var dictionary) = payload else {
            return .dictionary([versionKey: .int(Int64(version)), valueKey: payload])
        }
        if dictionary.count == 1, dictionary[valueKey] != nil {
            // Would read back as the envelope around a scalar; wrap it instead.
            return .dictionary([versionKey: .int(Int64(version)), valueKey: payload])
        }
        var versioned = StoredDictionary(minimumCapacity: dictionary.count + 1)
        versioned.append(key: versionKey, value: .int(Int64(version)))
        dictionary[versionKey] = nil
        for (key, value) in dictionary { versioned.append(key: key, value: value) }
        return .dictionary(versioned)
    }

    /// A recorded version: a whole number from 1, as an integer or as any number that is one
    /// (a codec of another library may read `3` as a double).
    static func version(of value: StoredValue) -> Int? {
        let number: Int?
        switch value {
        case .int(let integer): number = Int(exactly: integer)
        case .uint(let integer): number = Int(exactly: integer)
        case .double(let double): number = Int(exactly: double)
        case .decimal(let decimal):
            number = Int(exactly: decimal.nearestDouble).flatMap { Decimal($0) == decimal ? $0 : nil }
        default: number = nil
        }
        guard let number, number >= 1 else { return nil }
        return number
    }
}
