import Foundation

/// Decodes any `Decodable` value from a ``StoredValue`` tree.
///
/// The options mirror ``StoredValueEncoder``'s (and Foundation's `JSONDecoder`'s). Numbers are
/// read as Foundation reads JSON numbers: an integer property accepts an integer or a
/// whole-number double that fits its type, a floating-point property accepts any number.
/// `Bool` accepts only ``StoredValue/bool(_:)``.
///
/// ```swift
/// let settings = try StoredValueDecoder().decode(Settings.self, from: tree)
/// ```
///
/// Errors are Foundation's `DecodingError` (`keyNotFound`, `typeMismatch`, `valueNotFound`,
/// `dataCorrupted`) with the same coding paths `JSONDecoder` reports for the same mistake.
public struct StoredValueDecoder: Sendable {
    /// How `Date` values are read.
    public enum DateStrategy: Sendable {
        /// From ``StoredValue/date(_:)``. The default.
        case stored
        /// As `Date` decodes itself: seconds since 2001-01-01.
        case secondsSinceReferenceDate
        /// From seconds since 1970-01-01.
        case secondsSince1970
        /// From milliseconds since 1970-01-01.
        case millisecondsSince1970
        /// From an ISO 8601 string with time zone and optional fractional seconds
        /// (`2016-02-08T02:00:53.274Z`), as ``JSONCodec/DateStrategy/iso8601`` reads it.
        case iso8601
        /// From text in the formatter's format (`date(from:)`), as `JSONDecoder`'s `.formatted(_:)`.
        case formatted(DateFormatter)
        /// By the closure, from the decoder it is given.
        case custom(@Sendable (any Decoder) throws -> Date)
    }

    /// How `Data` values are read.
    public enum DataStrategy: Sendable {
        /// From ``StoredValue/data(_:)``. The default.
        case stored
        /// As `Data` decodes itself: from an array of byte values.
        case byteArray
        /// From a Base64 string.
        case base64
        /// By the closure, from the decoder it is given.
        case custom(@Sendable (any Decoder) throws -> Data)
    }

    /// How dictionary keys are matched to coding keys.
    public enum KeyStrategy: Sendable {
        /// Keys are used as they are. The default.
        case useDefaultKeys
        /// `my_url_value` is read as `myUrlValue`, as `JSONDecoder` converts.
        case snakeCase
        /// The closure's key for the coding path ending in the dictionary key.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How infinite and NaN values are read.
    public enum NonFiniteStrategy: Sendable {
        /// Only from ``StoredValue/double(_:)``, which holds them. The default.
        case allow
        /// Also from the given strings.
        case strings(positiveInfinity: String, negativeInfinity: String, nan: String)
    }

    /// How dates are read. Default: ``DateStrategy/stored``.
    public var dates: DateStrategy = .stored
    /// How bytes are read. Default: ``DataStrategy/stored``.
    public var data: DataStrategy = .stored
    /// How keys are matched. Default: ``KeyStrategy/useDefaultKeys``.
    public var keys: KeyStrategy = .useDefaultKeys
    /// How non-finite numbers are read. Default: ``NonFiniteStrategy/allow``.
    public var nonFiniteNumbers: NonFiniteStrategy = .allow
    /// How deeply values may nest (default 512, as in Foundation's JSON coders). Deeper
    /// nesting is a thrown error instead of a stack overflow: coding recurses once per level,
    /// and a secondary thread's stack holds only a few thousand levels.
    public var maximumDepth = 512
    /// Values the decoded types can read from `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// A string that also reads as nil: property lists have no null, so Foundation's coders
    /// (and ours) store nil as `$null`. Set by the property-list codec.
    var nullMarker: String?

    /// Creates a decoder with the default options.
    public init() {}

    /// Decodes a value of `type` from `tree`.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - tree: The stored value.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError` with the coding path of the first mismatch.
    public func decode<Value: Decodable>(_ type: Value.Type, from tree: StoredValue) throws -> Value {
        let root = DecodingNode(context: DecodingContext(options: self), parent: nil, step: nil, value: tree)
        return try root.unbox(tree, as: type, step: nil)
    }
}
