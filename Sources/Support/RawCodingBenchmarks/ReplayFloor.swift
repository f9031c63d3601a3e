import Foundation
import RawCoding

/// The floor under every Codable decoder of a model: the model's own `init(from:)` calls, each
/// answered from a tape recorded once, in call order. Strings are made again from their UTF-8
/// bytes on every replay, as any decoder must make them; nothing is parsed and no key is looked
/// up. No decoder of the model can be faster, so Foundation's time over the replay's is the
/// largest ratio any decoder can reach on that document.
struct ReplayTape {
    enum Answer {
        /// A string's UTF-8 bytes, at `offset` in ``text``, `count` long.
        case string(offset: Int, count: Int)
        case number(int64: Int64?, uint64: UInt64?, double: Double?)
        case bool(Bool)
        /// An array's element count.
        case count(Int)
        /// What `contains` or `decodeNil` answered.
        case flag(Bool)
    }

    /// A call the tape does not answer (a type the benchmark models do not use).
    struct Unanswered: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var answers: [Answer] = []
    private(set) var text: [UInt8] = []

    /// The tape of decoding `Model` from `tree`.
    init<Model: Decodable>(recording type: Model.Type, from tree: StoredValue) throws {
        let recorder = Recorder(tree, tape: Recorder.Tape())
        _ = try Model(from: recorder)
        answers = recorder.tape.answers
        text = recorder.tape.text
    }

    /// `Model` decoded from the tape's answers.
    func replay<Model: Decodable>(_ type: Model.Type) throws -> Model {
        try text.withUnsafeBufferPointer { text in
            let replayer = Replayer(answers: answers, text: text)
            let model = try Model(from: replayer)
            if let mismatch = replayer.firstMismatch { throw mismatch }
            return model
        }
    }
}

// MARK: Recording

/// Decodes from a tree and writes down every answer it gives.
private final class Recorder: Decoder {
    final class Tape {
        var answers: [ReplayTape.Answer] = []
        var text: [UInt8] = []

        func record(_ value: StoredValue) throws {
            switch value {
            case .string(let string):
                answers.append(.string(offset: text.count, count: string.utf8.count))
                text.append(contentsOf: string.utf8)
            case .bool(let bool): answers.append(.bool(bool))
            case .int, .uint, .double, .decimal:
                answers.append(.number(int64: value.int64Value, uint64: value.uint64Value, double: value.doubleValue))
            default: throw ReplayTape.Unanswered(description: "a \(value.kindName) as a scalar")
            }
        }
    }

    let value: StoredValue
    let tape: Tape
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: StoredValue, tape: Tape) {
        self.value = value
        self.tape = tape
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard value.dictionaryValue != nil else { throw ReplayTape.Unanswered(description: "a keyed container") }
        return KeyedDecodingContainer(Keyed<Key>(recorder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let elements = value.arrayValue else { throw ReplayTape.Unanswered(description: "an unkeyed container") }
        tape.answers.append(.count(elements.count))
        return Unkeyed(elements: elements, tape: tape)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(recorder: self) }

    /// `value` read by `read`, written down.
    func scalar<Value>(_ value: StoredValue, _ read: (StoredValue) -> Value?) throws -> Value {
        guard let result = read(value) else {
            throw ReplayTape.Unanswered(description: "a \(value.kindName) read as \(Value.self)")
        }
        try tape.record(value)
        return result
    }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol, AnswersNoNesting {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        func member(_ key: Key) throws -> StoredValue {
            guard let member = recorder.value[key.stringValue] else {
                throw ReplayTape.Unanswered(description: "a missing key \(key.stringValue)")
            }
            return member
        }

        func contains(_ key: Key) -> Bool {
            let found = recorder.value[key.stringValue] != nil
            recorder.tape.answers.append(.flag(found))
            return found
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            let isNull = try member(key) == .null
            recorder.tape.answers.append(.flag(isNull))
            return isNull
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            try recorder.scalar(member(key)) { $0.boolValue }
        }
        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            try recorder.scalar(member(key)) { $0.stringValue }
        }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            try recorder.scalar(member(key)) { $0.doubleValue }
        }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
            try recorder.scalar(member(key)) { $0.int64Value.map(Int.init) }
        }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
            try recorder.scalar(member(key)) { $0.uint64Value }
        }
        func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
            try Value(from: Recorder(member(key), tape: recorder.tape))
        }
    }

    private struct Unkeyed: UnkeyedDecodingContainer, AnswersNoNesting {
        let elements: [StoredValue]
        let tape: Tape
        var codingPath: [any CodingKey] { [] }
        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }
        var currentIndex = 0

        init(elements: [StoredValue], tape: Tape) {
            self.elements = elements
            self.tape = tape
        }

        mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
            guard currentIndex < elements.count else { throw ReplayTape.Unanswered(description: "past an array") }
            currentIndex += 1
            return try Value(from: Recorder(elements[currentIndex - 1], tape: tape))
        }
    }

    private struct Single: SingleValueDecodingContainer {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        func decodeNil() -> Bool { false }
        func decode(_ type: Bool.Type) throws -> Bool { try recorder.scalar(recorder.value) { $0.boolValue } }
        func decode(_ type: String.Type) throws -> String { try recorder.scalar(recorder.value) { $0.stringValue } }
        func decode(_ type: Double.Type) throws -> Double { try recorder.scalar(recorder.value) { $0.doubleValue } }
        func decode(_ type: Int.Type) throws -> Int {
            try recorder.scalar(recorder.value) { $0.int64Value.map(Int.init) }
        }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try recorder.scalar(recorder.value) { $0.uint64Value } }
        func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
            throw ReplayTape.Unanswered(description: "a single \(Value.self)")
        }
    }
}

// MARK: Replaying

/// Answers every call from the tape, in order.
private final class Replayer: Decoder {
    let answers: [ReplayTape.Answer]
    let text: UnsafeBufferPointer<UInt8>
    var next = 0
    /// The first mismatch a call that cannot throw met.
    var firstMismatch: (any Error)?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(answers: [ReplayTape.Answer], text: UnsafeBufferPointer<UInt8>) {
        self.answers = answers
        self.text = text
    }

    @inline(__always)
    func take() throws -> ReplayTape.Answer {
        guard next < answers.count else { throw ReplayTape.Unanswered(description: "a call past the tape") }
        next += 1
        return answers[next - 1]
    }

    func string() throws -> String {
        guard case .string(let offset, let count) = try take() else { throw mismatch("a string") }
        return String(decoding: UnsafeBufferPointer(rebasing: text[offset..<(offset + count)]), as: UTF8.self)
    }

    func number() throws -> (int64: Int64?, uint64: UInt64?, double: Double?) {
        guard case .number(let int64, let uint64, let double) = try take() else { throw mismatch("a number") }
        return (int64, uint64, double)
    }

    func int() throws -> Int {
        guard let value = try number().int64 else { throw mismatch("an Int") }
        return Int(value)
    }

    func uint64() throws -> UInt64 {
        guard let value = try number().uint64 else { throw mismatch("a UInt64") }
        return value
    }

    func double() throws -> Double {
        guard let value = try number().double else { throw mismatch("a Double") }
        return value
    }

    func bool() throws -> Bool {
        guard case .bool(let value) = try take() else { throw mismatch("a Bool") }
        return value
    }

    func flag() throws -> Bool {
        guard case .flag(let value) = try take() else { throw mismatch("contains or decodeNil") }
        return value
    }

    func mismatch(_ asked: String) -> ReplayTape.Unanswered {
        ReplayTape.Unanswered(description: "\(asked) asked at answer \(next - 1), which answers another call")
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed<Key>(replayer: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .count(let count) = try take() else { throw mismatch("an array") }
        return Unkeyed(replayer: self, elementCount: count)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(replayer: self) }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol, AnswersNoNesting {
        let replayer: Replayer
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }
        /// `contains` cannot throw: a mismatch is kept and thrown when the replay ends.
        func contains(_ key: Key) -> Bool {
            do {
                return try replayer.flag()
            } catch {
                replayer.firstMismatch = replayer.firstMismatch ?? error
                return false
            }
        }
        func decodeNil(forKey key: Key) throws -> Bool { try replayer.flag() }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try replayer.bool() }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try replayer.string() }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try replayer.double() }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try replayer.int() }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try replayer.uint64() }
        func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
            try Value(from: replayer)
        }
    }

    private struct Unkeyed: UnkeyedDecodingContainer, AnswersNoNesting {
        let replayer: Replayer
        let elementCount: Int
        var codingPath: [any CodingKey] { [] }
        var count: Int? { elementCount }
        var isAtEnd: Bool { currentIndex >= elementCount }
        var currentIndex = 0

        init(replayer: Replayer, elementCount: Int) {
            self.replayer = replayer
            self.elementCount = elementCount
        }

        mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
            currentIndex += 1
            return try Value(from: replayer)
        }
    }

    private struct Single: SingleValueDecodingContainer {
        let replayer: Replayer
        var codingPath: [any CodingKey] { [] }
        func decodeNil() -> Bool { false }
        func decode(_ type: Bool.Type) throws -> Bool { try replayer.bool() }
        func decode(_ type: String.Type) throws -> String { try replayer.string() }
        func decode(_ type: Double.Type) throws -> Double { try replayer.double() }
        func decode(_ type: Int.Type) throws -> Int { try replayer.int() }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try replayer.uint64() }
        func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
            throw ReplayTape.Unanswered(description: "a single \(Value.self)")
        }
    }
}

// MARK: Calls no benchmark model makes

/// The recorder's and the replayer's containers: nested containers, super decoders and nulls
/// in arrays are calls the benchmark models never make, so they are errors.
private protocol AnswersNoNesting {}

extension KeyedDecodingContainerProtocol where Self: AnswersNoNesting {
    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw ReplayTape.Unanswered(description: "a nested keyed container")
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw ReplayTape.Unanswered(description: "a nested unkeyed container")
    }
    func superDecoder() throws -> any Decoder { throw ReplayTape.Unanswered(description: "a super decoder") }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw ReplayTape.Unanswered(description: "a super decoder")
    }
}

extension UnkeyedDecodingContainer where Self: AnswersNoNesting {
    mutating func decodeNil() throws -> Bool { throw ReplayTape.Unanswered(description: "decodeNil in an array") }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw ReplayTape.Unanswered(description: "a nested keyed container")
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw ReplayTape.Unanswered(description: "a nested unkeyed container")
    }
    mutating func superDecoder() throws -> any Decoder { throw ReplayTape.Unanswered(description: "a super decoder") }
}
