import Foundation

/// A default value taken apart by key: the Swift value at one place of it and, when that value
/// encodes into a keyed container, the values under each key. Default filling returns these
/// values themselves, so a default never goes through a format or a codec's options.
final class DefaultNode {
    /// The value at this place; `nil` for a place encoded through a nested container by hand.
    let value: Any?
    /// The values by key, when this value encodes into a keyed container.
    var children: [String: DefaultNode]?

    init(value: Any?) {
        self.value = value
    }

    /// Takes `value` apart.
    /// - Throws: What `value`'s `encode(to:)` throws.
    static func capture<Value: Encodable>(_ value: Value) throws -> DefaultNode {
        let node = DefaultNode(value: value)
        try node.capture(value, codingPath: [])
        return node
    }

    /// Records what `value` encodes into this node, unless it is a value with no keys of its
    /// own (a scalar, bytes, a date, a tree).
    func capture<Value: Encodable>(_ value: Value, codingPath: [any CodingKey]) throws {
        guard !EvolvingDecoding.isLeaf(Value.self) else { return }
        try value.encode(to: DefaultCaptureEncoder(node: self, codingPath: codingPath))
    }
}

/// The encoder that takes a default value apart into ``DefaultNode``s. Arrays are not taken
/// apart: their elements are data, never filled.
struct DefaultCaptureEncoder: Encoder {
    let node: DefaultNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.children == nil { node.children = [:] }
        return KeyedEncodingContainer(DefaultCaptureKeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        DefaultCaptureUnkeyedContainer(codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        DefaultCaptureSingleValueContainer(node: node, codingPath: codingPath)
    }
}

struct DefaultCaptureKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: DefaultNode
    let codingPath: [any CodingKey]

    private func store(_ child: DefaultNode, _ key: Key) {
        node.children?[key.stringValue] = child
    }

    mutating func encodeNil(forKey key: Key) {}
    mutating func encode(_ value: Bool, forKey key: Key) { store(DefaultNode(value: value), key) }
    mutating func encode(_ value: String, forKey key: Key) { store(DefaultNode(value: value), key) }
    mutating func encode(_ value: Double, forKey key: Key) { store(DefaultNode(value: value), key) }
    mutating func encode(_ value: Float, forKey key: Key) { store(DefaultNode(value: value), key) }
    mutating func encode(_ value: Int, forKey key: Key) { store(DefaultNode(value: value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) { store(DefaultNode(value: value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) { store(DefaultNode(value: value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) { store(DefaultNode(value: value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) { store(DefaultNode(value: value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) { store(DefaultNode(value: value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) { store(DefaultNode(value: value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) { store(DefaultNode(value: value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) { store(DefaultNode(value: value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) { store(DefaultNode(value: value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let child = DefaultNode(value: value)
        try child.capture(value, codingPath: codingPath + [key])
        store(child, key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = DefaultNode(value: nil)
        store(child, key)
        return DefaultCaptureEncoder(node: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        DefaultCaptureUnkeyedContainer(codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let key = StoredCodingKey.superKey
        let child = DefaultNode(value: nil)
        node.children?[key.stringValue] = child
        return DefaultCaptureEncoder(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = DefaultNode(value: nil)
        store(child, key)
        return DefaultCaptureEncoder(node: child, codingPath: codingPath + [key])
    }
}

/// Array elements are data: nothing in them is recorded.
struct DefaultCaptureUnkeyedContainer: UnkeyedEncodingContainer {
    let codingPath: [any CodingKey]
    var count = 0

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    mutating func encodeNil() { count += 1 }
    mutating func encode<T: Encodable>(_ value: T) { count += 1 }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        count += 1
        return DefaultCaptureEncoder(node: DefaultNode(value: nil), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        count += 1
        return DefaultCaptureUnkeyedContainer(codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        count += 1
        return DefaultCaptureEncoder(node: DefaultNode(value: nil), codingPath: codingPath)
    }
}

/// A value that encodes as another one (a wrapper such as `RawCodable`) lends it its keys.
struct DefaultCaptureSingleValueContainer: SingleValueEncodingContainer {
    let node: DefaultNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() {}
    mutating func encode(_ value: Bool) {}
    mutating func encode(_ value: String) {}
    mutating func encode(_ value: Double) {}
    mutating func encode(_ value: Float) {}
    mutating func encode(_ value: Int) {}
    mutating func encode(_ value: Int8) {}
    mutating func encode(_ value: Int16) {}
    mutating func encode(_ value: Int32) {}
    mutating func encode(_ value: Int64) {}
    mutating func encode(_ value: UInt) {}
    mutating func encode(_ value: UInt8) {}
    mutating func encode(_ value: UInt16) {}
    mutating func encode(_ value: UInt32) {}
    mutating func encode(_ value: UInt64) {}

    mutating func encode<T: Encodable>(_ value: T) throws {
        try node.capture(value, codingPath: codingPath)
    }
}
