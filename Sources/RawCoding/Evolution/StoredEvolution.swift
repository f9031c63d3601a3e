import Foundation

/// Reading and writing stored forms that outlive a model: versions, migrations, default
/// filling and unknown keys, on the tree of any codec.
enum StoredEvolution {
    /// Migrates `tree` to the current version of `Value` (when it is ``StoredVersioned``),
    /// then decodes it, filling missing keys from `defaultValue` (or `Value`'s own
    /// ``StoredDefault``) and recording the keys the model does not know.
    ///
    /// Without `recordingUnknownKeys` and without a default, the model is decoded directly
    /// (the result has no unknown keys).
    static func read<Value: Decodable>(
        _ type: Value.Type, tree: StoredValue, codec: some Codec, defaultValue: Value?,
        recordingUnknownKeys: Bool = true
    ) throws(RawCodingError) -> StoredDecoding<Value> {
        var payload = tree
        var storedVersion: Int?
        if let versioned = TypeTraits.of(Value.self).versioned, tree != .null {
            let opened = try VersionEnvelope.open(tree, as: Value.self)
            payload = opened.payload
            storedVersion = opened.version
            try migrate(&payload, from: opened.version, to: versioned, codec: codec, subject: Value.self)
            if !opened.recorded, payload != opened.payload {
                try refuseIfCurrent(opened.payload, as: type, versioned: versioned, codec: codec)
            }
        }

        // A payload with every key the model reads and none it does not know decodes plainly:
        // no default taken apart, no evolving wrappers.
        if let value = plainWithNothingToFillOrKeep(
            type, from: payload, codec: codec, keepingUnknownKeys: recordingUnknownKeys)
        {
            return StoredDecoding(value: value, unknownKeys: .none, storedVersion: storedVersion, filledKeyPaths: [])
        }
        let defaults = try self.defaults(of: Value.self, given: defaultValue)
        if defaults == nil, !recordingUnknownKeys {
            return StoredDecoding(
                value: try codec.decode(type, fromTree: payload), unknownKeys: .none, storedVersion: storedVersion,
                filledKeyPaths: [])
        }
        let decoded = try decode(type, from: payload, codec: codec, defaults: defaults)
        return StoredDecoding(
            value: decoded.value, unknownKeys: decoded.unknownKeys, storedVersion: storedVersion,
            filledKeyPaths: decoded.filledKeyPaths)
    }

    /// What fills missing keys of a `Value`: `defaultValue` taken apart, else `Value`'s own
    /// ``StoredDefault``, else nothing.
    static func defaults<Value>(of type: Value.Type, given defaultValue: Value?) throws(RawCodingError)
        -> DefaultNode?
    {
        do {
            if let defaultValue { return try capture(defaultValue) }
            if TypeTraits.of(Value.self).isStoredDefault, let withDefault = Value.self as? any StoredDefault.Type {
                return try DefaultNode.capture(withDefault.defaultValue)
            }
            return nil
        } catch {
            throw RawCodingError(
                kind: .decodingFailed, typeName: String(reflecting: Value.self),
                reason: "the default value's encode(to:) threw \(error), so missing keys could not be filled",
                underlyingError: error)
        }
    }

    /// Decodes `payload` (already at the current version), filling from `defaults` and
    /// recording the keys the model asks for.
    static func decode<Value: Decodable>(
        _ type: Value.Type, from payload: StoredValue, codec: some Codec, defaults: DefaultNode?
    ) throws(RawCodingError) -> (value: Value, unknownKeys: StoredUnknownKeys, filledKeyPaths: [String]) {
        let decoding = EvolvingDecoding(
            defaults: defaults, snakeCase: (codec as? JSONCodec)?.keys == .snakeCase, rootType: type)
        let value: Value
        do {
            value = try EvolvingDecoding.$current.withValue(decoding) {
                try codec.decode(EvolvingRoot<Value>.self, fromTree: payload).value
            }
        } catch let error as RawCodingError {
            throw error.typeName == String(reflecting: EvolvingRoot<Value>.self) ? error.about(Value.self) : error
        } catch {
            throw RawCodingError.decoding(error, of: Value.self)
        }
        return (value, StoredUnknownKeys.unknown(in: payload, ledger: decoding.ledger), decoding.filledKeyPaths)
    }

    /// The default, taken apart (only `Encodable` defaults can fill keys).
    private static func capture<Value>(_ value: Value) throws -> DefaultNode? {
        guard let encodable = value as? any Encodable else { return nil }
        return try DefaultNode.capture(encodable)
    }

    /// Encodes `value`, adds `unknownKeys` where the tree lacks them, and records the version.
    static func write<Value: Encodable>(
        _ value: Value, codec: some Codec, keeping unknownKeys: StoredUnknownKeys
    ) throws(RawCodingError) -> StoredValue {
        // The built-in codecs record the version themselves; a codec from elsewhere may not.
        try VersionEnvelope.recording(unknownKeys.applied(to: try codec.encodeTree(value)), for: Value.self)
    }

    /// Refuses an unversioned payload that migrating from version 1 changed, when it looks like
    /// the current version and not like version 1: it reads as the current type as it is
    /// (every key the model reads is there, none is unknown), while the typed step from
    /// version 1 would fill its old type from a default or leave keys unknown. Such a payload
    /// is most likely current data written without its version (by a plain `encode` of an
    /// earlier release, or by another program), and migrating it again would overwrite it, so
    /// it is left as it is. Tree steps cannot say what version 1 looked like; they migrate.
    static func refuseIfCurrent<Value: Decodable>(
        _ payload: StoredValue, as type: Value.Type, versioned: any StoredVersioned.Type, codec: some Codec
    ) throws(RawCodingError) {
        guard let first = versioned.migrations.first(where: { $0.fromVersion == 1 }),
            let readsAsOldType = first.readsAsOldType, !readsAsOldType(payload, codec),
            readsExactly(payload, as: type, codec: codec)
        else { return }
        throw RawCodingError(
            kind: .migrationFailed, typeName: String(reflecting: Value.self),
            reason:
                "the payload records no version, so it would be migrated from version 1, but it reads as version \(versioned.storedVersion) as it is and not as version 1: it is most likely version \(versioned.storedVersion) data written without its version, which migrating would overwrite; it was left as it is. Every codec's encode and encodeStored(_:keeping:) record the version; to migrate this payload as version 1, add \"$version\": 1 to it"
        )
    }

    /// Whether `payload` decodes as `type` with every key it reads present (none filled from
    /// a default) and no key it does not know. A payload that does not decode at all is not
    /// that shape: the answer is `false`, and the caller's own decode reports why.
    static func readsExactly<Value: Decodable>(_ payload: StoredValue, as type: Value.Type, codec: some Codec) -> Bool {
        do {
            let decoded = try decode(type, from: payload, codec: codec, defaults: nil)
            return decoded.unknownKeys.isEmpty && decoded.filledKeyPaths.isEmpty
        } catch {
            return false
        }
    }

    /// Runs each step from `version` up to the type's current version.
    static func migrate(
        _ payload: inout StoredValue, from version: Int, to versioned: any StoredVersioned.Type, codec: some Codec,
        subject: Any.Type
    ) throws(RawCodingError) {
        let current = versioned.storedVersion
        guard current >= 1 else {
            throw configurationError(subject, "storedVersion is \(current); versions start at 1")
        }
        guard version <= current else {
            throw RawCodingError(
                kind: .migrationFailed, typeName: String(reflecting: subject),
                reason:
                    "the payload was written at version \(version), newer than version \(current), the newest this build reads; it was left as it is (update the app, or add the newer version's steps)"
            )
        }
        guard version < current else { return }
        let steps = versioned.migrations
        for from in version..<current {
            let matching = steps.filter { $0.fromVersion == from }
            guard matching.count == 1 else {
                throw configurationError(
                    subject,
                    matching.isEmpty
                        ? "the payload is at version \(from) and migrations has no step from \(from) to \(from + 1)"
                        : "migrations has \(matching.count) steps from version \(from); give exactly one")
            }
            do {
                try matching[0].body(&payload, codec)
            } catch {
                let inner = error as? RawCodingError
                throw RawCodingError(
                    kind: .migrationFailed, typeName: String(reflecting: subject), codingPath: inner?.codingPath ?? [],
                    reason:
                        "the step from version \(from) to \(from + 1) threw: \(inner.map { "\($0)" } ?? "\(error)"); the payload was left as it is",
                    underlyingError: error)
            }
        }
    }

    static func configurationError(_ subject: Any.Type, _ problem: String) -> RawCodingError {
        RawCodingError(
            kind: .migrationFailed, typeName: String(reflecting: subject),
            reason: "\(problem) (StoredVersioned); the payload was left as it is")
    }
}
