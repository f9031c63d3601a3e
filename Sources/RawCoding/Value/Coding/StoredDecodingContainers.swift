import Foundation

/// The keyed container of a ``DecodingNode``.
struct StoredKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let node: DecodingNode

    /// The node's dictionary (``DecodingNode/keyed``).
    private var dictionary: StoredDictionary {
        _read { yield node.keyed }
    }

    var codingPath: [any CodingKey] { node.codingPath }
    var allKeys: [Key] {
        if let mark = node.mark { for position in 0..<dictionary.count { mark.ask(position) } }
        return dictionary.compactMap { Key(stringValue: $0.key) }
    }

    func contains(_ key: Key) -> Bool {
        guard let position = dictionary.position(of: key.stringValue) else { return false }
        node.mark?.ask(position)
        return true
    }

    /// The value for `key`, or `nil`; lookups start after the previous hit.
    private func lookup(_ key: Key) -> StoredValue? {
        guard let position = dictionary.position(of: key.stringValue, startingAt: node.keyHint) else { return nil }
        node.keyHint = position + 1
        node.mark?.ask(position)
        return dictionary[position].value
    }

    /// The value for `key`, or `keyNotFound`.
    func entry(_ key: Key) throws -> StoredValue {
        if let value = lookup(key) { return value }
        node.context.marks?.missedKeys += 1
        throw DecodingError.keyNotFound(
            key,
            DecodingError.Context(
                codingPath: node.codingPath,
                debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }

    /// The value for `key` unless it is missing or null.
    private func present(_ key: Key) -> StoredValue? {
        guard let value = lookup(key), !node.context.isNull(value) else { return nil }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { node.context.isNull(try entry(key)) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try node.unboxBool(entry(key), step: .key(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try node.unboxString(entry(key), step: .key(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try node.unboxDouble(entry(key), step: .key(key))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try node.unboxFloat(entry(key), step: .key(key))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try node.unboxInteger(entry(key), as: type, step: .key(key))
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try node.unboxInteger(entry(key), as: type, step: .key(key))
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try node.unboxInteger(entry(key), as: type, step: .key(key))
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try node.unboxInteger(entry(key), as: type, step: .key(key))
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try node.unboxInteger(entry(key), as: type, step: .key(key))
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try node.unboxInteger(entry(key), as: type, step: .key(key))
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try node.unboxInteger(entry(key), as: type, step: .key(key))
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try node.unboxInteger(entry(key), as: type, step: .key(key))
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try node.unboxInteger(entry(key), as: type, step: .key(key))
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try node.unboxInteger(entry(key), as: type, step: .key(key))
    }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        try node.unbox(entry(key), as: type, step: .key(key))
    }

    // One lookup instead of the protocol's contains + decodeNil + decode.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try present(key).map { try node.unboxBool($0, step: .key(key)) }
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try present(key).map { try node.unboxString($0, step: .key(key)) }
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try present(key).map { try node.unboxDouble($0, step: .key(key)) }
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try present(key).map { try node.unboxInteger($0, as: type, step: .key(key)) }
    }

    func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        try present(key).map { try node.unbox($0, as: type, step: .key(key)) }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try node.child(entry(key), step: .key(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try node.child(entry(key), step: .key(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = StoredCodingKey.superKey
        let position = dictionary.position(of: key.stringValue)
        if let position { node.mark?.ask(position) }
        return try node.child(position.map { dictionary[$0].value } ?? .null, step: .key(key))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try node.child(lookup(key) ?? .null, step: .key(key))
    }
}

/// The unkeyed container of a ``DecodingNode``.
struct StoredUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let node: DecodingNode
    let elements: [StoredValue]
    private(set) var currentIndex = 0

    init(node: DecodingNode, elements: [StoredValue]) {
        self.node = node
        self.elements = elements
    }

    var codingPath: [any CodingKey] { node.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The current element; the index moves on only after a successful decode.
    private func current(_ type: Any.Type) throws -> StoredValue {
        guard currentIndex < elements.count else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: node.path(adding: .index(currentIndex)),
                    debugDescription: "Unkeyed container is at end."))
        }
        return elements[currentIndex]
    }

    /// Any integer width, including those other files add.
    mutating func decode<Integer: FixedWidthInteger>(wide type: Integer.Type) throws -> Integer {
        try next { [node] in try node.unboxInteger($0, as: type, step: $1) }
    }

    private mutating func next<Value>(_ decode: (StoredValue, CodingPathStep) throws -> Value) throws -> Value {
        let value = try decode(try current(Value.self), .index(currentIndex))
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard node.context.isNull(try current(Any?.self)) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(node.unboxBool) }
    mutating func decode(_ type: String.Type) throws -> String { try next(node.unboxString) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(node.unboxDouble) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(node.unboxFloat) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decode(wide: type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decode(wide: type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decode(wide: type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decode(wide: type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decode(wide: type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decode(wide: type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(wide: type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decode(wide: type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decode(wide: type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decode(wide: type) }
    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try next { [node] in try node.unbox($0, as: type, step: $1) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        try next { [node] in try node.child($0, step: $1).container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next { [node] in try node.child($0, step: $1).unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next { [node] in try node.child($0, step: $1) }
    }
}
