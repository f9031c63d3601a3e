import Foundation

extension DecodingNode {
    func unboxBool(_ value: StoredValue, step: CodingPathStep?) throws -> Bool {
        if case .bool(let bool) = value { return bool }
        throw mismatch(Bool.self, value, step: step)
    }

    func unboxString(_ value: StoredValue, step: CodingPathStep?) throws -> String {
        if case .string(let string) = value { return string }
        throw mismatch(String.self, value, step: step)
    }

    /// An integer of type `Integer` from an integer, or from a whole-number double that fits.
    func unboxInteger<Integer: FixedWidthInteger>(_ value: StoredValue, as type: Integer.Type, step: CodingPathStep?)
        throws -> Integer
    {
        switch value {
        case .int(let int):
            if let result = Integer(exactly: int) { return result }
            throw corrupted("\(int) does not fit \(Integer.self).", step: step)
        case .uint(let uint):
            if let result = Integer(exactly: uint) { return result }
            throw corrupted("\(uint) does not fit \(Integer.self).", step: step)
        case .double(let double):
            if let result = Integer(exactly: double) { return result }
            throw corrupted("\(double) does not fit \(Integer.self).", step: step)
        case .decimal(let decimal):
            if let result = Integer(decimal.description) { return result }
            throw corrupted("\(decimal) does not fit \(Integer.self).", step: step)
        default:
            throw mismatch(Integer.self, value, step: step)
        }
    }

    func unboxDouble(_ value: StoredValue, step: CodingPathStep?) throws -> Double {
        switch value {
        case .double(let double): return double
        case .int(let int): return Double(int)
        case .uint(let uint): return Double(uint)
        case .decimal(let decimal): return decimal.nearestDouble
        case .string(let string):
            if case .strings(let positiveInfinity, let negativeInfinity, let nan) = context.options
                .nonFiniteNumbers
            {
                if string == positiveInfinity { return .infinity }
                if string == negativeInfinity { return -.infinity }
                if string == nan { return .nan }
            }
            throw mismatch(Double.self, value, step: step)
        default:
            throw mismatch(Double.self, value, step: step)
        }
    }

    /// Whether `double` reads as a `Float` that is the same number, rounded: not one too large
    /// (infinity) or so small that it would be 0. Non-finite values are themselves.
    static func fitsFloat(_ double: Double) -> Bool {
        let float = Float(double)
        return !double.isFinite || (float.isFinite && (float != 0 || double == 0))
    }

    func unboxFloat(_ value: StoredValue, step: CodingPathStep?) throws -> Float {
        let double = try unboxDouble(value, step: step)
        // Rounded, not compared with Float's largest value: writers write a Float as its own
        // shortest text (3.4028235e+38 for the largest), which as a Double lies just above it.
        guard Self.fitsFloat(double) else { throw corrupted("\(double) does not fit Float.", step: step) }
        return Float(double)
    }

    /// `value` decoded as `Value`: primitives directly, everything else through its
    /// `init(from:)` on a child node at `step`.
    func unbox<Value: Decodable>(_ value: StoredValue, as type: Value.Type, step: CodingPathStep?) throws -> Value {
        if Value.self == String.self { return unsafeBitCast(try unboxString(value, step: step), to: Value.self) }
        if Value.self == Int.self {
            return unsafeBitCast(try unboxInteger(value, as: Int.self, step: step), to: Value.self)
        }
        if Value.self == Double.self { return unsafeBitCast(try unboxDouble(value, step: step), to: Value.self) }
        if Value.self == Bool.self { return unsafeBitCast(try unboxBool(value, step: step), to: Value.self) }
        if Value.self == Date.self { return unsafeBitCast(try unboxDate(value, step: step), to: Value.self) }
        if Value.self == Data.self { return unsafeBitCast(try unboxData(value, step: step), to: Value.self) }
        if Value.self == Int64.self {
            return unsafeBitCast(try unboxInteger(value, as: Int64.self, step: step), to: Value.self)
        }
        if Value.self == UInt64.self {
            return unsafeBitCast(try unboxInteger(value, as: UInt64.self, step: step), to: Value.self)
        }
        if Value.self == UInt.self {
            return unsafeBitCast(try unboxInteger(value, as: UInt.self, step: step), to: Value.self)
        }
        if Value.self == Int32.self {
            return unsafeBitCast(try unboxInteger(value, as: Int32.self, step: step), to: Value.self)
        }
        if Value.self == UInt32.self {
            return unsafeBitCast(try unboxInteger(value, as: UInt32.self, step: step), to: Value.self)
        }
        if Value.self == Int16.self {
            return unsafeBitCast(try unboxInteger(value, as: Int16.self, step: step), to: Value.self)
        }
        if Value.self == UInt16.self {
            return unsafeBitCast(try unboxInteger(value, as: UInt16.self, step: step), to: Value.self)
        }
        if Value.self == Int8.self {
            return unsafeBitCast(try unboxInteger(value, as: Int8.self, step: step), to: Value.self)
        }
        if Value.self == UInt8.self {
            return unsafeBitCast(try unboxInteger(value, as: UInt8.self, step: step), to: Value.self)
        }
        if Value.self == Float.self { return unsafeBitCast(try unboxFloat(value, step: step), to: Value.self) }
        if Value.self == URL.self { return unsafeBitCast(try unboxURL(value, step: step), to: Value.self) }
        if Value.self == Decimal.self { return unsafeBitCast(try unboxDecimal(value, step: step), to: Value.self) }
        if Value.self == [Double].self {
            return unsafeBitCast(try unboxArray(value, step: step) { $0.unboxDouble }, to: Value.self)
        }
        if Value.self == [String].self {
            return unsafeBitCast(try unboxArray(value, step: step) { $0.unboxString }, to: Value.self)
        }
        if Value.self == [Int].self {
            return unsafeBitCast(
                try unboxArray(value, step: step) { node in { try node.unboxInteger($0, as: Int.self, step: $1) } },
                to: Value.self)
        }
        if Value.self == [Float].self {
            return unsafeBitCast(try unboxArray(value, step: step) { $0.unboxFloat }, to: Value.self)
        }
        if Value.self == [Bool].self {
            return unsafeBitCast(try unboxArray(value, step: step) { $0.unboxBool }, to: Value.self)
        }
        let node = try child(value, step: step)
        if !context.usesDefaultKeys, Value.self is any StringKeyedDecodableDictionary.Type {
            // JSONDecoder converts the keys of types, not the keys of [String: Value] data.
            node.keepsKeys = true
        }
        return try type.init(from: node)
    }

    /// An array of a primitive, as `Array.init(from:)` decodes it (a child decoder, its unkeyed
    /// container, each element at its index), without the generic calls for each element.
    func unboxArray<Element>(
        _ value: StoredValue, step: CodingPathStep?,
        _ element: (DecodingNode) -> (StoredValue, CodingPathStep?) throws -> Element
    ) throws -> [Element] {
        let node = try child(value, step: step)
        guard case .array(let values) = value else {
            _ = try node.unkeyedContainer()
            return []
        }
        let decode = element(node)
        var elements: [Element] = []
        elements.reserveCapacity(values.count)
        for (index, value) in values.enumerated() { elements.append(try decode(value, .index(index))) }
        return elements
    }

    /// A decoder for a nested value; nesting beyond the decoder's `maximumDepth` is an error,
    /// so a hostile tree cannot overflow the stack.
    func child(_ value: StoredValue, step: CodingPathStep?) throws -> DecodingNode {
        try context.checkNesting(below: depth) { path(adding: step) }
        let node = DecodingNode(context: context, parent: self, step: step, value: value)
        // The same value (no step: a single-value container's, or the root's model) has the
        // same marks; a value under a key has its entry's.
        if let mark {
            if step == nil {
                node.mark = mark
            } else if case .key(let key) = step, case .dictionary(let dictionary) = self.value,
                let position = dictionary.position(of: key.stringValue)
            {
                node.mark = mark.child(at: position)
            }
        }
        return node
    }

    func unboxDate(_ value: StoredValue, step: CodingPathStep?) throws -> Date {
        switch context.options.dates {
        case .stored:
            if case .date(let date) = value { return date }
            throw mismatch(Date.self, value, step: step)
        case .secondsSinceReferenceDate:
            return Date(timeIntervalSinceReferenceDate: try unboxDouble(value, step: step))
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try unboxDouble(value, step: step))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try unboxDouble(value, step: step) / 1000)
        case .iso8601:
            let text = try unboxString(value, step: step)
            guard let date = DateText.dateFromISO8601(text) else {
                throw corrupted(DateText.notISO8601(text), step: step)
            }
            return date
        case .formatted(let formatter):
            let text = try unboxString(value, step: step)
            guard let date = formatter.date(from: text) else {
                throw corrupted(DateFormatterCoding.unreadable(text, with: formatter), step: step)
            }
            return date
        case .custom(let decode):
            return try decode(child(value, step: step))
        }
    }

    func unboxData(_ value: StoredValue, step: CodingPathStep?) throws -> Data {
        switch context.options.data {
        case .stored:
            if case .data(let data) = value { return data }
            throw mismatch(Data.self, value, step: step)
        case .byteArray:
            return try Data(from: child(value, step: step))
        case .base64:
            let text = try unboxString(value, step: step)
            guard let data = Data(base64Encoded: text) else {
                throw corrupted("Encountered Data is not valid Base64.", step: step)
            }
            return data
        case .custom(let decode):
            return try decode(child(value, step: step))
        }
    }

    func unboxURL(_ value: StoredValue, step: CodingPathStep?) throws -> URL {
        // Foundation's PropertyListEncoder stores a URL through its own Codable form, a
        // dictionary with "relative" (and "base"); read that too.
        if case .dictionary = value { return try URL(from: child(value, step: step)) }
        let text = try unboxString(value, step: step)
        guard let url = URL(string: text) else { throw corrupted("Invalid URL string.", step: step) }
        return url
    }

    /// A `Decimal` from a number (through its shortest text, so 0.1 stays 0.1) or from text.
    func unboxDecimal(_ value: StoredValue, step: CodingPathStep?) throws -> Decimal {
        let text: String
        switch value {
        case .int(let int): return Decimal(int)
        case .uint(let uint): return Decimal(uint)
        case .decimal(let decimal): return decimal
        // Decimal's own Codable form, which Foundation's PropertyListEncoder stores.
        case .dictionary: return try Decimal(from: child(value, step: step))
        case .double(let double) where double.isFinite: text = "\(double)"
        case .string(let string): text = string
        default: throw mismatch(Decimal.self, value, step: step)
        }
        guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw corrupted("\(text) is not a decimal number.", step: step)
        }
        return decimal
    }
}

/// A ``DecodingNode`` is its own single-value container.
extension DecodingNode: SingleValueDecodingContainer {
    func decodeNil() -> Bool { context.isNull(value) }
    func decode(_ type: Bool.Type) throws -> Bool { try unboxBool(value, step: nil) }
    func decode(_ type: String.Type) throws -> String { try unboxString(value, step: nil) }
    func decode(_ type: Double.Type) throws -> Double { try unboxDouble(value, step: nil) }
    func decode(_ type: Float.Type) throws -> Float { try unboxFloat(value, step: nil) }
    func decode(_ type: Int.Type) throws -> Int { try unboxInteger(value, as: type, step: nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try unboxInteger(value, as: type, step: nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try unboxInteger(value, as: type, step: nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try unboxInteger(value, as: type, step: nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try unboxInteger(value, as: type, step: nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try unboxInteger(value, as: type, step: nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try unboxInteger(value, as: type, step: nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try unboxInteger(value, as: type, step: nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try unboxInteger(value, as: type, step: nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try unboxInteger(value, as: type, step: nil) }
    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try unbox(value, as: type, step: nil) }
}

/// `[String: Value]` dictionaries, whose keys are data rather than property names: key
/// strategies leave them alone when decoding, as `StringKeyedDictionary` does when encoding.
protocol StringKeyedDecodableDictionary {}

extension Dictionary: StringKeyedDecodableDictionary where Key == String, Value: Decodable {}
