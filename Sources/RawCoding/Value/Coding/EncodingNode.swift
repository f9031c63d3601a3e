import Foundation

/// One `Encoder` of a `StoredValueEncoder.encode` call: what one value encodes into.
///
/// A node holds a single value, or the entries of a keyed container, or the elements of an
/// unkeyed one. Containers made with `nestedContainer` or `superEncoder` are nodes of their
/// own, registered as pending with a placeholder at their position, and filled in when the
/// value that owns them finishes.
final class EncodingNode: Encoder, CodingPathNode {
    enum Content {
        case none
        case single(StoredValue)
        case keyed
        case unkeyed

        /// What a message says was encoded.
        var described: String {
            switch self {
            case .none: "nothing"
            case .single(.dictionary): "a dictionary"
            case .single(.array): "an array"
            case .single: "a single value"
            case .keyed: "a keyed container"
            case .unkeyed: "an unkeyed container"
            }
        }
    }

    enum Slot {
        case key(String)
        case index(Int)

        func isKey(_ key: String) -> Bool {
            if case .key(let own) = self { return KeyIndex.same(own, key) }
            return false
        }
    }

    let context: EncodingContext
    let parent: EncodingNode?
    let step: CodingPathStep?
    var content = Content.none
    var dictionary = StoredDictionary()
    var elements: [StoredValue] = []
    var pending: [(slot: Slot, node: EncodingNode)] = []
    /// How many encoders are above this one.
    let depth: Int

    init(context: EncodingContext, parent: EncodingNode?, step: CodingPathStep?) {
        self.context = context
        self.parent = parent
        self.step = step
        depth = parent.map { $0.depth + 1 } ?? 0
    }

    /// An encoder for a nested value; nesting beyond the encoder's `maximumDepth` is an error
    /// rather than a stack overflow.
    func child<Value>(step: CodingPathStep?, encoding value: Value) throws -> EncodingNode {
        guard depth < context.options.maximumDepth else {
            var path = codingPath
            if let step { path.append(step.codingKey) }
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: path,
                    debugDescription:
                        "The value is nested deeper than \(context.options.maximumDepth) levels (StoredValueEncoder.maximumDepth; a codec's Limits.maximumDepth)."
                ))
        }
        guard context.stack.allows(depth: depth + 1) else {
            var path = codingPath
            if let step { path.append(step.codingKey) }
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: path, debugDescription: "the stack is nearly used up",
                    underlyingError: StackExhaustion(reason: context.stack.measured.exhaustedReason(depth: depth + 1))))
        }
        return EncodingNode(context: context, parent: self, step: step)
    }

    var codingPath: [any CodingKey] { pathFromRoot().steps }

    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        openKeyed()
        return KeyedEncodingContainer(StoredKeyedEncodingContainer<Key>(node: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        openUnkeyed()
        return StoredUnkeyedEncodingContainer(node: self)
    }

    /// Makes this node keyed as `JSONEncoder` does: asked again, the same container; after a
    /// single value that is a dictionary, that dictionary's entries, which the container adds to.
    /// After any other value or an unkeyed container, a misuse (where `JSONEncoder` traps).
    func openKeyed() {
        switch content {
        case .none: content = .keyed
        case .keyed: break
        case .single(.dictionary(let entries)):
            content = .keyed
            dictionary = entries
        case .single, .unkeyed:
            context.misuse(
                "Asked for a keyed container where \(content.described) was already encoded; it would be lost.",
                at: self)
        }
    }

    /// Makes this node unkeyed, with the rules of ``openKeyed()`` for arrays.
    func openUnkeyed() {
        switch content {
        case .none: content = .unkeyed
        case .unkeyed: break
        case .single(.array(let values)):
            content = .unkeyed
            elements = values
        case .single, .keyed:
            context.misuse(
                "Asked for an unkeyed container where \(content.described) was already encoded; it would be lost.",
                at: self)
        }
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    /// The node's value, with pending nested containers filled in; `nil` if nothing was encoded.
    func finish() throws -> StoredValue? {
        switch content {
        case .none:
            return nil
        case .single(let value):
            return value
        case .keyed:
            var result = dictionary
            dictionary = StoredDictionary()
            for (slot, node) in pending {
                if case .key(let key) = slot { result[key] = try node.finish() ?? .dictionary([:]) }
            }
            return .dictionary(result)
        case .unkeyed:
            var result = elements
            elements = []
            for (slot, node) in pending {
                if case .index(let index) = slot { result[index] = try node.finish() ?? .dictionary([:]) }
            }
            return .array(result)
        }
    }

    /// Stores a value under `key` of this keyed node; a repeated key keeps its position and the
    /// last value, replacing a nested container or super encoder made for it before.
    func set(_ value: StoredValue, forKey key: String) {
        if !pending.isEmpty { pending.removeAll { $0.slot.isKey(key) } }
        dictionary.set(value, forKey: key)
    }

    /// The node of a nested container for `key` of this keyed node, as `JSONEncoder` finds it:
    /// the one made for the key before (so a second container adds to the first), or a new one
    /// holding the key's value so far (a dictionary or array to add to; anything else is a
    /// misuse when the container is opened).
    func nestedNode(forKey key: String, step: CodingPathStep) -> EncodingNode {
        if let existing = pending.last(where: { $0.slot.isKey(key) }) { return existing.node }
        let current = dictionary[key]
        return pendingChild(slot: .key(key), step: step, content: current.map { .single($0) } ?? .none)
    }

    /// A node for a nested container or super encoder, filled in when this node finishes.
    func pendingChild(slot: Slot, step: CodingPathStep, content: Content) -> EncodingNode {
        if depth >= context.options.maximumDepth {
            context.misuse(
                "The value is nested deeper than \(context.options.maximumDepth) levels (StoredValueEncoder.maximumDepth).",
                at: self)
        }
        let child = EncodingNode(context: context, parent: self, step: step)
        child.content = content
        if pending.isEmpty { context.nodesWithPending.append(self) }
        switch slot {
        case .key(let key): set(.null, forKey: key)
        case .index: elements.append(.null)
        }
        pending.append((slot, child))
        return child
    }

    // MARK: Boxing

    /// `value` as a stored value: primitives directly, everything else through its
    /// `encode(to:)` into a child node at `step`. `nil` when it encoded nothing.
    func box<Value: Encodable>(_ value: Value, step: CodingPathStep?) throws -> StoredValue? {
        // Metatype comparisons are cheap; dynamic casts are not. Primitives first.
        if Value.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if Value.self == Int.self { return .int(Int64(unsafeBitCast(value, to: Int.self))) }
        if Value.self == Double.self {
            let double = unsafeBitCast(value, to: Double.self)
            return double.isFinite
                ? .double(double) : try context.double(double, original: double, in: self, step: step)
        }
        if Value.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if Value.self == Date.self { return try boxDate(unsafeBitCast(value, to: Date.self), step: step) }
        if Value.self == Data.self { return try boxData(unsafeBitCast(value, to: Data.self), step: step) }
        if Value.self == Int64.self { return .int(unsafeBitCast(value, to: Int64.self)) }
        if Value.self == UInt64.self { return .integer(unsafeBitCast(value, to: UInt64.self)) }
        if Value.self == UInt.self { return .integer(UInt64(unsafeBitCast(value, to: UInt.self))) }
        if Value.self == Int32.self { return .int(Int64(unsafeBitCast(value, to: Int32.self))) }
        if Value.self == UInt32.self { return .int(Int64(unsafeBitCast(value, to: UInt32.self))) }
        if Value.self == Int16.self { return .int(Int64(unsafeBitCast(value, to: Int16.self))) }
        if Value.self == UInt16.self { return .int(Int64(unsafeBitCast(value, to: UInt16.self))) }
        if Value.self == Int8.self { return .int(Int64(unsafeBitCast(value, to: Int8.self))) }
        if Value.self == UInt8.self { return .int(Int64(unsafeBitCast(value, to: UInt8.self))) }
        if Value.self == Float.self {
            return try context.float(unsafeBitCast(value, to: Float.self), in: self, step: step)
        }
        if Value.self == URL.self, case .string = context.options.urlEncoding {
            return .string(unsafeBitCast(value, to: URL.self).absoluteString)
        }
        if Value.self == Decimal.self, let stored = boxDecimal(unsafeBitCast(value, to: Decimal.self)) { return stored }
        if Value.self == StoredValue.self { return try boxTree(unsafeBitCast(value, to: StoredValue.self), step: step) }
        if !context.usesDefaultKeys, let dictionary = value as? any StringKeyedDictionary {
            // JSONEncoder converts the keys of types, not the keys of [String: Value] data.
            return try dictionary.storedDictionary(in: self, step: step)
        }
        let child = try child(step: step, encoding: value)
        try value.encode(to: child)
        return try child.finish()
    }

    /// A ``StoredValue`` as itself, one node per array or dictionary (so nesting counts as the
    /// readers count it), scalars through the options (dates, bytes, non-finite numbers and
    /// decimals as the codec stores them); dictionary keys are data and never converted.
    func boxTree(_ tree: StoredValue, step: CodingPathStep?) throws -> StoredValue {
        switch tree {
        case .null, .bool, .int, .uint, .string:
            return tree
        case .double(let double):
            return try box(double, step: step) ?? tree
        case .decimal(let decimal):
            return try box(decimal, step: step) ?? .dictionary([:])
        case .date(let date):
            return try boxDate(date, step: step) ?? .dictionary([:])
        case .data(let data):
            return try boxData(data, step: step) ?? .dictionary([:])
        case .array(let elements):
            let node = try child(step: step, encoding: tree)
            var result: [StoredValue] = []
            result.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                result.append(try node.boxTree(element, step: .index(index)))
            }
            return .array(result)
        case .dictionary(let dictionary):
            let node = try child(step: step, encoding: tree)
            var result = StoredDictionary(minimumCapacity: dictionary.count)
            for (key, value) in dictionary {
                result.append(key: key, value: try node.boxTree(value, step: .key(StoredCodingKey(stringValue: key))))
            }
            return .dictionary(result)
        }
    }

    /// Like ``box(_:step:)`` for a value inside a container: a value that encoded nothing is an
    /// empty dictionary, as in `JSONEncoder`.
    func boxNested<Value: Encodable>(_ value: Value, step: CodingPathStep) throws -> StoredValue {
        try box(value, step: step) ?? .dictionary([:])
    }

    /// A `Decimal` as the codec wants it; `nil` to encode it through its own `Codable` form.
    private func boxDecimal(_ decimal: Decimal) -> StoredValue? {
        switch context.options.decimalEncoding {
        case .stored: .decimal(decimal)
        case .deferredToDecimal: nil
        }
    }

    private func boxDate(_ date: Date, step: CodingPathStep?) throws -> StoredValue? {
        switch context.options.dates {
        case .stored: return .date(date)
        case .secondsSinceReferenceDate: return .double(date.timeIntervalSinceReferenceDate)
        case .secondsSince1970: return .double(date.timeIntervalSince1970)
        case .millisecondsSince1970: return .double(date.timeIntervalSince1970 * 1000)
        case .iso8601:
            guard let text = DateText.exactISO8601(of: date) else {
                var path = codingPath
                if let step { path.append(step.codingKey) }
                throw EncodingError.invalidValue(
                    date, EncodingError.Context(codingPath: path, debugDescription: DateText.notExactlyISO8601(date)))
            }
            return .string(text)
        case .formatted(let formatter):
            guard let text = DateFormatterCoding.text(of: date, with: formatter) else {
                var path = codingPath
                if let step { path.append(step.codingKey) }
                throw EncodingError.invalidValue(
                    date,
                    EncodingError.Context(
                        codingPath: path, debugDescription: DateFormatterCoding.refusal(date, with: formatter)))
            }
            return .string(text)
        case .custom(let encode):
            let child = try child(step: step, encoding: date)
            try encode(date, child)
            // A closure that encodes nothing gives an empty dictionary, as in JSONEncoder.
            return try child.finish() ?? .dictionary([:])
        }
    }

    private func boxData(_ data: Data, step: CodingPathStep?) throws -> StoredValue? {
        switch context.options.data {
        case .stored: return .data(data)
        case .byteArray: return .array(data.map { .int(Int64($0)) })
        case .base64: return .string(data.base64EncodedString())
        case .custom(let encode):
            let child = try child(step: step, encoding: data)
            try encode(data, child)
            // A closure that encodes nothing gives an empty dictionary, as in JSONEncoder.
            return try child.finish() ?? .dictionary([:])
        }
    }
}

/// `[String: Value]` dictionaries, whose keys are data rather than property names: key
/// strategies leave them alone, as in `JSONEncoder`.
protocol StringKeyedDictionary {
    func storedDictionary(in node: EncodingNode, step: CodingPathStep?) throws -> StoredValue
    /// Opens `node`'s keyed container in the sink and writes the entries into it.
    func writeEntries<Sink: EncodingSink>(into node: SinkEncodingNode<Sink>) throws
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Encodable {
    func storedDictionary(in node: EncodingNode, step: CodingPathStep?) throws -> StoredValue {
        let child = try node.child(step: step, encoding: self)
        child.content = .keyed
        for (key, value) in self {
            child.set(try child.boxNested(value, step: .key(StoredCodingKey(stringValue: key))), forKey: key)
        }
        return try child.finish() ?? .dictionary([:])
    }

    func writeEntries<Sink: EncodingSink>(into node: SinkEncodingNode<Sink>) throws {
        node.state = .keyed
        node.context.sink.beginDictionary()
        for (key, value) in self {
            node.context.sink.beginEntry(key: key)
            try node.box(value, step: .key(StoredCodingKey(stringValue: key)))
        }
    }
}
