import Foundation

/// What every node of one decode from a ``JSONScan`` shares: the scan, over a copy of the
/// bytes that lives as long as any decoder of the call (a type may keep its decoder).
///
/// One decode runs on one thread at a time (decoders are not `Sendable`), so the state its
/// nodes change at each value is exempt from run-time exclusivity checks, as the sinks' is.
final class ScanDecodingContext {
    let scan: JSONScan
    /// The codec, whose options the tree decoder takes where the scan hands a value over.
    let codec: JSONCodec
    /// The tree decoder's context, made when a value is first handed over (a date by its
    /// strategy, a failure): most decodes never need one, and making it costs a copy of the
    /// decoder's options.
    private(set) lazy var tree = DecodingContext(options: codec.decoder)
    /// The nesting limit, as the tree decoder's (its options' `maximumDepth` is the limits').
    @exclusivity(unchecked) var nesting: NestingCheck
    /// How many times a keyed container threw `keyNotFound`: where an evolving decode would
    /// fill from a default, and the only place it fills. (A super decoder over a missing key
    /// fills nothing: a keyed container over it fails either way. The tree decoder's keyed
    /// containers never serve a decode from the scan.)
    @exclusivity(unchecked) var missedKeys = 0
    /// While a stored decode asks whether the model read every key, one mark per token: set on
    /// each key the model asked for (found or counted by `allKeys`) and on each object it opened
    /// with a keyed container. `nil` otherwise, which costs the lookups one test.
    @exclusivity(unchecked) private(set) var marks: UnsafeMutableBufferPointer<Bool>?
    /// Whether keys are converted from snake case (``JSONScan/convertKeysFromSnakeCase()``).
    let convertsKeys: Bool
    /// This thread's ``TypeTraits``, asked at each nested value whether its type is an array
    /// the scan decodes itself: found once per decode, not once per value.
    let traits: TypeTraitsTable
    /// The copy of the bytes, then room for a mark per token: one allocation for both.
    private let storage: UnsafeMutableRawBufferPointer

    /// The decoding context for `bytes`, or `nil` when the scan leaves them to the tree reader.
    /// The scan is made on the caller's bytes, so a document it leaves costs no copy.
    init?(bytes: UnsafeRawBufferPointer, codec: JSONCodec) {
        let limits = codec.limits
        let bytes = bytes.bindMemory(to: UInt8.self)
        let convertsKeys = codec.keys == .snakeCase
        guard let scan = JSONScan.scan(bytes, limits: limits, convertingKeys: convertsKeys) else { return nil }
        self.convertsKeys = convertsKeys
        traits = RecursionGuard.state.traits
        let storage = UnsafeMutableRawBufferPointer.allocate(
            byteCount: bytes.count + scan.tokens.count * MemoryLayout<Bool>.stride, alignment: 1)
        let copy = UnsafeMutableRawBufferPointer(rebasing: storage[..<bytes.count])
        copy.copyMemory(from: UnsafeRawBufferPointer(bytes))
        self.storage = storage
        self.scan = scan.over(UnsafeBufferPointer(copy.bindMemory(to: UInt8.self)))
        self.codec = codec
        nesting = NestingCheck(maximumDepth: limits.effectiveDepth)
    }

    deinit {
        storage.deallocate()
    }

    /// Starts marking what the model asks for, from no marks.
    func startMarking() {
        let room = UnsafeMutableRawBufferPointer(rebasing: storage[scan.bytes.count...])
        marks = room.initializeMemory(as: Bool.self, repeating: false)
    }

    @inline(__always)
    func mark(_ token: Int) {
        if let marks { marks[token] = true }
    }

    /// Whether, in the value at `token`, the model asked for every key of each object it
    /// reached through keys from there and opened each such object: where the evolving
    /// decode's ledger would find no unknown key (``JSONScan/hasUnknownKeys(at:ledger:)``). Only
    /// objects are looked into, since nothing inside an array is kept as unknown. Needs
    /// ``startMarking()`` before the decode.
    func askedForEveryKey(at token: Int) -> Bool {
        let entry = scan.tokens[token]
        guard entry.kind == .object, entry.length > 0 else { return true }
        guard let marks, marks[token] else { return false }
        var position = token + 1
        for _ in 0..<entry.length {
            guard marks[position], askedForEveryKey(at: position + 1) else { return false }
            position = scan.after(position + 1)
        }
        return true
    }
}

/// One `Decoder` of a decode straight from a ``JSONScan``: a token and where it is.
///
/// It decodes exactly as ``DecodingNode`` does on the tree ``JSONParser`` reads from the same
/// bytes. Strings, numbers, Booleans and containers come from the scan; whatever else (dates
/// and bytes by their strategies, decimals, URLs, a `StoredValue`, every failure) is handed to a
/// ``DecodingNode`` at the same coding path and depth, over the value read from the same bytes,
/// so that rules and messages live in one place.
///
/// The coding path step of a value is passed as an autoclosure: the key is boxed into a
/// ``CodingPathStep`` only when a failure or a child decoder needs it, not for every value.
/// Its state, like its context's, is exempt from run-time exclusivity checks.
final class ScanDecodingNode: Decoder, CodingPathNode {
    let context: ScanDecodingContext
    // Where the node is: set again when its parent reuses it (``child(_:step:)``). Its depth
    // stays: only the parent it was made for reuses it.
    @exclusivity(unchecked) private(set) var parent: ScanDecodingNode?
    @exclusivity(unchecked) private(set) var step: CodingPathStep?
    @exclusivity(unchecked) private(set) var token: Int
    let depth: Int
    /// A child whose decode ended with nothing else holding it, detached from this node, for
    /// the next child to reuse: the elements of an array, the objects of one model, one
    /// allocation instead of one each.
    @exclusivity(unchecked) private var spare: ScanDecodingNode?
    /// The key token where the next lookup in this node's object starts, and its entry number.
    @exclusivity(unchecked) var keyHint: (token: Int, entry: Int)
    /// Whether the node decodes a `[String: Value]` dictionary, whose keys are data that key
    /// strategies leave alone (as the tree decoder's ``DecodingNode/keepsKeys``).
    @exclusivity(unchecked) var keepsKeys = false
    /// Whether this node's keys are compared converted from snake case.
    var convertsKeys: Bool { context.convertsKeys && !keepsKeys }

    init(context: ScanDecodingContext, parent: ScanDecodingNode?, step: CodingPathStep?, token: Int) {
        self.context = context
        self.parent = parent
        self.step = step
        self.token = token
        depth = parent.map { $0.depth + 1 } ?? 0
        keyHint = (token + 1, 0)
    }

    var codingPath: [any CodingKey] { pathFromRoot().steps }

    func path(adding step: CodingPathStep?) -> [any CodingKey] {
        guard let step else { return codingPath }
        return codingPath + [step.codingKey]
    }

    var userInfo: [CodingUserInfoKey: Any] { context.tree.userInfo }

    // MARK: Handing over to the tree decoder

    /// The value at `token` as the tree holds it. Reading it again can only fail where reading
    /// the tree would have (a stack nearly used up), and then fails the same way: the reader's
    /// failure at the same position, under the same path.
    func stored(_ token: Int, step: CodingPathStep?) throws -> StoredValue {
        do throws(FormatFailure) {
            return try context.scan.storedValue(at: token)
        } catch {
            var failure = error
            if let step { failure = failure.inside(TreePathStep(step)) }
            var node: ScanDecodingNode? = self
            while let current = node {
                if let step = current.step { failure = failure.inside(TreePathStep(step)) }
                node = current.parent
            }
            throw failure
        }
    }

    /// A tree decoder in this node's place: at its coding path and depth.
    func bridge(_ value: StoredValue) -> DecodingNode {
        DecodingNode(
            context: context.tree, parent: nil, step: nil, value: value, rootPath: codingPath, rootDepth: depth)
    }

    @inline(never)
    func unboxedByTree<Value>(
        _ token: Int, step: CodingPathStep?, _ unbox: (DecodingNode, StoredValue) throws -> Value
    ) throws -> Value {
        let value = try stored(token, step: step)
        return try unbox(bridge(value), value)
    }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard context.scan.tokens[token].kind == .object else {
            return try unboxedByTree(token, step: nil) { node, _ in try node.container(keyedBy: type) }
        }
        context.mark(token)
        return KeyedDecodingContainer(ScanKeyedDecodingContainer<Key>(node: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard context.scan.tokens[token].kind == .array else {
            return try unboxedByTree(token, step: nil) { node, _ in try node.unkeyedContainer() }
        }
        return ScanUnkeyedDecodingContainer(node: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// A decoder for the value at `token`, within the nesting limits.
    func child(_ token: Int, step: @autoclosure () -> CodingPathStep?) throws -> ScanDecodingNode {
        try context.nesting.check(below: depth) { path(adding: step()) }
        guard let spare else { return ScanDecodingNode(context: context, parent: self, step: step(), token: token) }
        self.spare = nil
        spare.parent = self
        spare.step = step()
        spare.token = token
        spare.keyHint = (token + 1, 0)
        spare.keepsKeys = false
        return spare
    }

    /// Keeps `child`, whose decode has ended, for the next child, unless something else (a
    /// model that kept its decoder or a container) still holds it. Detached from this node,
    /// so a spare never holds its parent.
    @inline(__always)
    func recycle(_ child: inout ScanDecodingNode) {
        guard isKnownUniquelyReferenced(&child) else { return }
        child.parent = nil
        spare = child
    }

    // MARK: Values

    @inline(__always)
    func isNull(_ token: Int) -> Bool { context.scan.tokens[token].kind == .null }

    func unboxBool(_ token: Int, step: @autoclosure () -> CodingPathStep?) throws -> Bool {
        switch context.scan.tokens[token].kind {
        case .true: return true
        case .false: return false
        default:
            return try unboxedByTree(token, step: step()) { node, value in try node.unboxBool(value, step: step()) }
        }
    }

    func unboxString(_ token: Int, step: @autoclosure () -> CodingPathStep?) throws -> String {
        if let string = context.scan.string(at: token) { return string }
        return try unboxedByTree(token, step: step()) { node, value in try node.unboxString(value, step: step()) }
    }

    /// The `Double` of a number the scan converted; `nil` for anything else.
    @inline(__always)
    func fastDouble(_ token: Int) -> Double? {
        let entry = context.scan.tokens[token]
        switch entry.kind {
        case .double: return Double(bitPattern: entry.payload)
        case .integer: return Double(Int64(bitPattern: entry.payload))
        default: return nil
        }
    }

    func unboxDouble(_ token: Int, step: @autoclosure () -> CodingPathStep?) throws -> Double {
        if let double = fastDouble(token) { return double }
        return try unboxedByTree(token, step: step()) { node, value in try node.unboxDouble(value, step: step()) }
    }

    func unboxFloat(_ token: Int, step: @autoclosure () -> CodingPathStep?) throws -> Float {
        if let double = fastDouble(token), DecodingNode.fitsFloat(double) { return Float(double) }
        return try unboxedByTree(token, step: step()) { node, value in try node.unboxFloat(value, step: step()) }
    }

    func unboxInteger<Integer: FixedWidthInteger>(
        _ token: Int, as type: Integer.Type, step: @autoclosure () -> CodingPathStep?
    ) throws -> Integer {
        let entry = context.scan.tokens[token]
        if entry.kind == .integer, let value = Integer(exactly: Int64(bitPattern: entry.payload)) { return value }
        return try unboxedByTree(token, step: step()) { node, value in
            try node.unboxInteger(value, as: type, step: step())
        }
    }

    func unbox<Value: Decodable>(_ token: Int, as type: Value.Type, step: @autoclosure () -> CodingPathStep?) throws
        -> Value
    {
        if Value.self == String.self { return unsafeBitCast(try unboxString(token, step: step()), to: Value.self) }
        if Value.self == Int.self {
            return unsafeBitCast(try unboxInteger(token, as: Int.self, step: step()), to: Value.self)
        }
        if Value.self == Double.self { return unsafeBitCast(try unboxDouble(token, step: step()), to: Value.self) }
        if Value.self == Bool.self { return unsafeBitCast(try unboxBool(token, step: step()), to: Value.self) }
        if Value.self == Int64.self {
            return unsafeBitCast(try unboxInteger(token, as: Int64.self, step: step()), to: Value.self)
        }
        if Value.self == UInt64.self {
            return unsafeBitCast(try unboxInteger(token, as: UInt64.self, step: step()), to: Value.self)
        }
        if Value.self == UInt.self {
            return unsafeBitCast(try unboxInteger(token, as: UInt.self, step: step()), to: Value.self)
        }
        if Value.self == Int32.self {
            return unsafeBitCast(try unboxInteger(token, as: Int32.self, step: step()), to: Value.self)
        }
        if Value.self == UInt32.self {
            return unsafeBitCast(try unboxInteger(token, as: UInt32.self, step: step()), to: Value.self)
        }
        if Value.self == Int16.self {
            return unsafeBitCast(try unboxInteger(token, as: Int16.self, step: step()), to: Value.self)
        }
        if Value.self == UInt16.self {
            return unsafeBitCast(try unboxInteger(token, as: UInt16.self, step: step()), to: Value.self)
        }
        if Value.self == Int8.self {
            return unsafeBitCast(try unboxInteger(token, as: Int8.self, step: step()), to: Value.self)
        }
        if Value.self == UInt8.self {
            return unsafeBitCast(try unboxInteger(token, as: UInt8.self, step: step()), to: Value.self)
        }
        if Value.self == Float.self { return unsafeBitCast(try unboxFloat(token, step: step()), to: Value.self) }
        if Value.self == [Double].self {
            return unsafeBitCast(
                try unboxArray(token, step: step()) { try $0.unboxDouble($1, step: .index($2)) }, to: Value.self)
        }
        if Value.self == [String].self {
            return unsafeBitCast(
                try unboxArray(token, step: step()) { try $0.unboxString($1, step: .index($2)) }, to: Value.self)
        }
        if Value.self == [Int].self {
            return unsafeBitCast(
                try unboxArray(token, step: step()) { try $0.unboxInteger($1, as: Int.self, step: .index($2)) },
                to: Value.self)
        }
        if Value.self == [Float].self {
            return unsafeBitCast(
                try unboxArray(token, step: step()) { try $0.unboxFloat($1, step: .index($2)) }, to: Value.self)
        }
        if Value.self == [Bool].self {
            return unsafeBitCast(
                try unboxArray(token, step: step()) { try $0.unboxBool($1, step: .index($2)) }, to: Value.self)
        }
        if Value.self == Date.self || Value.self == Data.self || Value.self == URL.self || Value.self == Decimal.self
            || Value.self == StoredValue.self || Value.self == StoredDictionary.self
        {
            return try unboxByStrategy(token, as: type, step: step())
        }
        if let array = context.traits.of(Value.self).scanArray {
            return try array.decode(self, token, as: type, step: step())
        }
        var node = try child(token, step: step())
        if context.convertsKeys, Value.self is any StringKeyedDecodableDictionary.Type {
            // JSONDecoder converts the keys of types, not the keys of [String: Value] data.
            node.keepsKeys = true
        }
        // Recycled after the value is made in the caller's place (a value held here first
        // would be copied through its metadata).
        defer { recycle(&node) }
        return try type.init(from: node)
    }
}

extension ScanDecodingNode {
    /// Dates and bytes by their strategies, decimals, URLs and stored values: a date or bytes
    /// its strategy reads from the scan itself, the rest as the tree decoder reads them (their
    /// rules, kinds of number and the tree as held are its). Out of line, so the frame of
    /// ``unbox(_:as:step:)``, which every nesting level takes, stays small: with these paths
    /// inline, a 128 KiB thread under AddressSanitizer overflowed (`StackHeadroomTests`).
    @inline(never)
    private func unboxByStrategy<Value: Decodable>(
        _ token: Int, as type: Value.Type, step: @autoclosure () -> CodingPathStep?
    ) throws -> Value {
        if Value.self == Date.self, let date = try dateFromScan(token, step: step()) {
            return unsafeBitCast(date, to: Value.self)
        }
        if Value.self == Data.self, let data = try dataFromScan(token, step: step()) {
            return unsafeBitCast(data, to: Value.self)
        }
        return try unboxedByTree(token, step: step()) { node, value in try node.unbox(value, as: type, step: step()) }
    }

    /// A date its strategy reads from the scan itself (a number, ISO 8601 text, a custom
    /// closure); `nil` where the tree decoder is to read it. A `Date?`, not a `Value?`, which
    /// is looked up at run time.
    private func dateFromScan(_ token: Int, step: @autoclosure () -> CodingPathStep?) throws -> Date? {
        switch context.codec.dates {
        case .secondsSinceReferenceDate:
            return fastDouble(token).map(Date.init(timeIntervalSinceReferenceDate:))
        case .iso8601:
            // Text it does not read is the tree decoder's to report.
            return context.scan.plainStringBytes(at: token).flatMap(DateText.dateFromISO8601(bytes:))
        case .custom(let custom):
            // The closure reads from this scan's decoder at the date's place, as the tree
            // decoder hands it its own.
            return try custom.decode(child(token, step: step()))
        case .secondsSince1970, .millisecondsSince1970, .formatted:
            return nil
        }
    }

    /// Bytes a custom strategy reads from the scan's decoder at their place; `nil` for the
    /// other strategies, the tree decoder's.
    private func dataFromScan(_ token: Int, step: @autoclosure () -> CodingPathStep?) throws -> Data? {
        guard case .custom(let custom) = context.codec.data else { return nil }
        return try custom.decode(child(token, step: step()))
    }
}

/// Arrays of any decodable element, which ``ScanDecodingNode/unbox(_:as:step:)`` decodes as
/// `Array.init(from:)` does (a child decoder, each element at its index, in order) without
/// its unkeyed container in an existential and its array grown one element at a time.
protocol ScanDecodableArray {
    /// The array at `token` as `Result`, which is `Self`.
    static func decode<Result>(
        _ node: ScanDecodingNode, _ token: Int, as type: Result.Type, step: @autoclosure () -> CodingPathStep?
    ) throws -> Result
}

extension Array: ScanDecodableArray where Element: Decodable {
    @inline(never)
    static func decode<Result>(
        _ node: ScanDecodingNode, _ token: Int, as type: Result.Type, step: @autoclosure () -> CodingPathStep?
    ) throws -> Result {
        let array = try node.unboxArray(token, step: step()) { try $0.unbox($1, as: Element.self, step: .index($2)) }
        return unsafeBitCast(array, to: Result.self)
    }
}

extension ScanDecodingNode {
    /// An array of a primitive, as `Array.init(from:)` decodes it (a child decoder, its unkeyed
    /// container, each element at its index), without the generic calls for each element:
    /// `element` decodes the token at its index with the array's decoder.
    @inline(__always)
    func unboxArray<Element>(
        _ token: Int, step: @autoclosure () -> CodingPathStep?,
        _ element: (ScanDecodingNode, Int, Int) throws -> Element
    ) throws -> [Element] {
        var node = try child(token, step: step())
        let entry = context.scan.tokens[token]
        guard entry.kind == .array else {
            _ = try node.unkeyedContainer()
            return []
        }
        var elements: [Element] = []
        elements.reserveCapacity(entry.length)
        var position = token + 1
        for index in 0..<entry.length {
            elements.append(try element(node, position, index))
            position = context.scan.after(position)
        }
        recycle(&node)
        return elements
    }
}

/// A ``ScanDecodingNode`` is its own single-value container.
extension ScanDecodingNode: SingleValueDecodingContainer {
    func decodeNil() -> Bool { isNull(token) }
    func decode(_ type: Bool.Type) throws -> Bool { try unboxBool(token, step: nil) }
    func decode(_ type: String.Type) throws -> String { try unboxString(token, step: nil) }
    func decode(_ type: Double.Type) throws -> Double { try unboxDouble(token, step: nil) }
    func decode(_ type: Float.Type) throws -> Float { try unboxFloat(token, step: nil) }
    func decode(_ type: Int.Type) throws -> Int { try unboxInteger(token, as: type, step: nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try unboxInteger(token, as: type, step: nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try unboxInteger(token, as: type, step: nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try unboxInteger(token, as: type, step: nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try unboxInteger(token, as: type, step: nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try unboxInteger(token, as: type, step: nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try unboxInteger(token, as: type, step: nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try unboxInteger(token, as: type, step: nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try unboxInteger(token, as: type, step: nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try unboxInteger(token, as: type, step: nil) }
    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try unbox(token, as: type, step: nil) }
}

/// The keyed container of a ``ScanDecodingNode`` over an object.
struct ScanKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let node: ScanDecodingNode
    let count: Int

    init(node: ScanDecodingNode) {
        self.node = node
        count = node.context.scan.tokens[node.token].length
    }

    var codingPath: [any CodingKey] { node.codingPath }

    var allKeys: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(count)
        var position = node.token + 1
        let converts = node.convertsKeys
        for _ in 0..<count {
            let name =
                converts
                ? node.context.scan.convertedKeyString(at: position) : node.context.scan.keyString(at: position)
            if let key = Key(stringValue: name) { keys.append(key) }
            node.context.mark(position)
            position = node.context.scan.after(position + 1)
        }
        return keys
    }

    /// The value token for `key`, or `nil`; lookups start after the previous hit, as decoders
    /// read a type's properties in the order it wrote them.
    @inline(__always)
    private func lookup(_ key: Key) -> Int? { find(key.stringValue, from: node.keyHint) }

    /// The value token for the key `name`, searching every entry from `hint` (and moving the
    /// node's hint past a hit unless `moving` is false), or from the first entry without moving
    /// it. The scan takes no object with a repeated key, so where a search starts does not
    /// change what it finds.
    private func find(_ name: String, from hint: (token: Int, entry: Int)?, moving: Bool = true) -> Int? {
        guard count > 0 else { return nil }
        if node.convertsKeys { return findConverted(name, from: hint, moving: moving) }
        return Self.withBytes(of: name) { find(bytes: $0, from: hint, moving: moving) }
    }

    /// `body` over the UTF-8 of a key's name. A coding key's name is a literal or a small
    /// string, whose bytes are at hand without copying the string first.
    @inline(__always)
    private static func withBytes(of name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Int?) -> Int? {
        if let found = name.utf8.withContiguousStorageIfAvailable(body) { return found }
        var name = name
        return name.withUTF8(body)
    }

    @inline(__always)
    private func find(bytes: UnsafeBufferPointer<UInt8>, from hint: (token: Int, entry: Int)?, moving: Bool) -> Int? {
        let context = node.context
        var (position, entry) = hint ?? (node.token + 1, 0)
        for _ in 0..<count {
            if entry == count { (position, entry) = (node.token + 1, 0) }
            let next = context.scan.after(position + 1)
            if context.scan.key(at: position, equals: bytes) {
                context.mark(position)
                if hint != nil, moving { node.keyHint = (next, entry + 1) }
                return position + 1
            }
            (position, entry) = (next, entry + 1)
        }
        return nil
    }

    /// ``find(_:from:moving:)`` for keys converted from snake case: each key token compared by
    /// its converted name's hash first. (A loop of its own: sharing one with a test per key
    /// cost the plain search about a tenth of its instructions.)
    @inline(never)
    private func findConverted(_ name: String, from hint: (token: Int, entry: Int)?, moving: Bool) -> Int? {
        Self.withBytes(of: name) { bytes -> Int? in
            let context = node.context
            let hash = JSONScan.convertedKeyHash(of: bytes)
            var (position, entry) = hint ?? (node.token + 1, 0)
            for _ in 0..<count {
                if entry == count { (position, entry) = (node.token + 1, 0) }
                let next = context.scan.after(position + 1)
                if context.scan.convertedKey(at: position, equals: bytes, hash: hash) {
                    context.mark(position)
                    if hint != nil, moving { node.keyHint = (next, entry + 1) }
                    return position + 1
                }
                (position, entry) = (next, entry + 1)
            }
            return nil
        }
    }

    /// Searched from the hint without moving it: a decoder asks `contains` just before it
    /// decodes the same key (`decodeIfPresent`, filling from a default).
    func contains(_ key: Key) -> Bool { find(key.stringValue, from: node.keyHint, moving: false) != nil }

    /// The value token for `key`, or `keyNotFound`.
    func entry(_ key: Key) throws -> Int {
        if let token = lookup(key) { return token }
        node.context.missedKeys += 1
        throw DecodingError.keyNotFound(
            key,
            DecodingError.Context(
                codingPath: node.codingPath,
                debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }

    /// The value token for `key` unless it is missing or null.
    private func present(_ key: Key) -> Int? {
        guard let token = lookup(key), !node.isNull(token) else { return nil }
        return token
    }

    func decodeNil(forKey key: Key) throws -> Bool { node.isNull(try entry(key)) }
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
        try superDecoder(at: StoredCodingKey.superKey, token: find(StoredCodingKey.superKey.stringValue, from: nil))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(at: key, token: lookup(key))
    }

    /// A decoder for the value at `token`, or for null when there is none, at `key`.
    private func superDecoder(at key: any CodingKey, token: Int?) throws -> any Decoder {
        if let token { return try node.child(token, step: .key(key)) }
        return try node.bridge(.null).child(.null, step: .key(key))
    }
}

/// The unkeyed container of a ``ScanDecodingNode`` over an array.
struct ScanUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let node: ScanDecodingNode
    let count: Int?
    private(set) var currentIndex = 0
    /// The token of the element at `currentIndex`.
    private var position: Int

    init(node: ScanDecodingNode) {
        self.node = node
        count = node.context.scan.tokens[node.token].length
        position = node.token + 1
    }

    var codingPath: [any CodingKey] { node.codingPath }
    var isAtEnd: Bool { currentIndex >= count.unsafelyUnwrapped }

    /// The current element's token; the index moves on only after a successful decode.
    @inline(__always)
    private func current(_ type: Any.Type) throws -> Int {
        guard currentIndex < count.unsafelyUnwrapped else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: node.path(adding: .index(currentIndex)),
                    debugDescription: "Unkeyed container is at end."))
        }
        return position
    }

    @inline(__always)
    private mutating func next<Value>(_ decode: (Int, CodingPathStep) throws -> Value) throws -> Value {
        let value = try decode(try current(Value.self), .index(currentIndex))
        position = node.context.scan.after(position)
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard node.isNull(try current(Any?.self)) else { return false }
        position += 1
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next { [node] in try node.unboxBool($0, step: $1) } }
    mutating func decode(_ type: String.Type) throws -> String {
        try next { [node] in try node.unboxString($0, step: $1) }
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        try next { [node] in try node.unboxDouble($0, step: $1) }
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        try next { [node] in try node.unboxFloat($0, step: $1) }
    }
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

    /// Any integer width, including those other files add.
    mutating func decode<Integer: FixedWidthInteger>(wide type: Integer.Type) throws -> Integer {
        try next { [node] in try node.unboxInteger($0, as: type, step: $1) }
    }

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

extension TreePathStep {
    init(_ step: CodingPathStep) {
        switch step {
        case .key(let key): self = .key(key.stringValue)
        case .index(let index): self = .index(index)
        }
    }
}
