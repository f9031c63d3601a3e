import Foundation

/// A plain value tree: what any `Codable` value becomes between Swift and a stored format.
///
/// `StoredValue` holds what JSON and property lists can hold, keeping the distinctions they
/// make: `Bool` is not a number, integers are not doubles, a date and bytes are their own
/// kinds (property lists keep them; JSON writes them as numbers or text).
///
/// ```swift
/// let tree = try StoredValueEncoder().encode(settings)
/// tree["account"]?["email"]?.stringValue          // "me@example.com"
/// let settings = try StoredValueDecoder().decode(Settings.self, from: tree)
/// ```
///
/// Dictionaries keep the order their entries were added in (the order a type encodes its
/// properties), and compare equal regardless of order, as JSON objects and property-list
/// dictionaries do.
public enum StoredValue: Sendable, Hashable {
    /// JSON `null`; property lists have no null.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A signed integer.
    case int(Int64)
    /// An integer above `Int64.max`. Integers that fit in `Int64` are always ``int(_:)``.
    case uint(UInt64)
    /// A floating-point number, which may be infinite or NaN.
    case double(Double)
    /// A decimal number kept exactly: a `Decimal` the JSON codec encodes, or a JSON number with
    /// more significant digits than a `Double` holds (up to 38). Decodes as any number type.
    case decimal(Decimal)
    /// Text.
    case string(String)
    /// Bytes.
    case data(Data)
    /// A point in time.
    case date(Date)
    /// An ordered list.
    case array([StoredValue])
    /// String keys to values, in insertion order.
    case dictionary(StoredDictionary)
}

extension StoredValue {
    /// The integer `value`: ``int(_:)`` when it fits in `Int64`, otherwise ``uint(_:)``.
    /// - Parameter value: An unsigned integer.
    /// - Returns: The stored integer.
    public static func integer(_ value: UInt64) -> StoredValue {
        value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
    }

    /// Whether this is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The Boolean, if this is ``bool(_:)``.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The integer as `Int64`, if this is an integer that fits (``int(_:)``, or ``uint(_:)``
    /// up to `Int64.max`).
    public var int64Value: Int64? {
        switch self {
        case .int(let value): value
        case .uint(let value): Int64(exactly: value)
        default: nil
        }
    }

    /// The integer as `UInt64`, if this is a non-negative integer.
    public var uint64Value: UInt64? {
        switch self {
        case .int(let value): UInt64(exactly: value)
        case .uint(let value): value
        default: nil
        }
    }

    /// The number as `Double`: a ``double(_:)``, or an integer (rounded to the nearest
    /// `Double` when it has more than 53 significant bits).
    public var doubleValue: Double? {
        switch self {
        case .double(let value): value
        case .int(let value): Double(value)
        case .uint(let value): Double(value)
        case .decimal(let value): value.nearestDouble
        default: nil
        }
    }

    /// The text, if this is ``string(_:)``.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The bytes, if this is ``data(_:)``.
    public var dataValue: Data? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The date, if this is ``date(_:)``.
    public var dateValue: Date? {
        if case .date(let value) = self { return value }
        return nil
    }

    /// The elements, if this is ``array(_:)``.
    public var arrayValue: [StoredValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The entries, if this is ``dictionary(_:)``.
    public var dictionaryValue: StoredDictionary? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The value for `key`, if this is a dictionary that has it.
    ///
    /// Setting a value replaces the entry in place or appends it; setting `nil` removes it.
    /// Setting a key on ``null`` makes it a dictionary. Setting a key on any other kind of
    /// value leaves that value as it is: a stored tree may hold anything, and an edit never
    /// crashes the program or replaces a value of another kind (check ``dictionaryValue`` first
    /// when the kind is not known).
    ///
    /// ```swift
    /// tree["theme"] = "dark"
    /// tree["account"]?["email"] = "me@example.com"
    /// tree["legacyFlag"] = nil
    /// ```
    public subscript(key: String) -> StoredValue? {
        get { dictionaryValue?[key] }
        set {
            switch self {
            case .dictionary(var dictionary):
                self = .null  // let the dictionary be edited in place, not copied
                dictionary[key] = newValue
                self = .dictionary(dictionary)
            case .null:
                guard let newValue else { return }
                self = .dictionary([key: newValue])
            default:
                return
            }
        }
    }

    /// The element at `index`, if this is an array that long.
    ///
    /// Setting a value replaces the element. Setting `nil`, an index outside the array, or an
    /// element of a value that is not an array leaves the value as it is (check ``arrayValue``
    /// first when the shape is not known).
    public subscript(index: Int) -> StoredValue? {
        get {
            guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
            return elements[index]
        }
        set {
            guard case .array(var elements) = self, elements.indices.contains(index), let newValue else { return }
            self = .null
            elements[index] = newValue
            self = .array(elements)
        }
    }

    /// The name of this value's kind, for messages: `"null"`, `"bool"`, `"int"`, ...
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int, .uint: "integer"
        case .double: "double"
        case .decimal: "decimal"
        case .string: "string"
        case .data: "data"
        case .date: "date"
        case .array: "array"
        case .dictionary: "dictionary"
        }
    }
}

extension Decimal {
    /// The `Double` nearest to this decimal, correctly rounded: from its fields by a fast exact
    /// conversion when one decides, otherwise through its text, which `Double(_:)` rounds
    /// exactly (`NSDecimalNumber.doubleValue` can be off by an ulp).
    var nearestDouble: Double {
        if isNaN { return .nan }
        if let value = DecimalFields(self)?.fastDouble { return value }
        return Double(description) ?? NSDecimalNumber(decimal: self).doubleValue
    }

    /// The `Double` equal to this decimal, when one is: its shortest text reads back as this
    /// same decimal (`0.1`, `1e308`); `nil` for NaN and for more digits than a `Double` keeps.
    var exactDouble: Double? {
        guard !isNaN else { return nil }
        let double = nearestDouble
        guard double.isFinite, Decimal(string: "\(double)", locale: Locale(identifier: "en_US_POSIX")) == self else {
            return nil
        }
        return double
    }

    /// Why a property list cannot hold this decimal (it has no decimal type, and a real would
    /// round it).
    var propertyListRefusal: String {
        "a property list has no decimal numbers, and \(self) is not exactly a real (a Double); "
            + "PropertyListCodec stores Decimal values exactly, in Decimal's Codable form"
    }
}
