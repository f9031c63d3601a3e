import Foundation

/// One evolving decode: the default to fill from, the keys the model asked for, and the keys
/// it filled. Handed to ``EvolvingRoot`` through a task-local value, since a codec decodes a
/// type, not a type plus arguments.
final class EvolvingDecoding: @unchecked Sendable {
    @TaskLocal static var current: EvolvingDecoding?

    /// The default value taken apart, for the value decoded.
    let defaults: DefaultNode?
    /// The type the caller asked for: a subclass of the static type decodes as itself.
    let rootType: any Decodable.Type
    /// The keys the decoded value's types asked for, by place.
    let ledger: KeyLedger
    /// The top of the value decoded.
    var root: EvolvingPlace { EvolvingPlace(defaults: defaults, ledger: ledger) }
    /// The key paths filled from a default, for the result.
    private(set) var filledKeyPaths: [String] = []
    /// What each type decoded so far is to this decode, so each type is looked at once.
    private var kinds: [ObjectIdentifier: Kind] = [:]

    /// How a type decodes in an evolving decode.
    enum Kind {
        /// Decoded as it is (see ``EvolutionLeaf``).
        case leaf
        /// A ``StoredDefault`` type: its default, taken apart.
        case withDefault(DefaultNode)
        /// Any other type.
        case plain
    }

    /// - Parameters:
    ///   - defaults: The default value taken apart, for the value decoded.
    ///   - snakeCase: Whether the codec writes the model's keys in snake case.
    ///   - rootType: The type the caller asked for (its dynamic type).
    init(defaults: DefaultNode?, snakeCase: Bool, rootType: any Decodable.Type) {
        self.defaults = defaults
        self.rootType = rootType
        ledger = KeyLedger(snakeCase: snakeCase)
    }

    /// Types decoded as they are (see ``EvolutionLeaf``).
    static func isLeaf(_ type: Any.Type) -> Bool { TypeTraits.of(type).isEvolutionLeaf }

    /// What `type` is to this decode, found once per type.
    func kind<Value>(of type: Value.Type) throws -> Kind {
        let key = ObjectIdentifier(type)
        if let kind = kinds[key] { return kind }
        let kind: Kind
        if Self.isLeaf(type) {
            kind = .leaf
        } else if TypeTraits.of(type).isStoredDefault, let withDefault = type as? any StoredDefault.Type {
            kind = .withDefault(try DefaultNode.capture(withDefault.defaultValue))
        } else {
            kind = .plain
        }
        kinds[key] = kind
        return kind
    }

    /// The default of a nested type that has its own, taken apart; `nil` for a leaf.
    func ownDefault<Value>(of type: Value.Type) throws -> DefaultNode? {
        if case .withDefault(let node) = try kind(of: type) { return node }
        return nil
    }

    func noteFilled(_ codingPath: [any CodingKey]) {
        filledKeyPaths.append(CodingPathFormatter.render(codingPath))
    }

    /// Decodes a value at `place`: as it is when nothing there can be filled or recorded,
    /// otherwise through an ``EvolvingDecoder`` over `decoder()`.
    func decode<Value: Decodable>(
        _ type: Value.Type, at place: EvolvingPlace, plain: () throws -> Value, decoder: () throws -> any Decoder
    ) throws -> Value {
        let kind = try kind(of: type)
        if case .leaf = kind {
            // A scalar has no keys; a `[String: Value]` dictionary or a tree is read whole.
            place.ledger?.knowsAll = true
            return try plain()
        }
        var place = place
        if place.defaults?.children == nil, case .withDefault(let own) = kind { place.defaults = own }
        guard place.defaults?.children != nil || place.ledger != nil else { return try plain() }
        return try type.init(from: EvolvingDecoder(base: try decoder(), place: place, decoding: self))
    }
}

/// One place in the value decoded: the default's value there and the ledger of the keys the
/// model asks for there, either absent where nothing is filled or recorded.
struct EvolvingPlace {
    var defaults: DefaultNode?
    var ledger: KeyLedger?

    /// The place at `key` of this one's dictionary.
    func child(_ key: String) -> EvolvingPlace {
        EvolvingPlace(defaults: defaults?.children?[key], ledger: ledger?.child(key))
    }

    /// The default's value for `key`, if the default has one.
    func defaultValue(for key: String) -> Any? { defaults?.children?[key]?.value }
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
        // The caller's metatype, which may be a subclass of `Value`, as the codecs decode it.
        let type = decoding.rootType as? Value.Type ?? Value.self
        value = try decoding.decode(
            type, at: decoding.root, plain: { try decoder.singleValueContainer().decode(type) }, decoder: { decoder })
    }
}
