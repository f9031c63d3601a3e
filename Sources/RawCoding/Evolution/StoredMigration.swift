import Foundation

/// One step of a stored form from a version to the next, for ``StoredVersioned``.
///
/// ```swift
/// static let migrations: [StoredMigration] = [
///     // Tree steps: the payload as stored, without the version key.
///     .tree(from: 1) { tree in tree.renameKey("name", to: "username") },
///     // Typed steps: decode the old type with the codec, convert, encode the result.
///     .typed(from: 2, SettingsV2.self) { old in SettingsV3(username: old.username, volume: old.volume / 100) },
/// ]
/// ```
///
/// A tree step sees the tree in the codec's representation: with `.json` a date is a number
/// (seconds since 2001 by default) and bytes are Base64 text, as ``Codec/readTree(from:)``
/// says. Numbers, strings, Booleans, arrays and dictionaries are the same in every codec.
public struct StoredMigration: Sendable {
    /// The version this step reads; it produces the next one.
    public let fromVersion: Int
    let body: @Sendable (inout StoredValue, any Codec) throws -> Void
    /// For a typed step: whether a payload reads as its old type as it is, every key there and
    /// none unknown (so it looks like that version, not like a later one).
    let readsAsOldType: (@Sendable (StoredValue, any Codec) -> Bool)?

    init(
        fromVersion: Int, readsAsOldType: (@Sendable (StoredValue, any Codec) -> Bool)? = nil,
        body: @escaping @Sendable (inout StoredValue, any Codec) throws -> Void
    ) {
        self.fromVersion = fromVersion
        self.readsAsOldType = readsAsOldType
        self.body = body
    }

    /// A step that edits the stored tree.
    /// - Parameters:
    ///   - version: The version the step reads (it produces `version + 1`).
    ///   - edit: Changes the tree in place; a thrown error stops the decode with a
    ///     ``RawCodingError`` of kind ``RawCodingError/Kind/migrationFailed``.
    /// - Returns: The step.
    public static func tree(
        from version: Int, _ edit: @escaping @Sendable (inout StoredValue) throws -> Void
    ) -> StoredMigration {
        StoredMigration(fromVersion: version) { tree, _ in try edit(&tree) }
    }

    /// A step that decodes the old form as `Old`, converts it and encodes the result, with the
    /// codec in use. Keys of the stored form that `Old` does not know are carried over to the
    /// result, as ``StoredUnknownKeys`` are.
    /// - Parameters:
    ///   - version: The version the step reads (it produces `version + 1`).
    ///   - old: The type the stored form at `version` decodes as.
    ///   - convert: Makes the next version's value; what it returns is encoded as the next
    ///     step's input (or, for the last step, decoded as the current type).
    /// - Returns: The step.
    public static func typed<Old: Decodable & SendableMetatype, New: Encodable & SendableMetatype>(
        from version: Int, _ old: Old.Type, _ convert: @escaping @Sendable (Old) throws -> New
    ) -> StoredMigration {
        StoredMigration(
            fromVersion: version,
            readsAsOldType: { tree, codec in StoredEvolution.readsExactly(tree, as: Old.self, codec: codec) }
        ) { tree, codec in
            let old = try StoredEvolution.decode(Old.self, from: tree, codec: codec, defaults: nil)
            // Keys the old type did not know go on to the next version, as they would unmigrated.
            // The result is a payload: without the version a codec records for a versioned type.
            let new = VersionEnvelope.removingCurrentVersion(
                try codec.encodeTree(try convert(old.value)), for: New.self)
            tree = old.unknownKeys.applied(to: new)
        }
    }
}
