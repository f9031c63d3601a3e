/// A `Codable` type whose stored form has a version, and which reads every earlier version.
///
/// Declare the current version and one migration step from each earlier version to the next.
/// Steps work on the stored tree (rename a key, supply a value, change a type, split a field,
/// turn a struct into an enum), so old types need not stay in code, or decode an old type and
/// convert it.
///
/// ```swift
/// struct Settings: Codable, StoredVersioned {
///     var username: String
///     var volume: Double
///
///     static let storedVersion = 3
///     static let migrations: [StoredMigration] = [
///         .tree(from: 1) { tree in tree.renameKey("name", to: "username") },
///         .tree(from: 2) { tree in tree["volume"] = tree["volume"] ?? 0.5 },
///     ]
/// }
/// ```
///
/// The evolving entry points (``Codec/decodeStored(_:from:defaultValue:)``,
/// ``Codec/encodeStored(_:keeping:)``, ``RawCodable`` and the stores) record the version in the
/// stored form and migrate on reading:
/// - A dictionary is written with one more key, `"$version"`, holding the version; any other
///   value is written inside `{"$version": 3, "$value": …}`. Both keys are reserved.
/// - A payload without `"$version"` is version 1: one written before the type adopted
///   versioning reads as version 1, so adopting it late breaks nothing.
/// - Reading runs every step from the stored version to ``storedVersion``, then decodes. A
///   version newer than ``storedVersion``, a missing step or a step that throws is a
///   ``RawCodingError`` of kind ``RawCodingError/Kind/migrationFailed``; nothing is written, so
///   the stored payload stays as it was.
/// - Writing writes ``storedVersion``.
///
/// The built-in codecs' plain ``Codec/encode(_:)`` and ``Codec/encodeTree(_:)`` record the
/// version too, so no write stores a versioned value that would be migrated again; the plain
/// ``Codec/decode(_:from:)`` reads what they write but does not migrate. An unversioned payload
/// that reads as the current version as it is, and not as the old type of the typed step from
/// version 1, is refused with ``RawCodingError/Kind/migrationFailed`` instead of being migrated:
/// it is most likely current data written without its version. Versions are recorded for the
/// value stored, not for versioned values nested inside it (migrate those in the outer type's
/// steps).
public protocol StoredVersioned: Codable {
    /// The version this type writes, 1 or more.
    static var storedVersion: Int { get }

    /// One step from each earlier version to the next, in any order: for a type at version
    /// 3, a step from 1 and a step from 2.
    static var migrations: [StoredMigration] { get }
}
