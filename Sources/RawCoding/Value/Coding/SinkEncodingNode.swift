import Foundation

/// What the tree-free encoder writes into: a format's writer, one event at a time, in the
/// order the model's `encode(to:)` calls come. The sink keeps the format's canonical key order
/// and counts values as the format's reader counts them.
///
/// A sink never throws: where it cannot write something the tree path would refuse with a
/// message (a NaN `Decimal` in JSON, a repeated key), it answers `false` and the encode is
/// done again through the tree, which says why.
protocol EncodingSink {
    /// Values written so far, counted as the reader counts them.
    var valueCount: Int { get }

    mutating func writeNull()
    mutating func writeBool(_ value: Bool)
    mutating func writeInt(_ value: Int64)
    mutating func writeUInt(_ value: UInt64)
    /// A finite double.
    mutating func writeDouble(_ value: Double)
    /// An infinite or NaN double, where the non-finite strategy allows it.
    mutating func writeNonFinite(_ value: Double) -> Bool
    mutating func writeString(_ value: String)
    mutating func writeDecimal(_ value: Decimal) -> Bool
    mutating func writeDate(_ value: Date) -> Bool
    mutating func writeData(_ value: Data) -> Bool

    mutating func beginArray()
    /// Starts the next element of the innermost open array.
    mutating func beginElement()
    mutating func endArray()
    mutating func beginDictionary()
    /// Starts the entry for `key` in the innermost open dictionary.
    mutating func beginEntry(key: String)
    /// Ends the innermost open dictionary; `false` when the tree path must write the value
    /// instead (a key was repeated; a binary property list's `CF$UID` dictionary).
    mutating func endDictionary() -> Bool
}

/// Encodes a model straight into an ``EncodingSink``, without a ``StoredValue`` tree.
///
/// It takes the common shape of `encode(to:)`: values written in order, containers used one
/// after another. Anything else gives up, and the caller encodes again through the tree
/// (`StoredValueEncoder`), whose result and errors are the reference: a failure of any kind,
/// a repeated key, a second single value, writing into a container after a later one was
/// written, a snake-case key that would read back as another name, or an option the sink path
/// does not take (a custom key conversion).
/// Giving up is sticky, and an error from the model's own code gives up too, so a model that
/// catches an error and goes on cannot leave a torn or partly written value behind.
enum SinkEncoding {
    /// The context holding the sink after encoding `value`, or `nil` where the tree path must
    /// decide. (A context, not the sink: a generic optional is looked up at run time, and
    /// returning the sink would copy it.)
    ///
    /// `root` comes from ``SinkEncodingNode/root(options:sink:)``, called where the sink's type
    /// is known.
    static func encode<Value: Encodable, Sink: EncodingSink>(
        _ value: Value, root: SinkEncodingNode<Sink>, limits: Limits
    ) -> SinkEncodingContext<Sink>? {
        let context = root.context
        guard context.shared.takesKeys else { return nil }
        context.top = root
        defer { context.top = nil }
        do {
            if try !root.boxKnown(value, step: nil) {
                // The value's own encode(to:) writes into the root, standing where the child
                // `box` makes for a nested value would: one level down.
                try root.checkNesting()
                root.depth = 1
                if _slowPath(context.convertsKeys), let dictionary = context.stringKeyedDictionary(value) {
                    try dictionary.writeEntries(into: root)
                } else {
                    try root.runModelCode { try value.encode(to: root) }
                }
                try root.activate()
                try root.close(isNested: false)
            }
        } catch {
            // Not swallowed: the caller encodes again through the tree, which throws it (or
            // the error the sink path gave up on) with its path.
            return nil
        }
        // Every call after giving up throws, and every value's end is such a call, so a model
        // cannot catch its way past giving up; `abandoned` is checked again all the same.
        // The size is checked by the caller, on the finished bytes.
        guard !context.abandoned, context.sink.valueCount <= limits.maximumValueCount else { return nil }
        return context
    }
}

/// Thrown to unwind a model's `encode(to:)` when the sink path gives up. ``SinkEncoding``
/// never returns it; a model sees it as it sees any encoder's error, and should let it pass.
struct SinkAbandoned: Error {}

/// The engine's options for sink encodes, shared by reference: a codec keeps them per thread
/// (``JSONCodec``) instead of making and copying them on every encode, which was about 600
/// instructions of a settings-sized one.
final class SinkOptions: Sendable {
    let encoder: StoredValueEncoder
    /// Keys are written in snake case (``StoredValueEncoder/KeyStrategy/snakeCase``).
    let convertsKeys: Bool
    /// The sink takes the key strategy (all but a custom one).
    let takesKeys: Bool

    init(_ encoder: StoredValueEncoder) {
        self.encoder = encoder
        switch encoder.keys {
        case .useDefaultKeys: (convertsKeys, takesKeys) = (false, true)
        case .snakeCase: (convertsKeys, takesKeys) = (true, true)
        case .custom: (convertsKeys, takesKeys) = (false, false)
        }
    }
}

/// What every node of one sink encode shares.
///
/// The state written on every call is exempt from run-time exclusivity checks (they were a
/// sixth of an encode's time): it is touched only here and in the nodes, one call at a time,
/// and a sink never calls back.
final class SinkEncodingContext<Sink: EncodingSink> {
    let shared: SinkOptions
    @exclusivity(unchecked) var sink: Sink
    /// The innermost node whose container is open in the sink.
    @exclusivity(unchecked) var top: SinkEncodingNode<Sink>?
    /// Set once, by the first thing the sink path does not take.
    @exclusivity(unchecked) var abandoned = false
    @exclusivity(unchecked) var stack = StackCheck()
    /// Whether keys are written in snake case (``StoredValueEncoder/KeyStrategy/snakeCase``).
    let convertsKeys: Bool

    init(options: SinkOptions, sink: consuming Sink) {
        shared = options
        self.sink = sink
        convertsKeys = options.convertsKeys
    }

    /// `key` in snake case, or `nil` where it would read back as another name.
    func snakeCase(_ key: String) -> String? {
        RecursionGuard.state.snakeCaseKeys.converted(key)
    }

    /// `value` as a `[String: Value]` dictionary, whose keys are written as they are (asked
    /// where keys are converted); the cast is made only for a type whose values may be one.
    @inline(never)
    func stringKeyedDictionary<Value>(_ value: Value) -> (any StringKeyedDictionary)? {
        guard TypeTraits.of(Value.self).mayBeStringKeyedDictionary else { return nil }
        return value as? any StringKeyedDictionary
    }

    var options: StoredValueEncoder {
        _read { yield shared.encoder }
    }

    /// Made when a model asks (rarely): the cast from `any Sendable` values copies them.
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    func abandon() -> SinkAbandoned {
        abandoned = true
        return SinkAbandoned()
    }
}

/// One `Encoder` of a sink encode: the counterpart of ``EncodingNode``, writing as it goes.
final class SinkEncodingNode<Sink: EncodingSink>: Encoder, CodingPathNode {
    enum State {
        case empty
        case single
        case keyed
        case unkeyed
        case closed
    }

    let context: SinkEncodingContext<Sink>
    let parent: SinkEncodingNode?
    let step: CodingPathStep?
    /// Levels below the top; the root stands one level down when a model writes into it.
    @exclusivity(unchecked) var depth: Int
    @exclusivity(unchecked) var state = State.empty
    /// Elements begun, for the index of the next.
    @exclusivity(unchecked) var count = 0

    init(context: SinkEncodingContext<Sink>, parent: SinkEncodingNode?, step: CodingPathStep?) {
        self.context = context
        self.parent = parent
        self.step = step
        // Not `parent.map`: a generic optional's type is looked up at run time.
        if let parent { depth = parent.depth + 1 } else { depth = 0 }
    }

    /// The root node of an encode into `sink`. Called where the sink's type is known, the
    /// node's and the context's types are found when the program is built, not looked up at
    /// run time (about 330 instructions each); children are made from the root's own type.
    static func root(options: SinkOptions, sink: consuming Sink) -> SinkEncodingNode {
        SinkEncodingNode(context: SinkEncodingContext(options: options, sink: sink), parent: nil, step: nil)
    }

    var codingPath: [any CodingKey] { pathFromRoot().steps }

    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    /// Makes this node the one being written, closing the nested containers opened below it.
    @inline(__always)
    func activate() throws(SinkAbandoned) {
        guard context.top !== self else {
            guard !context.abandoned else { throw SinkAbandoned() }
            return
        }
        try activateSlowly()
    }

    private func activateSlowly() throws(SinkAbandoned) {
        guard !context.abandoned, state != .closed else { throw context.abandon() }
        var node = context.top
        while let current = node, current !== self {
            // A nested container or super encoder ends here. A value whose encode(to:) is still
            // running and is closed this way (its encoder written into by an ancestor's
            // container) gives up when it returns: its own node is closed by then.
            try current.close(isNested: true)
            node = current.parent
        }
        guard node === self else { throw context.abandon() }
        context.top = self
    }

    /// Ends this node's value in the sink; one that wrote nothing is an empty dictionary
    /// where it is nested, as in `JSONEncoder`.
    func close(isNested: Bool) throws(SinkAbandoned) {
        switch state {
        case .empty:
            guard isNested else { throw context.abandon() }
            context.sink.beginDictionary()
            _ = context.sink.endDictionary()
        case .single:
            break
        case .keyed:
            guard context.sink.endDictionary() else { throw context.abandon() }
        case .unkeyed:
            context.sink.endArray()
        case .closed:
            throw context.abandon()
        }
        state = .closed
    }

    /// Opens this node's keyed or unkeyed container; `false` gives up.
    func open(_ kind: State) -> Bool {
        do {
            try activate()
        } catch {
            return false
        }
        if state == kind { return true }
        guard state == .empty else {
            context.abandoned = true
            return false
        }
        state = kind
        if kind == .keyed { context.sink.beginDictionary() } else { context.sink.beginArray() }
        return true
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        _ = open(.keyed)
        return KeyedEncodingContainer(SinkKeyedEncodingContainer<Key, Sink>(node: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        _ = open(.unkeyed)
        return SinkUnkeyedEncodingContainer(node: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    /// Starts the entry for `key` of this keyed node, under the key strategy. A snake-case key
    /// that would read back as another name gives up: the tree path refuses it with a message.
    @inline(__always)
    func beginEntry(for key: some CodingKey) throws(SinkAbandoned) {
        try activate()
        guard state == .keyed else { throw context.abandon() }
        if _slowPath(context.convertsKeys) { return try beginConvertedEntry(key.stringValue) }
        context.sink.beginEntry(key: key.stringValue)
    }

    /// Out of line, so the default keys' path stays as small as before snake case took it.
    @inline(never)
    private func beginConvertedEntry(_ key: String) throws(SinkAbandoned) {
        guard let converted = context.snakeCase(key) else { throw context.abandon() }
        context.sink.beginEntry(key: converted)
    }

    /// Starts the next element of this unkeyed node; returns its index.
    @inline(__always)
    func beginElement() throws(SinkAbandoned) -> Int {
        try activate()
        guard state == .unkeyed else { throw context.abandon() }
        context.sink.beginElement()
        count += 1
        return count - 1
    }

    /// Starts this node's single value.
    @inline(__always)
    func beginSingle() throws(SinkAbandoned) {
        try activate()
        // A second single value replaces the first in the tree; the sink cannot take it back.
        guard state == .empty else { throw context.abandon() }
        state = .single
    }

    /// A nested container or super encoder at the entry or element just begun.
    func implicitChild(step: CodingPathStep, state: State) -> SinkEncodingNode {
        let child = type(of: self).init(context: context, parent: self, step: step)
        if depth >= context.options.maximumDepth { context.abandoned = true }
        child.state = state
        switch state {
        case .keyed: context.sink.beginDictionary()
        case .unkeyed: context.sink.beginArray()
        default: break
        }
        context.top = child
        return child
    }

    // MARK: Boxing

    /// Writes `value` at the entry, element or single value just begun: primitives directly,
    /// everything else through its `encode(to:)` into a child node at `step`. The step is made
    /// only where a node needs it: a key made into a step is an existential, copied and freed.
    func box<Value: Encodable>(_ value: Value, step: @autoclosure () -> CodingPathStep?) throws {
        guard try !boxKnown(value, step: step()) else { return }
        let child = try child(step: step())
        if _slowPath(context.convertsKeys), let dictionary = context.stringKeyedDictionary(value) {
            // Its keys are data, written as they are (as the tree path and JSONEncoder do).
            try dictionary.writeEntries(into: child)
        } else {
            try runModelCode { try value.encode(to: child) }
        }
        try finish(child, isNested: true)
    }

    /// Writes `value` if it is a primitive, a date, data, a decimal, a tree or an array of a
    /// primitive, without a child node; `false` for any other type.
    func boxKnown<Value: Encodable>(_ value: Value, step: @autoclosure () -> CodingPathStep?) throws -> Bool {
        try boxPrimitive(value, step: step()) || boxArray(value, step: step())
    }

    private func boxPrimitive<Value: Encodable>(_ value: Value, step: @autoclosure () -> CodingPathStep?) throws -> Bool
    {
        if Value.self == String.self {
            context.sink.writeString(unsafeBitCast(value, to: String.self))
        } else if Value.self == Int.self {
            context.sink.writeInt(Int64(unsafeBitCast(value, to: Int.self)))
        } else if Value.self == Double.self {
            try write(unsafeBitCast(value, to: Double.self))
        } else if Value.self == Bool.self {
            context.sink.writeBool(unsafeBitCast(value, to: Bool.self))
        } else if Value.self == Date.self {
            try boxDate(unsafeBitCast(value, to: Date.self), step: step())
        } else if Value.self == Data.self {
            try boxData(unsafeBitCast(value, to: Data.self), step: step())
        } else if Value.self == Int64.self {
            context.sink.writeInt(unsafeBitCast(value, to: Int64.self))
        } else if Value.self == UInt64.self {
            writeInteger(unsafeBitCast(value, to: UInt64.self))
        } else if Value.self == UInt.self {
            writeInteger(UInt64(unsafeBitCast(value, to: UInt.self)))
        } else if Value.self == Int32.self {
            context.sink.writeInt(Int64(unsafeBitCast(value, to: Int32.self)))
        } else if Value.self == UInt32.self {
            context.sink.writeInt(Int64(unsafeBitCast(value, to: UInt32.self)))
        } else if Value.self == Int16.self {
            context.sink.writeInt(Int64(unsafeBitCast(value, to: Int16.self)))
        } else if Value.self == UInt16.self {
            context.sink.writeInt(Int64(unsafeBitCast(value, to: UInt16.self)))
        } else if Value.self == Int8.self {
            context.sink.writeInt(Int64(unsafeBitCast(value, to: Int8.self)))
        } else if Value.self == UInt8.self {
            context.sink.writeInt(Int64(unsafeBitCast(value, to: UInt8.self)))
        } else if Value.self == Float.self {
            try write(unsafeBitCast(value, to: Float.self))
        } else if Value.self == URL.self, case .string = context.options.urlEncoding {
            context.sink.writeString(unsafeBitCast(value, to: URL.self).absoluteString)
        } else if Value.self == Decimal.self, case .stored = context.options.decimalEncoding {
            guard context.sink.writeDecimal(unsafeBitCast(value, to: Decimal.self)) else { throw context.abandon() }
        } else if Value.self == StoredValue.self {
            try writeTree(unsafeBitCast(value, to: StoredValue.self), step: step())
        } else {
            return false
        }
        return true
    }

    private func boxArray<Value: Encodable>(_ value: Value, step: @autoclosure () -> CodingPathStep?) throws -> Bool {
        if Value.self == [Double].self {
            try writeArray(unsafeBitCast(value, to: [Double].self)) { try $0.write($1) }
        } else if Value.self == [String].self {
            try writeArray(unsafeBitCast(value, to: [String].self)) { $0.context.sink.writeString($1) }
        } else if Value.self == [Int].self {
            try writeArray(unsafeBitCast(value, to: [Int].self)) { $0.context.sink.writeInt(Int64($1)) }
        } else if Value.self == [Float].self {
            try writeArray(unsafeBitCast(value, to: [Float].self)) { try $0.write($1) }
        } else if Value.self == [Bool].self {
            try writeArray(unsafeBitCast(value, to: [Bool].self)) { $0.context.sink.writeBool($1) }
        } else {
            return false
        }
        return true
    }

    /// Runs the model's own code (`encode(to:)`, a custom strategy's closure). Its error gives
    /// up for good: the tree path, where a value that threw is not stored, writes the result, so
    /// a model that catches the error and goes on leaves no partly written value behind.
    @inline(__always)
    func runModelCode(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            context.abandoned = true
            throw error
        }
    }

    /// An array of a primitive as `Array.encode(to:)` writes it (a child encoder one level
    /// down, its unkeyed container, each element in turn), without the generic calls for each
    /// element and without the child: nothing below it can ask for its coding path.
    func writeArray<Element>(
        _ elements: [Element], _ write: (SinkEncodingNode, Element) throws -> Void
    ) throws {
        try checkNesting()
        context.sink.beginArray()
        for element in elements {
            context.sink.beginElement()
            try write(self, element)
        }
        context.sink.endArray()
    }

    /// Whether a child one level down is within the depth and stack the tree path allows.
    @inline(__always)
    func checkNesting() throws(SinkAbandoned) {
        guard depth < context.options.maximumDepth, context.stack.allows(depth: depth + 1) else {
            throw context.abandon()
        }
    }

    /// A child for a value's own `encode(to:)`, within the depth and stack the tree path allows.
    func child(step: CodingPathStep?) throws(SinkAbandoned) -> SinkEncodingNode {
        try checkNesting()
        let child = type(of: self).init(context: context, parent: self, step: step)
        context.top = child
        return child
    }

    /// Closes `child` after its value's `encode(to:)` returned, and makes this node current.
    func finish(_ child: SinkEncodingNode, isNested: Bool) throws(SinkAbandoned) {
        try child.activate()
        try child.close(isNested: isNested)
        context.top = self
    }

    /// An unsigned integer as the tree holds it: `.int` when it fits (``StoredValue/integer(_:)``).
    @inline(__always)
    func writeInteger(_ value: UInt64) {
        if value <= UInt64(Int64.max) { context.sink.writeInt(Int64(value)) } else { context.sink.writeUInt(value) }
    }

    func write(_ double: Double) throws(SinkAbandoned) {
        if double.isFinite { return context.sink.writeDouble(double) }
        switch context.options.nonFiniteNumbers {
        case .allow:
            try writeNumber(double)
        case .throw:
            throw context.abandon()
        case .strings(let positiveInfinity, let negativeInfinity, let nan):
            context.sink.writeString(double.isNaN ? nan : double > 0 ? positiveInfinity : negativeInfinity)
        }
    }

    /// A double as ``StoredValue/double(_:)`` holds it, whatever the non-finite strategy.
    func writeNumber(_ double: Double) throws(SinkAbandoned) {
        if double.isFinite { return context.sink.writeDouble(double) }
        guard context.sink.writeNonFinite(double) else { throw context.abandon() }
    }

    func write(_ float: Float) throws(SinkAbandoned) {
        try write(EncodingContext.double(of: float, asText: context.options.floatsAsTheirText))
    }

    /// A ``StoredValue`` as ``EncodingNode/boxTree(_:step:)`` stores it: one node per array
    /// or dictionary, scalars through the options.
    func writeTree(_ tree: StoredValue, step: @autoclosure () -> CodingPathStep?) throws {
        switch tree {
        case .null: context.sink.writeNull()
        case .bool(let flag): context.sink.writeBool(flag)
        case .int(let number): context.sink.writeInt(number)
        case .uint(let number): context.sink.writeUInt(number)
        case .string(let text): context.sink.writeString(text)
        case .double(let number): try write(number)
        case .decimal(let decimal): try box(decimal, step: step())
        case .date(let date): try boxDate(date, step: step())
        case .data(let data): try boxData(data, step: step())
        case .array(let elements):
            let node = try child(step: step())
            node.state = .unkeyed
            context.sink.beginArray()
            for (index, element) in elements.enumerated() {
                context.sink.beginElement()
                try node.writeTree(element, step: .index(index))
            }
            try finish(node, isNested: true)
        case .dictionary(let dictionary):
            let node = try child(step: step())
            try node.writeEntries(of: dictionary)
            try finish(node, isNested: true)
        }
    }

    /// Opens this node's keyed container and writes `dictionary`'s entries into it, keys as
    /// they are.
    func writeEntries(of dictionary: StoredDictionary) throws {
        state = .keyed
        context.sink.beginDictionary()
        for (key, value) in dictionary {
            context.sink.beginEntry(key: key)
            try writeTree(value, step: .key(StoredCodingKey(stringValue: key)))
        }
    }

    private func boxDate(_ date: Date, step: @autoclosure () -> CodingPathStep?) throws {
        switch context.options.dates {
        case .stored: guard context.sink.writeDate(date) else { throw context.abandon() }
        // As the tree holds them: a number, not through the non-finite strategy.
        case .secondsSinceReferenceDate: try writeNumber(date.timeIntervalSinceReferenceDate)
        case .secondsSince1970: try writeNumber(date.timeIntervalSince1970)
        case .millisecondsSince1970: try writeNumber(date.timeIntervalSince1970 * 1000)
        case .iso8601:
            // A refusal is the tree path's to report, with its path.
            guard let text = DateText.exactISO8601(of: date) else { throw context.abandon() }
            context.sink.writeString(text)
        case .formatted(let formatter):
            // A refusal is the tree path's to report, with its path.
            guard let text = DateFormatterCoding.text(of: date, with: formatter) else { throw context.abandon() }
            context.sink.writeString(text)
        case .custom(let encode):
            let child = try child(step: step())
            try runModelCode { try encode(date, child) }
            // Nothing encoded is an empty dictionary, even at the top, as in JSONEncoder.
            try finish(child, isNested: true)
        }
    }

    private func boxData(_ data: Data, step: @autoclosure () -> CodingPathStep?) throws {
        switch context.options.data {
        case .stored: guard context.sink.writeData(data) else { throw context.abandon() }
        case .byteArray:
            context.sink.beginArray()
            for byte in data {
                context.sink.beginElement()
                context.sink.writeInt(Int64(byte))
            }
            context.sink.endArray()
        case .base64: context.sink.writeString(data.base64EncodedString())
        case .custom(let encode):
            let child = try child(step: step())
            try runModelCode { try encode(data, child) }
            // Nothing encoded is an empty dictionary, even at the top, as in JSONEncoder.
            try finish(child, isNested: true)
        }
    }
}

/// The keyed container of a ``SinkEncodingNode``.
struct SinkKeyedEncodingContainer<Key: CodingKey, Sink: EncodingSink>: KeyedEncodingContainerProtocol {
    let node: SinkEncodingNode<Sink>

    var codingPath: [any CodingKey] { node.codingPath }

    @inline(__always)
    private var sink: Sink {
        get { node.context.sink }
        _modify { yield &node.context.sink }
    }

    mutating func encodeNil(forKey key: Key) throws {
        try node.beginEntry(for: key)
        sink.writeNull()
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try node.beginEntry(for: key)
        sink.writeBool(value)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        try node.beginEntry(for: key)
        sink.writeString(value)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { try writeInt(Int64(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try writeInt(Int64(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try writeInt(Int64(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try writeInt(Int64(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try writeInt(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try node.beginEntry(for: key)
        node.writeInteger(UInt64(value))
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try writeInt(Int64(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try writeInt(Int64(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try writeInt(Int64(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try node.beginEntry(for: key)
        node.writeInteger(value)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try node.beginEntry(for: key)
        try node.write(value)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try node.beginEntry(for: key)
        try node.write(value)
    }
    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        try node.beginEntry(for: key)
        try node.box(value, step: .key(key))
    }

    private mutating func writeInt(_ value: Int64, _ key: Key) throws {
        try node.beginEntry(for: key)
        sink.writeInt(value)
    }

    /// The child opened at `key`, or this node's when the sink path has given up.
    private func implicitChild(forKey key: Key, state: SinkEncodingNode<Sink>.State) -> SinkEncodingNode<Sink> {
        do {
            try node.beginEntry(for: key)
        } catch {
            return node
        }
        return node.implicitChild(step: .key(key), state: state)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(
            SinkKeyedEncodingContainer<NestedKey, Sink>(node: implicitChild(forKey: key, state: .keyed)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        SinkUnkeyedEncodingContainer(node: implicitChild(forKey: key, state: .unkeyed))
    }

    mutating func superEncoder() -> any Encoder {
        do {
            try node.beginEntry(for: StoredCodingKey.superKey)
        } catch {
            return node
        }
        return node.implicitChild(step: .key(StoredCodingKey.superKey), state: .empty)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        implicitChild(forKey: key, state: .empty)
    }
}

/// The unkeyed container of a ``SinkEncodingNode``.
struct SinkUnkeyedEncodingContainer<Sink: EncodingSink>: UnkeyedEncodingContainer {
    let node: SinkEncodingNode<Sink>

    var codingPath: [any CodingKey] { node.codingPath }
    var count: Int { node.count }

    @inline(__always)
    private var sink: Sink {
        get { node.context.sink }
        _modify { yield &node.context.sink }
    }

    mutating func encodeNil() throws {
        _ = try node.beginElement()
        sink.writeNull()
    }
    mutating func encode(_ value: Bool) throws {
        _ = try node.beginElement()
        sink.writeBool(value)
    }
    mutating func encode(_ value: String) throws {
        _ = try node.beginElement()
        sink.writeString(value)
    }
    mutating func encode(_ value: Int) throws { try writeInt(Int64(value)) }
    mutating func encode(_ value: Int8) throws { try writeInt(Int64(value)) }
    mutating func encode(_ value: Int16) throws { try writeInt(Int64(value)) }
    mutating func encode(_ value: Int32) throws { try writeInt(Int64(value)) }
    mutating func encode(_ value: Int64) throws { try writeInt(value) }
    mutating func encode(_ value: UInt) throws {
        _ = try node.beginElement()
        node.writeInteger(UInt64(value))
    }
    mutating func encode(_ value: UInt8) throws { try writeInt(Int64(value)) }
    mutating func encode(_ value: UInt16) throws { try writeInt(Int64(value)) }
    mutating func encode(_ value: UInt32) throws { try writeInt(Int64(value)) }
    mutating func encode(_ value: UInt64) throws {
        _ = try node.beginElement()
        node.writeInteger(value)
    }
    mutating func encode(_ value: Double) throws {
        _ = try node.beginElement()
        try node.write(value)
    }
    mutating func encode(_ value: Float) throws {
        _ = try node.beginElement()
        try node.write(value)
    }
    mutating func encode<Value: Encodable>(_ value: Value) throws {
        let index = try node.beginElement()
        try node.box(value, step: .index(index))
    }

    private mutating func writeInt(_ value: Int64) throws {
        _ = try node.beginElement()
        sink.writeInt(value)
    }

    /// The child opened at the next element, or this node's when the sink path has given up.
    private func implicitChild(state: SinkEncodingNode<Sink>.State) -> SinkEncodingNode<Sink> {
        let index: Int
        do {
            index = try node.beginElement()
        } catch {
            return node
        }
        return node.implicitChild(step: .index(index), state: state)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        KeyedEncodingContainer(SinkKeyedEncodingContainer<NestedKey, Sink>(node: implicitChild(state: .keyed)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        SinkUnkeyedEncodingContainer(node: implicitChild(state: .unkeyed))
    }

    mutating func superEncoder() -> any Encoder {
        implicitChild(state: .empty)
    }
}

/// A ``SinkEncodingNode`` is its own single-value container.
extension SinkEncodingNode: SingleValueEncodingContainer {
    func encodeNil() throws {
        try beginSingle()
        context.sink.writeNull()
    }
    func encode(_ value: Bool) throws {
        try beginSingle()
        context.sink.writeBool(value)
    }
    func encode(_ value: String) throws {
        try beginSingle()
        context.sink.writeString(value)
    }
    func encode(_ value: Int) throws { try writeSingle(Int64(value)) }
    func encode(_ value: Int8) throws { try writeSingle(Int64(value)) }
    func encode(_ value: Int16) throws { try writeSingle(Int64(value)) }
    func encode(_ value: Int32) throws { try writeSingle(Int64(value)) }
    func encode(_ value: Int64) throws { try writeSingle(value) }
    func encode(_ value: UInt) throws {
        try beginSingle()
        writeInteger(UInt64(value))
    }
    func encode(_ value: UInt8) throws { try writeSingle(Int64(value)) }
    func encode(_ value: UInt16) throws { try writeSingle(Int64(value)) }
    func encode(_ value: UInt32) throws { try writeSingle(Int64(value)) }
    func encode(_ value: UInt64) throws {
        try beginSingle()
        writeInteger(value)
    }
    func encode(_ value: Double) throws {
        try beginSingle()
        try write(value)
    }
    func encode(_ value: Float) throws {
        try beginSingle()
        try write(value)
    }

    func encode<Value: Encodable>(_ value: Value) throws {
        // The value's own encode(to:) writes into a child at the same coding path.
        try beginSingle()
        try box(value, step: nil)
    }

    private func writeSingle(_ value: Int64) throws {
        try beginSingle()
        context.sink.writeInt(value)
    }
}

// 128-bit integers: written here when 64 bits hold them; wider ones take the tree path, which
// stores them as exact decimals or says why it cannot.

extension SinkEncodingNode {
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func write<Integer: BinaryInteger>(wide value: Integer) throws(SinkAbandoned) {
        if let int = Int64(exactly: value) { return context.sink.writeInt(int) }
        if let uint = UInt64(exactly: value) { return context.sink.writeUInt(uint) }
        throw context.abandon()
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: Int128) throws {
        try beginSingle()
        try write(wide: value)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: UInt128) throws {
        try beginSingle()
        try write(wide: value)
    }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension SinkKeyedEncodingContainer {
    mutating func encode(_ value: Int128, forKey key: Key) throws {
        try node.beginEntry(for: key)
        try node.write(wide: value)
    }

    mutating func encode(_ value: UInt128, forKey key: Key) throws {
        try node.beginEntry(for: key)
        try node.write(wide: value)
    }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension SinkUnkeyedEncodingContainer {
    mutating func encode(_ value: Int128) throws {
        _ = try node.beginElement()
        try node.write(wide: value)
    }

    mutating func encode(_ value: UInt128) throws {
        _ = try node.beginElement()
        try node.write(wide: value)
    }
}
