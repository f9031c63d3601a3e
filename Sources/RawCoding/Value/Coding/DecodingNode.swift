import Foundation

/// What every node of one `StoredValueDecoder.decode` call shares.
final class DecodingContext {
    let options: StoredValueDecoder
    let userInfo: [CodingUserInfoKey: Any]
    let usesDefaultKeys: Bool
    /// A string that also reads as nil (property lists' `$null`), if any.
    let nullMarker: String?
    var nesting: NestingCheck
    /// What the model asks for, while a stored decode wants to know (``TreeMarks``); `nil`
    /// otherwise, which costs the lookups one test. Only under the default keys, where a
    /// container's positions are the tree's.
    let marks: TreeMarks?

    init(options: StoredValueDecoder) {
        self.options = options
        userInfo = options.userInfo
        nullMarker = options.nullMarker
        nesting = NestingCheck(maximumDepth: options.maximumDepth)
        if case .useDefaultKeys = options.keys {
            usesDefaultKeys = true
        } else {
            usesDefaultKeys = false
        }
        var pending: TreeMarks?
        if usesDefaultKeys {
            let state = RecursionGuard.state
            pending = state.pendingTreeMarks
            state.pendingTreeMarks = nil
            pending?.taken = true
        }
        marks = pending
    }

    /// Whether `value` reads as nil: null, or the null marker string.
    @inline(__always)
    func isNull(_ value: StoredValue) -> Bool {
        switch value {
        case .null: true
        case .string(let text): nullMarker == text
        default: false
        }
    }

    /// Throws unless a decoder may start below one at `depth` (``NestingCheck``).
    @inline(__always)
    func checkNesting(below depth: Int, path: () -> [any CodingKey]) throws {
        try nesting.check(below: depth, path: path)
    }
}

/// The decoders' limit on nesting: beyond `maximumDepth` (``StoredValueDecoder/maximumDepth``),
/// or with the stack nearly used up, a decoder may not start.
struct NestingCheck {
    let maximumDepth: Int
    var stack = StackCheck()

    /// Throws unless a decoder may start below one at `depth`: nesting beyond `maximumDepth`,
    /// or a stack nearly used up, is an error at `path`.
    @inline(__always)
    mutating func check(below depth: Int, path: () -> [any CodingKey]) throws {
        guard depth < maximumDepth else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: path(),
                    debugDescription:
                        "The value is nested deeper than \(maximumDepth) levels (StoredValueDecoder.maximumDepth)."
                ))
        }
        guard stack.allows(depth: depth + 1) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: path(), debugDescription: "the stack is nearly used up",
                    underlyingError: StackExhaustion(reason: stack.measured.exhaustedReason(depth: depth + 1))))
        }
    }
}

/// One `Decoder` of a `StoredValueDecoder.decode` call: a value being decoded and where it is.
final class DecodingNode: Decoder, CodingPathNode {
    let context: DecodingContext
    let parent: DecodingNode?
    let step: CodingPathStep?
    let value: StoredValue
    /// How many decoders are above this one.
    let depth: Int
    /// Where the next key lookup in this node's dictionary starts.
    var keyHint = 0
    /// Whether the node decodes a `[String: Value]` dictionary, whose keys are data that key
    /// strategies leave alone (as `JSONDecoder` does).
    var keepsKeys = false
    /// The marks of this node's value, where the context marks and the value was reached from
    /// the root through keys alone.
    var mark: TreeMark?
    /// The dictionary its keyed containers read (keys converted), set when one is made. Held
    /// here, not by each container: `KeyedDecodingContainer`'s box copies its container on
    /// every call, and a container of one reference costs one retain to copy.
    @exclusivity(unchecked) var keyed = StoredDictionary()

    /// The coding path above the root node, where another decoder handed the value over; empty
    /// below the root.
    let rootPath: [any CodingKey]

    init(
        context: DecodingContext, parent: DecodingNode?, step: CodingPathStep?, value: StoredValue,
        rootPath: [any CodingKey] = [], rootDepth: Int = 0
    ) {
        self.context = context
        self.parent = parent
        self.step = step
        self.value = value
        self.rootPath = parent == nil ? rootPath : []
        depth = parent.map { $0.depth + 1 } ?? rootDepth
        if parent == nil { mark = context.marks?.root }
    }

    var codingPath: [any CodingKey] {
        let (steps, root) = pathFromRoot()
        return root.rootPath + steps
    }

    func path(adding step: CodingPathStep?) -> [any CodingKey] {
        guard let step else { return codingPath }
        return codingPath + [step.codingKey]
    }

    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .dictionary(let dictionary) = value else {
            if case .null = value {
                throw DecodingError.valueNotFound(
                    KeyedDecodingContainer<Key>.self,
                    DecodingError.Context(
                        codingPath: codingPath,
                        debugDescription: "Cannot get keyed decoding container -- found null value instead"))
            }
            throw mismatch([String: Any].self, value, step: nil)
        }
        keyed = context.usesDefaultKeys || keepsKeys ? dictionary : convertKeys(dictionary)
        return KeyedDecodingContainer(StoredKeyedDecodingContainer<Key>(node: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            if case .null = value {
                throw DecodingError.valueNotFound(
                    [Any].self,
                    DecodingError.Context(
                        codingPath: codingPath,
                        debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
            }
            throw mismatch([Any].self, value, step: nil)
        }
        return StoredUnkeyedDecodingContainer(node: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    private func convertKeys(_ dictionary: StoredDictionary) -> StoredDictionary {
        var converted = StoredDictionary(minimumCapacity: dictionary.count)
        for (key, value) in dictionary {
            let newKey: String
            switch context.options.keys {
            case .useDefaultKeys: newKey = key
            case .snakeCase: newKey = KeyConversion.fromSnakeCase(key)
            case .custom(let convert): newKey = convert(codingPath + [StoredCodingKey(stringValue: key)]).stringValue
            }
            // Two keys converting to one: the first wins, as in JSONDecoder.
            if converted.position(of: newKey) == nil { converted.append(key: newKey, value: value) }
        }
        return converted
    }

    // MARK: Errors

    func mismatch(_ type: Any.Type, _ found: StoredValue, step: CodingPathStep?) -> DecodingError {
        if case .null = found {
            return DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: path(adding: step),
                    debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        }
        return DecodingError.typeMismatch(
            type,
            DecodingError.Context(
                codingPath: path(adding: step),
                debugDescription: "Expected to decode \(type) but found \(found.kindName) instead."))
    }

    func corrupted(_ description: String, step: CodingPathStep?) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: path(adding: step), debugDescription: description))
    }
}
