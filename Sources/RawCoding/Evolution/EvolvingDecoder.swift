import Foundation

/// A decoder over another one that fills missing keys from a default and records the keys the
/// model asks for. Everything else is the base decoder's: its options, paths and errors.
struct EvolvingDecoder: Decoder {
    let base: any Decoder
    let place: EvolvingPlace
    let decoding: EvolvingDecoding

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(
            EvolvingKeyedContainer(base: try base.container(keyedBy: type), place: place, decoding: decoding))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        EvolvingUnkeyedContainer(base: try base.unkeyedContainer(), decoding: decoding)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        EvolvingSingleValueContainer(base: try base.singleValueContainer(), decoder: self)
    }
}

/// A class: its copies are a retain, where a generic struct's copies and destroys look up the
/// container's metadata for every key decoded.
final class EvolvingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<Key>
    /// The place of this container's dictionary.
    let place: EvolvingPlace
    let decoding: EvolvingDecoding

    private var ledger: KeyLedger? { place.ledger }

    init(base: KeyedDecodingContainer<Key>, place: EvolvingPlace, decoding: EvolvingDecoding) {
        self.base = base
        self.place = place
        self.decoding = decoding
    }

    var codingPath: [any CodingKey] { base.codingPath }

    var allKeys: [Key] {
        ledger?.knowsAll = true
        return base.allKeys
    }

    func contains(_ key: Key) -> Bool {
        ledger?.known.insert(key.stringValue)
        return base.contains(key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        ledger?.known.insert(key.stringValue)
        return try base.decodeNil(forKey: key)
    }

    /// The default's value for a key the stored dictionary lacks (also for the 128-bit
    /// integers' overloads, declared where they are available).
    @inline(__always)
    func filled<T>(_ type: T.Type, _ key: Key) -> T? {
        ledger?.known.insert(key.stringValue)
        // The stored key first: it is usually there, and a lookup is cheaper than the default's cast.
        guard place.defaults?.children != nil, !base.contains(key),
            let value = place.defaultValue(for: key.stringValue) as? T
        else { return nil }
        decoding.noteFilled(codingPath + [key])
        return value
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try filled(type, key) ?? base.decode(type, forKey: key)
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try filled(type, key) ?? base.decode(type, forKey: key)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try filled(type, key) ?? base.decode(type, forKey: key)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try filled(type, key) ?? base.decode(type, forKey: key)
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try filled(type, key) ?? base.decode(type, forKey: key)
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try filled(type, key) ?? base.decode(type, forKey: key)
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try filled(type, key) ?? base.decode(type, forKey: key)
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try filled(type, key) ?? base.decode(type, forKey: key)
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try filled(type, key) ?? base.decode(type, forKey: key)
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try filled(type, key) ?? base.decode(type, forKey: key)
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try filled(type, key) ?? base.decode(type, forKey: key)
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try filled(type, key) ?? base.decode(type, forKey: key)
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try filled(type, key) ?? base.decode(type, forKey: key)
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try filled(type, key) ?? base.decode(type, forKey: key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if let value = filled(type, key) { return value }
        // A missing key is the base decoder's to report (keyNotFound, with its path).
        guard base.contains(key) else { return try base.decode(type, forKey: key) }
        let base = self.base
        return try decoding.decode(
            type, at: place.child(key.stringValue), plain: { try base.decode(type, forKey: key) },
            decoder: { try base.superDecoder(forKey: key) })
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key), try !base.decodeNil(forKey: key) else { return nil }
        let base = self.base
        return try decoding.decode(
            type, at: place.child(key.stringValue), plain: { try base.decode(type, forKey: key) },
            decoder: { try base.superDecoder(forKey: key) })
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        ledger?.known.insert(key.stringValue)
        return KeyedDecodingContainer(
            EvolvingKeyedContainer<NestedKey>(
                base: try base.nestedContainer(keyedBy: type, forKey: key), place: place.child(key.stringValue),
                decoding: decoding))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        ledger?.known.insert(key.stringValue)
        return EvolvingUnkeyedContainer(base: try base.nestedUnkeyedContainer(forKey: key), decoding: decoding)
    }

    func superDecoder() throws -> any Decoder {
        let key = StoredCodingKey.superKey.stringValue
        ledger?.known.insert(key)
        return EvolvingDecoder(base: try base.superDecoder(), place: place.child(key), decoding: decoding)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ledger?.known.insert(key.stringValue)
        return EvolvingDecoder(
            base: try base.superDecoder(forKey: key), place: place.child(key.stringValue), decoding: decoding)
    }
}

/// Array elements are read as stored; an element type with its own ``StoredDefault`` is filled
/// from it. Nothing inside an array is kept as unknown (elements have no identity to keep
/// them by when the array changes).
struct EvolvingUnkeyedContainer: UnkeyedDecodingContainer {
    var base: any UnkeyedDecodingContainer
    let decoding: EvolvingDecoding

    var codingPath: [any CodingKey] { base.codingPath }
    var count: Int? { base.count }
    var isAtEnd: Bool { base.isAtEnd }
    var currentIndex: Int { base.currentIndex }

    mutating func decodeNil() throws -> Bool { try base.decodeNil() }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try base.decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try base.decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try base.decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try base.decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try base.decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try base.decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try base.decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try base.decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try base.decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try base.decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try base.decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try base.decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try base.decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try base.decode(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard let own = try decoding.ownDefault(of: type) else {
            return try base.decode(type)
        }
        return try T(
            from: EvolvingDecoder(
                base: try base.superDecoder(), place: EvolvingPlace(defaults: own, ledger: nil), decoding: decoding))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        try base.nestedContainer(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try base.nestedUnkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try base.superDecoder() }
}

/// A value that decodes as another one (a wrapper such as `RawCodable`) is filled and recorded
/// at the same place.
struct EvolvingSingleValueContainer: SingleValueDecodingContainer {
    let base: any SingleValueDecodingContainer
    let decoder: EvolvingDecoder

    var codingPath: [any CodingKey] { base.codingPath }

    func decodeNil() -> Bool { base.decodeNil() }
    func decode(_ type: Bool.Type) throws -> Bool { try base.decode(type) }
    func decode(_ type: String.Type) throws -> String { try base.decode(type) }
    func decode(_ type: Double.Type) throws -> Double { try base.decode(type) }
    func decode(_ type: Float.Type) throws -> Float { try base.decode(type) }
    func decode(_ type: Int.Type) throws -> Int { try base.decode(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try base.decode(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try base.decode(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try base.decode(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try base.decode(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try base.decode(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try base.decode(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try base.decode(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try base.decode(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try base.decode(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let base = self.base
        let decoder = self.decoder
        return try decoder.decoding.decode(
            type, at: decoder.place, plain: { try base.decode(type) }, decoder: { decoder.base })
    }
}
