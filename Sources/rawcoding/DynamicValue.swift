import Foundation

/// Any JSON or property-list value, decoded without knowing its type ahead of time.
///
/// The tool converts between formats through the codecs: decode a `DynamicValue` with the
/// source format's codec, encode it with the target's.
enum DynamicValue: Codable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsignedInteger(UInt64)
    case double(Double)
    case string(String)
    case date(Date)
    case data(Data)
    case array([DynamicValue])
    case dictionary([String: DynamicValue])

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }

    init(from decoder: any Decoder) throws {
        if let keyed = Self.attempt({ try decoder.container(keyedBy: Key.self) }) {
            var members: [String: DynamicValue] = [:]
            for key in keyed.allKeys {
                members[key.stringValue] = try keyed.decode(DynamicValue.self, forKey: key)
            }
            self = .dictionary(members)
        } else if var unkeyed = Self.attempt({ try decoder.unkeyedContainer() }) {
            var elements: [DynamicValue] = []
            while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(DynamicValue.self)) }
            self = .array(elements)
        } else {
            self = try Self.scalar(from: decoder.singleValueContainer())
        }
    }

    /// Tries the scalar types from the most to the least specific. Numbers come before `Date`
    /// (JSON reads numbers as dates) and strings before `Data` (JSON reads Base64 text as data).
    private static func scalar(from container: any SingleValueDecodingContainer) throws -> DynamicValue {
        if container.decodeNil() { return .null }
        if let value = attempt({ try container.decode(Bool.self) }) { return .bool(value) }
        if let value = attempt({ try container.decode(Int64.self) }) { return .integer(value) }
        if let value = attempt({ try container.decode(UInt64.self) }) { return .unsignedInteger(value) }
        if let value = attempt({ try container.decode(Double.self) }) { return .double(value) }
        if let value = attempt({ try container.decode(String.self) }) { return .string(value) }
        if let value = attempt({ try container.decode(Date.self) }) { return .date(value) }
        return .data(try container.decode(Data.self))
    }

    /// The result of `body`, or `nil` when it throws: used only to probe which shape a value has,
    /// where a failed probe is the expected answer "not this shape".
    private static func attempt<T>(_ body: () throws -> T) -> T? {
        do { return try body() } catch { return nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value): try encodeScalar(value, to: encoder)
        case .integer(let value): try encodeScalar(value, to: encoder)
        case .unsignedInteger(let value): try encodeScalar(value, to: encoder)
        case .double(let value): try encodeScalar(value, to: encoder)
        case .string(let value): try encodeScalar(value, to: encoder)
        case .date(let value): try encodeScalar(value, to: encoder)
        case .data(let value): try encodeScalar(value, to: encoder)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .dictionary(let members):
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in members { try container.encode(value, forKey: Key(stringValue: key)) }
        }
    }

    private func encodeScalar<T: Encodable>(_ value: T, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    /// The key path of the first `null`, which property lists cannot hold.
    func firstNullPath(_ prefix: String = "") -> String? {
        switch self {
        case .null: return prefix.isEmpty ? "<top level>" : prefix
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let path = element.firstNullPath("\(prefix)[\(index)]") { return path }
            }
        case .dictionary(let members):
            for key in members.keys.sorted() {
                if let path = members[key]!.firstNullPath(prefix.isEmpty ? key : "\(prefix).\(key)") { return path }
            }
        default: break
        }
        return nil
    }
}
