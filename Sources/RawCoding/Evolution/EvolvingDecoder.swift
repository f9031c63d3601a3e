import Foundation

/// One evolving decode: the default to fill from, the keys the model asked for, and the keys
/// it filled. Handed to ``EvolvingRoot`` through a task-local value, since a codec decodes a
/// type, not a type plus arguments.
final class EvolvingDecoding: @unchecked Sendable {
    @TaskLocal static var current: EvolvingDecoding?

    /// The default value taken apart, for the value decoded.
    let defaults: DefaultNode?
    /// The keys the decoded value's types asked for, by place.
    let ledger: KeyLedger
    /// The key paths filled from a default, for the result.
    private(set) var filledKeyPaths: [String] = []
    /// Defaults of nested ``StoredDefault`` types, taken apart once per decode.
    private var ownDefaults: [ObjectIdentifier: DefaultNode] = [:]

    /// - Parameters:
    ///   - defaults: The default value taken apart, for the value decoded.
    ///   - snakeCase: Whether the codec writes the model's keys in snake case.
    init(defaults: DefaultNode?, snakeCase: Bool) {
        self.defaults = defaults
        ledger = KeyLedger(snakeCase: snakeCase)
    }

    /// Types that have no keys of their own, or whose coders treat them specially (a date
    /// strategy, `[String: Value]` keys that a key strategy leaves alone): decoded as they are.
    static func isLeaf(_ type: Any.Type) -> Bool {
        type == String.self || type == Int.self || type == Double.self || type == Bool.self
            || type == Int64.self || type == UInt64.self || type == Int32.self || type == UInt32.self
            || type == Int16.self || type == UInt16.self || type == Int8.self || type == UInt8.self
            || type == UInt.self || type == Float.self
            || type == Date.self || type == Data.self || type == URL.self || type == Decimal.self
            || type == StoredValue.self || type == StoredDictionary.self
            || type is any StringKeyedDecodableDictionary.Type || isWideInteger(type)
    }

    private static func isWideInteger(_ type: Any.Type) -> Bool {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return false }
        return type == Int128.self || type == UInt128.self
    }

    /// The default of a nested type that has its own, taken apart.
    func ownDefault<Value>(of type: Value.Type) throws -> DefaultNode? {
        guard let withDefault = type as? any StoredDefault.Type else { return nil }
        let key = ObjectIdentifier(type)
        if let node = ownDefaults[key] { return node }
        let node = try DefaultNode.capture(withDefault.defaultValue)
        ownDefaults[key] = node
        return node
    }

    func noteFilled(_ codingPath: [any CodingKey]) {
        filledKeyPaths.append(CodingPathFormatter.render(codingPath))
    }

    /// Decodes a value below the current place: as it is when nothing there can be filled or
    /// recorded, otherwise through an ``EvolvingDecoder`` over `decoder()`.
    func decode<Value: Decodable>(
        _ type: Value.Type, defaults: DefaultNode?, ledger: KeyLedger?,
        plain: () throws -> Value, decoder: () throws -> any Decoder
    ) throws -> Value {
        if Self.isLeaf(type) {
            // A scalar has no keys; a `[String: Value]` dictionary or a tree is read whole.
            ledger?.knowsAll = true
            return try plain()
        }
        var defaults = defaults
        if defaults?.children == nil, let own = try ownDefault(of: type) { defaults = own }
        guard defaults?.children != nil || ledger != nil else { return try plain() }
        return try Value(from: EvolvingDecoder(base: try decoder(), defaults: defaults, ledger: ledger, decoding: self))
    }
}

/// The keys a model asked for at one dictionary of the stored tree; the others are unknown to
/// it and are kept on write-back.
final class KeyLedger {
    var known: Set<String> = []
    /// The model read every key (a `[String: Value]` dictionary, an enum case).
    var knowsAll = false
    var children: [String: KeyLedger] = [:]
    /// Whether the codec writes the model's keys in snake case (`JSONCodec(keys: .snakeCase)`).
    let snakeCase: Bool

    init(snakeCase: Bool) {
        self.snakeCase = snakeCase
    }

    func child(_ key: String) -> KeyLedger {
        if let existing = children[key] { return existing }
        let child = KeyLedger(snakeCase: snakeCase)
        children[key] = child
        return child
    }

    /// Whether `storedKey` is a key the model asked for, as the codec writes it: as it is, or in
    /// snake case when the codec converts keys. A key that only looks like a model key in
    /// another convention (`user_name` beside `userName` under default keys) is unknown, so it
    /// is kept on write-back; the codec would not write it.
    func knows(_ storedKey: String) -> KeyLedger?? {
        guard snakeCase else {
            return known.contains(storedKey) ? .some(children[storedKey]) : nil
        }
        let modelKey = KeyConversion.fromSnakeCase(storedKey)
        guard known.contains(modelKey), KeyConversion.toSnakeCase(modelKey) == storedKey else { return nil }
        return .some(children[modelKey])
    }
}

/// The value decoded at the top of an evolving decode.
struct EvolvingRoot<Value: Decodable>: Decodable {
    let value: Value

    init(from decoder: any Decoder) throws {
        guard let decoding = EvolvingDecoding.current else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "the codec decoded \(Value.self) on another task than the one that called it, so the default and the keys it knows were not available"
                ))
        }
        value = try decoding.decode(
            Value.self, defaults: decoding.defaults, ledger: decoding.ledger,
            plain: { try decoder.singleValueContainer().decode(Value.self) }, decoder: { decoder })
    }
}

/// A decoder over another one that fills missing keys from a default and records the keys the
/// model asks for. Everything else is the base decoder's: its options, paths and errors.
struct EvolvingDecoder: Decoder {
    let base: any Decoder
    let defaults: DefaultNode?
    let ledger: KeyLedger?
    let decoding: EvolvingDecoding

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(
            EvolvingKeyedContainer(
                base: try base.container(keyedBy: type), defaults: defaults?.children, ledger: ledger,
                decoding: decoding))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        EvolvingUnkeyedContainer(base: try base.unkeyedContainer(), decoding: decoding)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        EvolvingSingleValueContainer(base: try base.singleValueContainer(), decoder: self)
    }
}

struct EvolvingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<Key>
    let defaults: [String: DefaultNode]?
    let ledger: KeyLedger?
    let decoding: EvolvingDecoding

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

    /// As ``filled(_:_:)``, for the 128-bit integers (declared where they are available).
    func filledWide<T>(_ type: T.Type, _ key: Key) -> T? { filled(type, key) }

    /// The default's value for a key the stored dictionary lacks.
    private func filled<T>(_ type: T.Type, _ key: Key) -> T? {
        ledger?.known.insert(key.stringValue)
        guard let defaults, let value = defaults[key.stringValue]?.value as? T, !base.contains(key) else { return nil }
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
            type, defaults: defaults?[key.stringValue], ledger: ledger?.child(key.stringValue),
            plain: { try base.decode(type, forKey: key) }, decoder: { try base.superDecoder(forKey: key) })
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key), try !base.decodeNil(forKey: key) else { return nil }
        let base = self.base
        return try decoding.decode(
            type, defaults: defaults?[key.stringValue], ledger: ledger?.child(key.stringValue),
            plain: { try base.decode(type, forKey: key) }, decoder: { try base.superDecoder(forKey: key) })
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        ledger?.known.insert(key.stringValue)
        return KeyedDecodingContainer(
            EvolvingKeyedContainer<NestedKey>(
                base: try base.nestedContainer(keyedBy: type, forKey: key),
                defaults: defaults?[key.stringValue]?.children, ledger: ledger?.child(key.stringValue),
                decoding: decoding))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        ledger?.known.insert(key.stringValue)
        return EvolvingUnkeyedContainer(base: try base.nestedUnkeyedContainer(forKey: key), decoding: decoding)
    }

    func superDecoder() throws -> any Decoder {
        let key = StoredCodingKey.superKey.stringValue
        ledger?.known.insert(key)
        return EvolvingDecoder(
            base: try base.superDecoder(), defaults: defaults?[key], ledger: ledger?.child(key), decoding: decoding)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ledger?.known.insert(key.stringValue)
        return EvolvingDecoder(
            base: try base.superDecoder(forKey: key), defaults: defaults?[key.stringValue],
            ledger: ledger?.child(key.stringValue), decoding: decoding)
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
        guard !EvolvingDecoding.isLeaf(type), let own = try decoding.ownDefault(of: type) else {
            return try base.decode(type)
        }
        return try T(
            from: EvolvingDecoder(base: try base.superDecoder(), defaults: own, ledger: nil, decoding: decoding))
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
            type, defaults: decoder.defaults, ledger: decoder.ledger, plain: { try base.decode(type) },
            decoder: { decoder.base })
    }
}
