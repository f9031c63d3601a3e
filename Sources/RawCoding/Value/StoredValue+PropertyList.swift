import Foundation

/// The bridge between ``StoredValue`` and Foundation's property-list objects, the values
/// `UserDefaults`, `NSUbiquitousKeyValueStore` and `PropertyListSerialization` hold.
extension StoredValue {
    /// Creates a tree from property-list objects: `[String: Any]` (also `NSDictionary` and
    /// `[AnyHashable: Any]` with string keys), `[Any]`, `String`, `Bool`, integers, `Double`,
    /// `Float`, `NSNumber`, `Data` and `Date`.
    ///
    /// Booleans stay ``bool(_:)`` and numbers stay numbers, however Foundation boxed them: an
    /// `NSNumber` made from a `Bool` is a Bool, one made from an integer is an integer. The
    /// `Optional` boxes that Linux's `UserDefaults.dictionary(forKey:)` wraps values in are
    /// unwrapped. `NSNull` (as `JSONSerialization` makes for JSON `null`) becomes ``null``.
    ///
    /// - Parameter object: A property-list object.
    /// - Throws: ``RawCodingError`` of kind ``RawCodingError/Kind/decodingFailed`` naming the
    ///   key path of the first value that is not a property-list object (a `URL`, a `nil`, a
    ///   dictionary with non-string keys, ...).
    public init(propertyList object: Any) throws(RawCodingError) {
        var path: [any CodingKey] = []
        do {
            self = try PropertyListBridge.value(from: object, path: &path)
        } catch {
            throw RawCodingError(
                kind: .decodingFailed, typeName: "StoredValue", codingPath: error.path,
                reason: error.reason, underlyingError: nil)
        }
    }

    /// The tree as property-list objects: `[String: Any]`, `[Any]`, `String`, `Bool`, `Int`,
    /// `UInt64` (above `Int64.max`), `Double`, `Data` and `Date`, ready for `UserDefaults`.
    ///
    /// A ``decimal(_:)`` becomes a `Double` when one holds it exactly, and otherwise `Decimal`'s
    /// own `Codable` form (a dictionary, as Foundation's `PropertyListEncoder` stores a
    /// `Decimal`), which ``StoredValueDecoder`` decodes back to the same `Decimal`.
    ///
    /// - Returns: The property-list object.
    /// - Throws: ``RawCodingError`` of kind ``RawCodingError/Kind/encodingFailed`` naming the
    ///   key path of a ``null``, which property lists cannot hold.
    public func propertyListObject() throws(RawCodingError) -> Any {
        var path: [any CodingKey] = []
        do {
            return try PropertyListBridge.object(from: self, path: &path)
        } catch {
            throw RawCodingError(
                kind: .encodingFailed, typeName: "StoredValue", codingPath: error.path,
                reason: error.reason, underlyingError: nil)
        }
    }
}

/// Why a value could not cross the bridge, and where.
struct PropertyListBridgeFailure: Error {
    var path: [any CodingKey]
    var reason: String
}

enum PropertyListBridge {
    /// Maximum nesting followed, so a self-containing NSArray is an error, not a stack overflow.
    static let maximumDepth = 512

    /// The class Foundation uses for boxed Booleans (`__NSCFBoolean`), distinct from other numbers.
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    static func value(from object: Any, path: inout [any CodingKey]) throws(PropertyListBridgeFailure) -> StoredValue {
        guard path.count < maximumDepth else {
            throw PropertyListBridgeFailure(path: path, reason: "nested deeper than \(maximumDepth) levels")
        }
        let mirror = Mirror(reflecting: object)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else {
                throw PropertyListBridgeFailure(path: path, reason: "nil is not a property-list value")
            }
            return try value(from: wrapped, path: &path)
        }
        // Swift values first, by exact type: `as?` would also turn an NSNumber 1 into true.
        switch object {
        case let string as String where type(of: object) == String.self: return .string(string)
        case let bool as Bool where type(of: object) == Bool.self: return .bool(bool)
        case let int as Int where type(of: object) == Int.self: return .int(Int64(int))
        case let double as Double where type(of: object) == Double.self: return .double(double)
        case let int as Int64 where type(of: object) == Int64.self: return .int(int)
        case let uint as UInt64 where type(of: object) == UInt64.self: return .integer(uint)
        case let uint as UInt where type(of: object) == UInt.self: return .integer(UInt64(uint))
        case let int as Int32 where type(of: object) == Int32.self: return .int(Int64(int))
        case let int as UInt32 where type(of: object) == UInt32.self: return .int(Int64(int))
        case let int as Int16 where type(of: object) == Int16.self: return .int(Int64(int))
        case let int as UInt16 where type(of: object) == UInt16.self: return .int(Int64(int))
        case let int as Int8 where type(of: object) == Int8.self: return .int(Int64(int))
        case let int as UInt8 where type(of: object) == UInt8.self: return .int(Int64(int))
        case let float as Float where type(of: object) == Float.self: return .double(Double(float))
        default: break
        }
        if let number = object as? NSNumber { return self.number(number) }
        if let string = object as? String { return .string(string) }
        if let data = object as? Data { return .data(data) }
        if let date = object as? Date { return .date(date) }
        if object is NSNull { return .null }
        if let dictionary = object as? [AnyHashable: Any] { return try self.dictionary(dictionary, path: &path) }
        if let array = object as? [Any] {
            var elements: [StoredValue] = []
            elements.reserveCapacity(array.count)
            for (index, element) in array.enumerated() {
                path.append(StoredCodingKey(index: index))
                elements.append(try value(from: element, path: &path))
                path.removeLast()
            }
            return .array(elements)
        }
        throw PropertyListBridgeFailure(path: path, reason: "\(type(of: object)) is not a property-list value")
    }

    private static func number(_ number: NSNumber) -> StoredValue {
        if ObjectIdentifier(type(of: number)) == booleanClass { return .bool(number.boolValue) }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "d"), UInt8(ascii: "f"): return .double(number.doubleValue)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"): return .integer(number.uint64Value)
        default: return .int(number.int64Value)
        }
    }

    private static func dictionary(_ dictionary: [AnyHashable: Any], path: inout [any CodingKey])
        throws(PropertyListBridgeFailure) -> StoredValue
    {
        // Sorted, so the same defaults always give the same tree (Foundation's order varies).
        var entries: [(key: String, value: Any)] = []
        entries.reserveCapacity(dictionary.count)
        for (key, value) in dictionary {
            guard let string = key.base as? String else {
                throw PropertyListBridgeFailure(
                    path: path, reason: "dictionary key \(key.base) (\(type(of: key.base))) is not a string")
            }
            entries.append((string, value))
        }
        entries.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        var result = StoredDictionary(minimumCapacity: entries.count)
        for (key, value) in entries {
            path.append(StoredCodingKey(stringValue: key))
            result.append(key: key, value: try self.value(from: value, path: &path))
            path.removeLast()
        }
        return .dictionary(result)
    }

    static func object(from value: StoredValue, path: inout [any CodingKey]) throws(PropertyListBridgeFailure) -> Any {
        switch value {
        case .null:
            throw PropertyListBridgeFailure(path: path, reason: "null cannot be stored in a property list")
        case .bool(let bool): return bool
        case .int(let int): return Int(int)
        case .uint(let uint): return uint
        case .double(let double): return double
        // Property lists have no decimal type: a Double when one is exact, otherwise Decimal's
        // own Codable form (what Foundation's PropertyListEncoder writes), which decodes exactly.
        case .decimal(let decimal):
            if let double = decimal.exactDouble { return double }
            var encoder = StoredValueEncoder()
            encoder.decimalEncoding = .deferredToDecimal
            do {
                return try object(from: try encoder.encode(decimal), path: &path)
            } catch {
                throw PropertyListBridgeFailure(path: path, reason: "\(decimal) has no property-list form: \(error)")
            }
        case .string(let string): return string
        case .data(let data): return data
        case .date(let date): return date
        case .array(let elements):
            var result: [Any] = []
            result.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                path.append(StoredCodingKey(index: index))
                result.append(try object(from: element, path: &path))
                path.removeLast()
            }
            return result
        case .dictionary(let entries):
            var result: [String: Any] = [:]
            result.reserveCapacity(entries.count)
            for (key, element) in entries {
                path.append(StoredCodingKey(stringValue: key))
                result[key] = try object(from: element, path: &path)
                path.removeLast()
            }
            return result
        }
    }
}
