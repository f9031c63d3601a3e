import Foundation

/// An error thrown by RawCoding: what went wrong, for which type, and where in the value.
///
/// Every failure of a codec, of ``RawCodable`` and of ``RawStringCodable`` is reported as a
/// `RawCodingError`. It carries the coding path of the failing value (the same path
/// `EncodingError` and `DecodingError` carry) and, where one exists, the error that caused it.
/// For a malformed document, the coding path is the path inside the document
/// (`items[2].name`) and ``position`` the line and column. Codecs written outside the package
/// create their errors with ``init(kind:typeName:codingPath:reason:underlyingError:position:)``
/// or wrap another coder's error with ``decoding(_:of:)`` and ``encoding(_:of:)``.
///
/// ```swift
/// do {
///     let settings = try JSONCodec().decode(Settings.self, from: text)
/// } catch {
///     print(error)   // Could not decode Settings at theme.accent: expected String, found a number …
/// }
/// ```
///
/// The wording of ``description`` is for people and may change between versions; match on
/// ``kind`` and ``codingPath`` in code.
public struct RawCodingError: Error, CustomStringConvertible, CustomDebugStringConvertible {
    /// The category of a ``RawCodingError``.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        let name: String

        /// A value could not be encoded (its `encode(to:)` threw, or the format cannot hold it).
        public static let encodingFailed = Kind(name: "encodingFailed")
        /// The input could not be decoded as the requested type: malformed, truncated or wrong-shaped.
        public static let decodingFailed = Kind(name: "decodingFailed")
        /// The input is larger than the codec's ``Limits`` allow.
        public static let limitExceeded = Kind(name: "limitExceeded")
        /// A type's coding re-entered its own `rawValue` or `init?(rawValue:)`: the infinite-recursion trap.
        public static let recursionTrap = Kind(name: "recursionTrap")
        /// A ``StoredVersioned`` payload could not be brought to the current version: it was
        /// written by a newer version, a step is missing, or a step threw. Nothing was
        /// written; the stored payload is as it was.
        public static let migrationFailed = Kind(name: "migrationFailed")
        /// Storage under a key-value store failed: a file could not be read, written, renamed
        /// or locked, or a store refused a key. ``RawCodingError/typeName`` names the store and
        /// ``RawCodingError/codingPath`` starts with the key.
        public static let storageFailed = Kind(name: "storageFailed")
        /// The task that made an `async` store call was cancelled before the call could change
        /// anything: nothing was written, and the store is usable. ``RawCodingError/underlyingError``
        /// is a `CancellationError`.
        public static let cancelled = Kind(name: "cancelled")

        public var description: String { name }
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The name of the type being encoded or decoded when the failure happened.
    public let typeName: String
    /// The coding path from the top-level value to the value that failed; empty for the top level.
    public let codingPath: [any CodingKey]
    /// What was wrong, in one sentence.
    public let reason: String
    /// The error that caused this one, such as the `EncodingError` or `DecodingError` thrown by a coder.
    public let underlyingError: (any Error)?
    /// Where in the input a format reader found the problem (byte offset; line and column for
    /// text formats); `nil` for failures that are not about the input's bytes.
    public let position: InputPosition?

    /// Creates an error, for codecs, stores and tools built on RawCoding that report their
    /// failures in its type.
    ///
    /// ```swift
    /// throw RawCodingError(
    ///     kind: .decodingFailed, typeName: String(reflecting: Value.self),
    ///     codingPath: path, reason: "the payload is not MessagePack")
    /// ```
    ///
    /// To wrap an error thrown by another coder, keeping its coding path, use
    /// ``encoding(_:of:)`` or ``decoding(_:of:)``.
    /// - Parameters:
    ///   - kind: What kind of failure this is.
    ///   - typeName: The type being encoded or decoded, usually `String(reflecting: T.self)`.
    ///   - codingPath: Where in the value the failure happened; empty for the top level.
    ///   - reason: What was wrong, in one sentence.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - position: Where in the input the problem is, for failures about the input's bytes.
    public init(
        kind: Kind,
        typeName: String,
        codingPath: [any CodingKey] = [],
        reason: String,
        underlyingError: (any Error)? = nil,
        position: InputPosition? = nil
    ) {
        self.kind = kind
        self.typeName = typeName
        self.codingPath = codingPath
        self.reason = reason
        self.underlyingError = underlyingError
        self.position = position
    }

    /// The coding path written as a dotted key path, such as `items[2].name`; `<top level>` when empty.
    public var codingPathDescription: String {
        CodingPathFormatter.render(codingPath)
    }

    public var description: String {
        let verb: String
        switch kind {
        case .encodingFailed: verb = "Could not encode"
        case .recursionTrap: verb = "Recursion trap in"
        case .migrationFailed: verb = "Could not migrate"
        case .storageFailed: verb = "Storage failed in"
        case .cancelled: verb = "Cancelled in"
        default: verb = "Could not decode"
        }
        let text = "\(verb) \(typeName) at \(codingPathDescription): \(reason)"
        guard let position else { return text }
        return "\(text) (input \(position))"
    }

    public var debugDescription: String {
        guard let underlyingError else { return description }
        return "\(description) (underlying error: \(String(reflecting: underlyingError)))"
    }
}
