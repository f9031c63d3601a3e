import Foundation

/// Where the version of a ``StoredVersioned`` payload is kept: a `"$version"` key in a stored
/// dictionary, or `{"$version": n, "$value": payload}` around anything else.
enum VersionEnvelope {
    static let versionKey = "$version"
    static let valueKey = "$value"

    /// The version a stored tree was written at (1 when it records none) and the payload
    /// without the version.
    static func open(_ tree: StoredValue, as type: Any.Type) throws(RawCodingError) -> (
        version: Int, payload: StoredValue
    ) {
        guard case .dictionary(var dictionary) = tree, let recorded = dictionary[versionKey] else {
            return (1, tree)
        }
        guard let version = version(of: recorded) else {
            throw RawCodingError(
                kind: .migrationFailed, typeName: String(reflecting: type),
                codingPath: [StoredCodingKey(stringValue: versionKey)],
                reason:
                    "the stored version is \(recorded), not a whole number from 1 up; the payload was left as it is")
        }
        dictionary[versionKey] = nil
        if dictionary.count == 1, let value = dictionary[valueKey] { return (version, value) }
        return (version, .dictionary(dictionary))
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
