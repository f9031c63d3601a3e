import Foundation

/// The keyed container of an ``EncodingNode``.
struct StoredKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode

    var codingPath: [any CodingKey] { node.codingPath }

    /// The dictionary key for `key`, after the key strategy.
    func key(_ key: Key) -> String {
        node.context.usesDefaultKeys ? key.stringValue : node.context.dictionaryKey(key, in: node)
    }

    mutating func encodeNil(forKey key: Key) throws { node.set(.null, forKey: self.key(key)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { node.set(.bool(value), forKey: self.key(key)) }
    mutating func encode(_ value: String, forKey key: Key) throws { node.set(.string(value), forKey: self.key(key)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { node.set(.int(Int64(value)), forKey: self.key(key)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { node.set(.int(Int64(value)), forKey: self.key(key)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { node.set(.int(Int64(value)), forKey: self.key(key)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { node.set(.int(Int64(value)), forKey: self.key(key)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { node.set(.int(value), forKey: self.key(key)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        node.set(.integer(UInt64(value)), forKey: self.key(key))
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { node.set(.int(Int64(value)), forKey: self.key(key)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        node.set(.int(Int64(value)), forKey: self.key(key))
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        node.set(.int(Int64(value)), forKey: self.key(key))
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { node.set(.integer(value), forKey: self.key(key)) }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        let stored =
            value.isFinite ? .double(value) : try node.context.double(value, original: value, in: node, step: .key(key))
        node.set(stored, forKey: self.key(key))
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        node.set(try node.context.float(value, in: node, step: .key(key)), forKey: self.key(key))
    }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        node.set(try node.boxNested(value, step: .key(key)), forKey: self.key(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = node.nestedNode(forKey: self.key(key), step: .key(key))
        child.openKeyed()
        return KeyedEncodingContainer(StoredKeyedEncodingContainer<NestedKey>(node: child))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.nestedNode(forKey: self.key(key), step: .key(key))
        child.openUnkeyed()
        return StoredUnkeyedEncodingContainer(node: child)
    }

    mutating func superEncoder() -> any Encoder {
        node.pendingChild(
            slot: .key(node.context.dictionaryKey(StoredCodingKey.superKey, in: node)),
            step: .key(StoredCodingKey.superKey), content: .none)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        node.pendingChild(slot: .key(self.key(key)), step: .key(key), content: .none)
    }
}

/// The unkeyed container of an ``EncodingNode``.
struct StoredUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let node: EncodingNode

    var codingPath: [any CodingKey] { node.codingPath }
    var count: Int { node.elements.count }

    mutating func encodeNil() throws { node.elements.append(.null) }
    mutating func encode(_ value: Bool) throws { node.elements.append(.bool(value)) }
    mutating func encode(_ value: String) throws { node.elements.append(.string(value)) }
    mutating func encode(_ value: Int) throws { node.elements.append(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { node.elements.append(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { node.elements.append(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { node.elements.append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { node.elements.append(.int(value)) }
    mutating func encode(_ value: UInt) throws { node.elements.append(.integer(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { node.elements.append(.int(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { node.elements.append(.int(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { node.elements.append(.int(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { node.elements.append(.integer(value)) }

    mutating func encode(_ value: Double) throws {
        let step = CodingPathStep.index(count)
        node.elements.append(
            value.isFinite ? .double(value) : try node.context.double(value, original: value, in: node, step: step))
    }

    mutating func encode(_ value: Float) throws {
        node.elements.append(try node.context.float(value, in: node, step: .index(count)))
    }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        node.elements.append(try node.boxNested(value, step: .index(count)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let child = node.pendingChild(slot: .index(count), step: .index(count), content: .keyed)
        return KeyedEncodingContainer(StoredKeyedEncodingContainer<NestedKey>(node: child))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        StoredUnkeyedEncodingContainer(
            node: node.pendingChild(slot: .index(count), step: .index(count), content: .unkeyed))
    }

    mutating func superEncoder() -> any Encoder {
        node.pendingChild(slot: .index(count), step: .index(count), content: .none)
    }
}

/// An ``EncodingNode`` is its own single-value container.
extension EncodingNode: SingleValueEncodingContainer {
    /// The node's single value; where something was encoded already, a misuse (where
    /// `JSONEncoder` traps), since one of the two would be lost.
    func store(_ value: StoredValue) {
        switch content {
        case .none: content = .single(value)
        case .single, .keyed, .unkeyed:
            context.misuse(
                "Encoded a single value into an encoder where \(content.described) was already encoded; one would be lost.",
                at: self)
        }
    }

    func encodeNil() throws { store(.null) }
    func encode(_ value: Bool) throws { store(.bool(value)) }
    func encode(_ value: String) throws { store(.string(value)) }
    func encode(_ value: Int) throws { store(.int(Int64(value))) }
    func encode(_ value: Int8) throws { store(.int(Int64(value))) }
    func encode(_ value: Int16) throws { store(.int(Int64(value))) }
    func encode(_ value: Int32) throws { store(.int(Int64(value))) }
    func encode(_ value: Int64) throws { store(.int(value)) }
    func encode(_ value: UInt) throws { store(.integer(UInt64(value))) }
    func encode(_ value: UInt8) throws { store(.int(Int64(value))) }
    func encode(_ value: UInt16) throws { store(.int(Int64(value))) }
    func encode(_ value: UInt32) throws { store(.int(Int64(value))) }
    func encode(_ value: UInt64) throws { store(.integer(value)) }
    func encode(_ value: Double) throws {
        store(value.isFinite ? .double(value) : try context.double(value, original: value, in: self, step: nil))
    }
    func encode(_ value: Float) throws { store(try context.float(value, in: self, step: nil)) }

    func encode<Value: Encodable>(_ value: Value) throws {
        // The value's own encode(to:) writes into a child at the same coding path.
        store(try box(value, step: nil) ?? .dictionary([:]))
    }
}
