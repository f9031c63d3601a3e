import Foundation

/// A `StoredValue` encodes as the value it holds, so a model can keep an "any" value (a
/// `[String: StoredValue]` of settings, a payload whose shape varies) and still be `Codable`.
///
/// ```swift
/// struct Preferences: Codable { var version = 2; var extras: [String: StoredValue] = [:] }
/// ```
///
/// Encoding goes through the encoder's containers, so its options apply: `.json` writes a
/// ``StoredValue/date(_:)`` as a number and ``StoredValue/data(_:)`` as Base64 text, and
/// reads them back as those (JSON has no dates or bytes); property lists keep both. JSON
/// numbers have no kinds either: through JSON, a ``StoredValue/decimal(_:)`` that an integer or
/// a `Double` holds exactly, and a whole-number double below 10^15, read back as that integer
/// or double, equal in value. Property lists hold a decimal in `Decimal`'s dictionary form. With
/// RawCoding's own decoders a value is read back exactly as the tree holds it (integers stay
/// integers, a decimal stays exact, keys are never converted by a key strategy). With other
/// decoders (`JSONDecoder`) the kind is found by trying, in order: null, `Bool`, `Int64`,
/// `UInt64`, `Double`, `String`, a dictionary, an array.
extension StoredValue: Codable {
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .dictionary(let dictionary):
            var container = encoder.singleValueContainer()
            try container.encode(dictionary)
        default:
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let value): try container.encode(value)
            case .int(let value): try container.encode(value)
            case .uint(let value): try container.encode(value)
            case .double(let value): try container.encode(value)
            case .decimal(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .data(let value): try container.encode(value)
            case .date(let value): try container.encode(value)
            case .array, .dictionary: break
            }
        }
    }

    public init(from decoder: any Decoder) throws {
        if let node = decoder as? DecodingNode {
            self = node.storedValueAsHeld()
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
            return
        }
        if let value = Self.attempt({ try single.decode(Bool.self) }) {
            self = .bool(value)
        } else if let value = Self.attempt({ try single.decode(Int64.self) }) {
            self = .int(value)
        } else if let value = Self.attempt({ try single.decode(UInt64.self) }) {
            self = .uint(value)
        } else if let value = Self.attempt({ try single.decode(Double.self) }) {
            self = .double(value)
        } else if let value = Self.attempt({ try single.decode(String.self) }) {
            self = .string(value)
        } else if let value = Self.attempt({ try single.decode(StoredDictionary.self) }) {
            self = .dictionary(value)
        } else {
            var container = try decoder.unkeyedContainer()
            var elements: [StoredValue] = []
            while !container.isAtEnd { elements.append(try container.decode(StoredValue.self)) }
            self = .array(elements)
        }
    }

    /// The value `body` decodes, or `nil` when the input is of another kind. A probe's failure
    /// only means "not this kind" (decoders report it differently: `typeMismatch`,
    /// `dataCorrupted`, or an error of their own, as swift-foundation's `JSONDecoder` does for
    /// `1.5` asked as `Int64`); when no kind fits, the last probe, the array, throws its error.
    private static func attempt<Value>(_ body: () throws -> Value) -> Value? {
        do {
            return try body()
        } catch {
            return nil
        }
    }
}

/// A dictionary encodes as a keyed container whose keys are its own, in its order; RawCoding's
/// encoder never converts them with a key strategy (they are data, as the keys of a
/// `[String: Value]` are).
extension StoredDictionary: Codable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StoredCodingKey.self)
        for (key, value) in self { try container.encode(value, forKey: StoredCodingKey(stringValue: key)) }
    }

    public init(from decoder: any Decoder) throws {
        if let node = decoder as? DecodingNode, case .dictionary(let dictionary) = node.storedValueAsHeld() {
            self = dictionary
            return
        }
        let container = try decoder.container(keyedBy: StoredCodingKey.self)
        var entries: [Element] = []
        for key in container.allKeys {
            entries.append((key.stringValue, try container.decode(StoredValue.self, forKey: key)))
        }
        self.init(readEntries: entries)
    }
}

extension StoredDictionary: StringKeyedDictionary {
    func storedDictionary(in node: EncodingNode, step: CodingPathStep?) throws -> StoredValue {
        try node.boxTree(.dictionary(self), step: step)
    }

    func writeEntries<Sink: EncodingSink>(into node: SinkEncodingNode<Sink>) throws {
        try node.writeEntries(of: self)
    }
}

extension DecodingNode {
    /// The node's value as a `StoredValue` holds it: the tree itself, with the codec's null
    /// marker (property lists' `$null`) read back as ``StoredValue/null``.
    func storedValueAsHeld() -> StoredValue {
        guard let marker = context.options.nullMarker else { return value }
        return value.replacingStrings(equalTo: marker, with: .null)
    }
}

extension StoredValue {
    func replacingStrings(equalTo text: String, with replacement: StoredValue) -> StoredValue {
        switch self {
        case .string(let string) where string == text: replacement
        case .array(let elements): .array(elements.map { $0.replacingStrings(equalTo: text, with: replacement) })
        case .dictionary(let dictionary):
            .dictionary(
                StoredDictionary(
                    readEntries: dictionary.entries.map { entry in
                        (entry.key, entry.value.replacingStrings(equalTo: text, with: replacement))
                    }))
        default: self
        }
    }
}
