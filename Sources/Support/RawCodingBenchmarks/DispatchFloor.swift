import Foundation

/// The Codable dispatch floor: an `Encoder` that takes every call and keeps nothing, so timing
/// it measures the model's own `encode(to:)` calls and the containers they go through, with
/// no work behind them. An encoder cannot be faster than this.
final class DispatchFloorEncoder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// Every value handed over, so the calls cannot be optimised away.
    var count = 0

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(encoder: self) }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    func encode<Value: Encodable>(_ value: Value) throws -> Int {
        count = 0
        try value.encode(to: self)
        return count
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: DispatchFloorEncoder
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) throws { encoder.count += 1 }
        mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.count += 1 }
        mutating func encode(_ value: String, forKey key: Key) throws { encoder.count += 1 }
        mutating func encode(_ value: Double, forKey key: Key) throws { encoder.count += 1 }
        mutating func encode(_ value: Int, forKey key: Key) throws { encoder.count += 1 }
        mutating func encode(_ value: Int8, forKey key: Key) throws { encoder.count += 1 }
        mutating func encode(_ value: Int16, forKey key: Key) throws { encoder.count += 1 }
        mutating func encode(_ value: Int32, forKey key: Key) throws { encoder.count += 1 }
        mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.count += 1 }
        mutating func encode(_ value: UInt, forKey key: Key) throws { encoder.count += 1 }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { encoder.count += 1 }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { encoder.count += 1 }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { encoder.count += 1 }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { encoder.count += 1 }
        mutating func encode(_ value: Float, forKey key: Key) throws { encoder.count += 1 }
        mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
            encoder.count += 1
            try value.encode(to: encoder)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            encoder.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            encoder.unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let encoder: DispatchFloorEncoder
        var codingPath: [any CodingKey] { [] }
        var count = 0
        mutating func encodeNil() throws { count += 1 }
        mutating func encode(_ value: Bool) throws { count += 1 }
        mutating func encode(_ value: String) throws { count += 1 }
        mutating func encode(_ value: Double) throws { count += 1 }
        mutating func encode(_ value: Int) throws { count += 1 }
        mutating func encode(_ value: Int8) throws { count += 1 }
        mutating func encode(_ value: Int16) throws { count += 1 }
        mutating func encode(_ value: Int32) throws { count += 1 }
        mutating func encode(_ value: Int64) throws { count += 1 }
        mutating func encode(_ value: UInt) throws { count += 1 }
        mutating func encode(_ value: UInt8) throws { count += 1 }
        mutating func encode(_ value: UInt16) throws { count += 1 }
        mutating func encode(_ value: UInt32) throws { count += 1 }
        mutating func encode(_ value: UInt64) throws { count += 1 }
        mutating func encode(_ value: Float) throws { count += 1 }
        mutating func encode<Value: Encodable>(_ value: Value) throws {
            count += 1
            encoder.count += 1
            try value.encode(to: encoder)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            encoder.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { encoder.unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { encoder }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: DispatchFloorEncoder
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil() throws { encoder.count += 1 }
        mutating func encode(_ value: Bool) throws { encoder.count += 1 }
        mutating func encode(_ value: String) throws { encoder.count += 1 }
        mutating func encode(_ value: Double) throws { encoder.count += 1 }
        mutating func encode(_ value: Int) throws { encoder.count += 1 }
        mutating func encode(_ value: Int8) throws { encoder.count += 1 }
        mutating func encode(_ value: Int16) throws { encoder.count += 1 }
        mutating func encode(_ value: Int32) throws { encoder.count += 1 }
        mutating func encode(_ value: Int64) throws { encoder.count += 1 }
        mutating func encode(_ value: UInt) throws { encoder.count += 1 }
        mutating func encode(_ value: UInt8) throws { encoder.count += 1 }
        mutating func encode(_ value: UInt16) throws { encoder.count += 1 }
        mutating func encode(_ value: UInt32) throws { encoder.count += 1 }
        mutating func encode(_ value: UInt64) throws { encoder.count += 1 }
        mutating func encode(_ value: Float) throws { encoder.count += 1 }
        mutating func encode<Value: Encodable>(_ value: Value) throws {
            encoder.count += 1
            try value.encode(to: encoder)
        }
    }
}
