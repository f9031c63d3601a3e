/// A `Codable` type with a default value, which fills in what older stored data lacks.
///
/// When a model gains a property, every payload stored before lacks its key, and a plain
/// decode fails (`required key "volume" is missing`). Give the type a default and decode with
/// the evolving entry points (``Codec/decodeStored(_:from:defaultValue:)``; ``RawCodable`` and
/// the stores do it for you): each
/// key the stored data lacks takes the default's value instead.
///
/// ```swift
/// struct Settings: Codable, StoredDefault {
///     var theme = "dark"
///     var volume = 0.5          // added in the second release
///     static let defaultValue = Settings()
/// }
/// let settings = try JSONCodec().decodeStored(Settings.self, from: #"{"theme":"light"}"#).value
/// // Settings(theme: "light", volume: 0.5)
/// ```
///
/// What is filled, and what is not:
/// - A key is filled when the type asks for it with `decode(_:forKey:)` (a non-optional
///   property) and the stored dictionary lacks it. Nested structs are filled the same way,
///   from the default's nested value, at any depth.
/// - A key that is present with a value of the wrong type is still an error: a stored value is
///   never silently replaced.
/// - An optional property whose key is missing reads as `nil`, never as the default: Swift
///   stores `nil` by leaving the key out, so a missing key may be a `nil` the user chose.
/// - Arrays and `[String: Value]` dictionaries are read as stored: their elements are data,
///   not fields. An element type that conforms to `StoredDefault` itself is filled from its
///   own ``defaultValue``.
/// - Enum cases are read as stored.
public protocol StoredDefault: Codable {
    /// The value whose parts fill in keys the stored data lacks.
    static var defaultValue: Self { get }
}
