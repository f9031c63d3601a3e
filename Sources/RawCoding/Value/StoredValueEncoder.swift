import Foundation

/// Encodes any `Encodable` value into a ``StoredValue`` tree, without going through bytes.
///
/// The options have ``JSONCodec``'s names (`dates`, `data`, `keys`, `nonFiniteNumbers`, with
/// cases such as `.iso8601`, `.byteArray` and `.snakeCase`), plus the forms Foundation's
/// `JSONEncoder` also has (`.custom`, `.millisecondsSince1970`): a value encodes to the tree
/// JSON would hold, except that the defaults keep what property lists keep: dates stay
/// ``StoredValue/date(_:)``, bytes stay ``StoredValue/data(_:)``, and non-finite doubles stay
/// doubles.
///
/// ```swift
/// var encoder = StoredValueEncoder()
/// encoder.keys = .snakeCase
/// let tree = try encoder.encode(settings)       // ["font_size": 14, "theme": "dark"]
/// ```
///
/// Errors are Foundation's `EncodingError`, with the coding path of the value that failed.
public struct StoredValueEncoder: Sendable {
    /// How `Date` values are stored.
    public enum DateStrategy: Sendable {
        /// As ``StoredValue/date(_:)``. The default.
        case stored
        /// As `Date` encodes itself: seconds since 2001-01-01 (a double).
        case secondsSinceReferenceDate
        /// Seconds since 1970-01-01, a double.
        case secondsSince1970
        /// Milliseconds since 1970-01-01, a double.
        case millisecondsSince1970
        /// An ISO 8601 string in UTC, like `2001-01-01T00:00:00Z`, with the fractional seconds
        /// that keep the date exact (`…T00:00:00.5Z`), as ``JSONCodec/DateStrategy/iso8601``
        /// writes it; a date outside the years 0000–9999 is an error.
        case iso8601
        /// Text in the formatter's format (`string(from:)`), as `JSONEncoder`'s `.formatted(_:)`;
        /// a date its text would not read back as is refused with its path.
        case formatted(DateFormatter)
        /// By the closure, which encodes into the encoder it is given.
        case custom(@Sendable (Date, any Encoder) throws -> Void)
    }

    /// How `Data` values are stored.
    public enum DataStrategy: Sendable {
        /// As ``StoredValue/data(_:)``. The default.
        case stored
        /// As `Data` encodes itself: an array of byte values.
        case byteArray
        /// As a Base64 string.
        case base64
        /// By the closure, which encodes into the encoder it is given.
        case custom(@Sendable (Data, any Encoder) throws -> Void)
    }

    /// How coding keys become dictionary keys.
    public enum KeyStrategy: Sendable {
        /// Each key's `stringValue`. The default.
        case useDefaultKeys
        /// `myURLValue` becomes `my_url_value`, as `JSONEncoder` converts.
        case snakeCase
        /// The closure's key for the coding path ending in the key to convert.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How infinite and NaN `Double`/`Float` values are stored.
    public enum NonFiniteStrategy: Sendable {
        /// As ``StoredValue/double(_:)``, which holds them. The default.
        case allow
        /// Throw `EncodingError.invalidValue`, as `JSONEncoder` does by default.
        case `throw`
        /// As the given strings.
        case strings(positiveInfinity: String, negativeInfinity: String, nan: String)
    }

    /// How dates are stored. Default: ``DateStrategy/stored``.
    public var dates: DateStrategy = .stored
    /// How bytes are stored. Default: ``DataStrategy/stored``.
    public var data: DataStrategy = .stored
    /// How keys are converted. Default: ``KeyStrategy/useDefaultKeys``.
    public var keys: KeyStrategy = .useDefaultKeys
    /// How non-finite numbers are stored. Default: ``NonFiniteStrategy/allow``.
    public var nonFiniteNumbers: NonFiniteStrategy = .allow
    /// How deeply values may nest (default 512, as in Foundation's JSON coders). Deeper
    /// nesting is a thrown error instead of a stack overflow: coding recurses once per level,
    /// and a secondary thread's stack holds only a few thousand levels.
    public var maximumDepth = 512
    /// Values the encoded types can read from `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// How `Decimal` values are stored; chosen by the codecs.
    enum DecimalEncoding: Sendable {
        /// As ``StoredValue/decimal(_:)``, exact: the default, and the JSON codec's (a JSON
        /// number with every digit).
        case stored
        /// Through `Decimal`'s own `Codable` form (a dictionary), exact: the property-list codec,
        /// as Foundation's `PropertyListEncoder` stores it.
        case deferredToDecimal
    }

    var decimalEncoding = DecimalEncoding.stored

    /// How `URL` values are stored; chosen by the codecs.
    package enum URLEncoding: Sendable {
        /// As its absolute string: the default, and every codec's.
        case string
        /// Through `URL`'s own `Codable` form, a dictionary `{relative, base}`, as Foundation's
        /// `PropertyListEncoder` stores it and its decoder alone reads it back.
        case deferredToURL
    }

    package var urlEncoding = URLEncoding.string

    /// Whether a `Float` is stored as the `Double` its shortest text denotes (`3.14`, as text
    /// formats carry it) rather than its exact value (`3.140000104904175`, as a binary
    /// property list's real holds it, so that Foundation reads back `Float.greatestFiniteMagnitude`).
    var floatsAsTheirText = true

    /// Creates an encoder with the default options.
    public init() {}

    /// Encodes `value` into a tree.
    /// - Parameter value: The value to encode.
    /// - Returns: The tree.
    /// - Throws: `EncodingError.invalidValue` with the coding path, when the value (or a
    ///   strategy) refuses, or when it encodes nothing at all.
    public func encode<Value: Encodable>(_ value: Value) throws -> StoredValue {
        let context = EncodingContext(options: self)
        defer { context.releasePendingNodes() }
        let root = EncodingNode(context: context, parent: nil, step: nil)
        let tree = try root.box(value, step: nil)
        if let failure = context.failure { throw failure }
        guard let tree else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [], debugDescription: "Top-level \(Value.self) did not encode any values."))
        }
        return tree
    }
}
