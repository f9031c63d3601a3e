import Foundation
import RawCoding
import Testing

/// `JSONCodec.encode` and the XML `PropertyListCodec.encode` write a model straight into the
/// writer; writing the tree that `encodeTree` builds is the reference. Both must give the same
/// bytes or the same error for every value, whatever shape its `encode(to:)` takes.
@Suite("Encoding into the writers")
struct SinkEncodingTests {
    /// The codecs that encode through a sink, in each layout.
    static let codecs: [any Codec] = [
        JSONCodec(), JSONCodec(formatting: .pretty), JSONCodec(keys: .snakeCase), PropertyListCodec(format: .xml),
        PropertyListCodec(format: .binary),
    ]

    /// The outcome of an encode: the bytes, or the error's kind, path and reason.
    static func outcome(_ body: () throws -> Data) -> Result<Data, JSONScanDecodingTests.Failure> {
        do {
            return .success(try body())
        } catch let error as RawCodingError {
            return .failure(.init(text: "\(error.kind) at \(error.codingPathDescription): \(error.reason)"))
        } catch {
            return .failure(.init(text: "not a RawCodingError: \(error)"))
        }
    }

    static func compare<Value: Encodable>(
        _ value: Value, codecs: [any Codec] = Self.codecs,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for codec in codecs {
            let written = outcome { try codec.encode(value) }
            let throughTree = outcome { try codec.writeTree(codec.encodeTree(value)) }
            #expect(
                written == throughTree,
                "\(Value.self) \(codec): \(written.map { String(decoding: $0, as: UTF8.self) }) against \(throughTree.map { String(decoding: $0, as: UTF8.self) })",
                sourceLocation: sourceLocation)
        }
    }

    // MARK: Shapes an encode(to:) can take

    /// Writes into its nested container after writing the parent again.
    struct Interleaved: Encodable {
        enum Keys: String, CodingKey { case z, a, m }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .m)
            try container.encode(1, forKey: .z)
            try nested.encode("late", forKey: .a)
            var list = container.nestedUnkeyedContainer(forKey: .a)
            try list.encode(true)
        }
    }

    /// Nested containers used one after another, as synthesized enums and most hand-written
    /// encoders use them.
    struct InOrder: Encodable {
        enum Keys: String, CodingKey { case z, a, m }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .z)
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .m)
            try nested.encode("b", forKey: .z)
            try nested.encode("a", forKey: .a)
            var list = container.nestedUnkeyedContainer(forKey: .a)
            try list.encode(true)
            var inner = list.nestedUnkeyedContainer()
            try inner.encode(2)
            _ = list.nestedContainer(keyedBy: Keys.self)
            try writeBase(list.superEncoder())
        }
        func writeBase(_ encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            try single.encode("super")
        }
    }

    /// The same key twice: the tree keeps the first position and the last value.
    struct RepeatedKey: Encodable {
        enum Keys: String, CodingKey { case b, a }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .b)
            try container.encode(2, forKey: .a)
            try container.encode([3], forKey: .b)
        }
    }

    /// Two single values into one encoder: the second replaces the first.
    struct TwoSingles: Encodable {
        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            try single.encode("first")
            try single.encode(2)
        }
    }

    /// Asks for a keyed container twice, as a subclass sharing its encoder with its base does.
    struct SharedContainer: Encodable {
        enum Keys: String, CodingKey { case y, x }
        func encode(to encoder: any Encoder) throws {
            var first = encoder.container(keyedBy: Keys.self)
            try first.encode(1, forKey: .y)
            var second = encoder.container(keyedBy: Keys.self)
            try second.encode(2, forKey: .x)
        }
    }

    /// Mixes container kinds in one encoder: a misuse reported when the call ends.
    struct Mixed: Encodable {
        enum Keys: String, CodingKey { case a }
        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            try single.encode(1)
            var keyed = encoder.container(keyedBy: Keys.self)
            try keyed.encode(2, forKey: .a)
        }
    }

    /// Catches a refusal and goes on: what it wrote before the refusal must not stay.
    struct Catching: Encodable {
        enum Keys: String, CodingKey { case bad, worse, good }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            // JSON cannot hold a NaN decimal; an XML property list cannot hold a date's
            // fraction of a second. The tree path refuses both when it writes the tree.
            do {
                try container.encode(Decimal.nan, forKey: .bad)
            } catch {
                try container.encode("recovered", forKey: .good)
            }
            do {
                try container.encode(Date(timeIntervalSinceReferenceDate: 0.5), forKey: .worse)
            } catch {
                try container.encode("recovered", forKey: .good)
            }
        }
    }

    /// Catches a value's own error after the value wrote part of itself, in a keyed and an
    /// unkeyed container (swift-foundation's `sharedSubEncoderStaleState` cases): the failed
    /// value is not stored, partly or at all, and what follows is written as itself.
    struct CatchingPartial: Encodable {
        enum Keys: String, CodingKey { case before, failed, failedInDictionary, list, after }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .before)
            try? container.encode(Failing(), forKey: .failed)
            try? container.encode(["key": Failing()], forKey: .failedInDictionary)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(1)
            try? list.encode(Failing())
            try? list.encode([Failing()])
            try list.encode(2)
            try container.encode(nil as Int?, forKey: .after)
        }
    }

    /// A value whose `encode(to:)` writes into its parent's container while it runs.
    struct Reentrant: Encodable {
        enum Keys: String, CodingKey { case outer, inner, late }
        final class Child: Encodable, @unchecked Sendable {
            var parent: KeyedEncodingContainer<Keys>
            init(parent: KeyedEncodingContainer<Keys>) { self.parent = parent }
            func encode(to encoder: any Encoder) throws {
                var own = encoder.container(keyedBy: Keys.self)
                try own.encode(1, forKey: .inner)
                try parent.encode(2, forKey: .late)
                try own.encode(3, forKey: .outer)
            }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(Child(parent: container), forKey: .outer)
        }
    }

    /// Encodes nothing.
    struct Nothing: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    /// Throws its own error after writing part of its value.
    struct Failing: Encodable {
        struct Refusal: Error {}
        enum Keys: String, CodingKey { case a }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .a)
            throw EncodingError.invalidValue(1, .init(codingPath: encoder.codingPath, debugDescription: "refused"))
        }
    }

    struct Scalars: Encodable {
        var decimal: Decimal
        var float: Float
        var double: Double
        var url = URL(string: "https://example.com/a?b=c")!
        var date = Date(timeIntervalSinceReferenceDate: 1.25)
        var data = Data([0, 1, 2, 255])
        var wide: Int128 = 0
        var tree: StoredValue = ["z": [1, "two", .null, 3.5, false], "a": [:], "m": []]
    }

    final class Nest: Encodable, Sendable {
        let inner: Nest?
        let value: Int
        init(inner: Nest?, value: Int) {
            self.inner = inner
            self.value = value
        }
    }

    static func nest(_ depth: Int) -> Nest {
        var nest = Nest(inner: nil, value: 0)
        for level in 1..<depth { nest = Nest(inner: nest, value: level) }
        return nest
    }

    @Test func everyShapeOfEncodeWritesWhatTheTreeWrites() {
        Self.compare(Interleaved())
        Self.compare(Reentrant())
        Self.compare(InOrder())
        Self.compare([InOrder(), InOrder()])
        Self.compare(RepeatedKey())
        Self.compare(["x": RepeatedKey()])
        Self.compare(TwoSingles())
        Self.compare([TwoSingles()])
        Self.compare(SharedContainer())
        Self.compare(Mixed())
        Self.compare(Catching())
        Self.compare(CatchingPartial())
        Self.compare(Nothing())
        Self.compare([Nothing()])
        Self.compare(["a": Nothing()])
        Self.compare(Failing())
        Self.compare([Failing()])
        Self.compare(Dog(name: "Rex", breed: "Collie"))
        Self.compare([Dog(name: "Rex", breed: "Collie")])
        Self.compare(SuperKeys(base: Primitives(), items: [1, 2, 3]))
        Self.compare([Figure.circle(radius: 1), .rectangle(width: 2, height: 3), .pair(4, "five"), .point])
        Self.compare(Expression.add(.number(1), .negate(.number(2))))
        Self.compare(ListNode("a", next: ListNode("b")))
        Self.compare(Collections())
        Self.compare(Dictionaries())
        Self.compare(IntegerWidths.minimum)
        Self.compare(IntegerWidths.maximum)
        Self.compare(Floats())
        Self.compare(NestedOptionals(twice: .some(nil), thrice: .some(.some(nil))))
        Self.compare([OptionalFields(), OptionalFields(name: "n", count: 1, nested: Primitives(), list: [])])
    }

    @Test func scalarsAndOptionsWriteWhatTheTreeWrites() {
        let codecs: [any Codec] = [
            JSONCodec(), JSONCodec(formatting: .pretty), JSONCodec(dates: .secondsSince1970),
            JSONCodec(dates: .iso8601), JSONCodec(data: .byteArray), JSONCodec(keys: .snakeCase),
            JSONCodec(nonFiniteNumbers: .throw), PropertyListCodec(format: .xml), PropertyListCodec(format: .binary),
        ]
        let values = [
            Scalars(decimal: Decimal(string: "12345678901234567890.123456789")!, float: 3.14, double: 0.1),
            Scalars(decimal: .nan, float: 1, double: 1),
            Scalars(decimal: 1, float: .infinity, double: -.infinity, wide: Int128(Int64.max) * 4),
            Scalars(decimal: -0.5, float: -0, double: .nan, wide: -1),
            Scalars(decimal: 0, float: .leastNonzeroMagnitude, double: -65.613616999999977, wide: .max),
        ]
        for value in values {
            Self.compare(value, codecs: codecs)
            Self.compare([value], codecs: codecs)
        }
        Self.compare(Double.nan, codecs: codecs)
        Self.compare(Float(0.1), codecs: codecs)
        Self.compare(Date(timeIntervalSince1970: 0), codecs: codecs)
        // A date is a number in the tree, written without the non-finite strategy (found by
        // fuzzing: the sink had written a NaN date as the string "NaN").
        Self.compare(Date(timeIntervalSinceReferenceDate: .nan), codecs: codecs)
        Self.compare([Date(timeIntervalSinceReferenceDate: -.infinity)], codecs: codecs)
        Self.compare(Data(), codecs: codecs)
        Self.compare(StoredValue.null, codecs: codecs)
        Self.compare(StoredValue.data(Data([1])), codecs: codecs)
        Self.compare(StoredValue.date(Date(timeIntervalSinceReferenceDate: 0)), codecs: codecs)
    }

    @Test func limitsRefuseAsTheTreePathDoes() {
        let codecs: [any Codec] = [
            JSONCodec(limits: Limits(maximumDepth: 3)), JSONCodec(limits: Limits(maximumValueCount: 6)),
            JSONCodec(limits: Limits(maximumInputBytes: 20)),
            JSONCodec(formatting: .pretty, limits: Limits(maximumInputBytes: 40)),
            PropertyListCodec(format: .xml, limits: Limits(maximumDepth: 3)),
            PropertyListCodec(format: .xml, limits: Limits(maximumValueCount: 6)),
            PropertyListCodec(format: .xml, limits: Limits(maximumInputBytes: 300)),
            PropertyListCodec(format: .binary, limits: Limits(maximumDepth: 3)),
            PropertyListCodec(format: .binary, limits: Limits(maximumValueCount: 6)),
            PropertyListCodec(format: .binary, limits: Limits(maximumInputBytes: 60)),
        ]
        Self.compare([[[1]]], codecs: codecs)
        Self.compare([[[[1]]]], codecs: codecs)
        Self.compare([1, 2, 3, 4, 5], codecs: codecs)
        Self.compare([1, 2, 3, 4, 5, 6], codecs: codecs)
        Self.compare(["a": [1, 2], "b": [3]], codecs: codecs)
        Self.compare(Self.nest(3), codecs: codecs)
        Self.compare(Self.nest(5), codecs: codecs)
        Self.compare(String(repeating: "x", count: 30), codecs: codecs)
        Self.compare(Self.nest(600))
        Self.compare(Self.nest(400))
    }

    @Test func randomValuesWriteWhatTheTreeWrites() throws {
        var generator = SeededGenerator(state: 2_027)
        let codec = JSONCodec()
        var models = 0
        for _ in 0..<800 {
            let tree = StoredValue.random(using: &generator, depth: 4)
            Self.compare(tree)
            Self.compare(["tree": tree, "list": [tree, tree]])
            // Models read from the tree's text, written back.
            guard let bytes = try? codec.writeTree(tree) else { continue }  // NaN and the like: not a document
            if let node = try? codec.decode(TreeNode.self, from: bytes) {
                models += 1
                Self.compare(node)
            }
            if let fields = try? codec.decode([OptionalFields?].self, from: bytes) {
                models += 1
                Self.compare(fields)
            }
            if let dictionary = try? codec.decode([String: StoredValue].self, from: bytes) {
                models += 1
                Self.compare(dictionary)
            }
        }
        #expect(models > 50)
    }

    @Test func dictionariesOfManyKeysAreWrittenInCanonicalOrder() throws {
        var generator = SeededGenerator(state: 7)
        for size in [2, 3, 17, 40, 300] {
            var dictionary: [String: [String: Int]] = [:]
            for index in 0..<size {
                let key =
                    String(
                        (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                            "ab\"é\u{1}😀".randomElement(using: &generator)!
                        }) + "\(index)"
                dictionary[key] = ["z\(index)": index, "a": -index]
            }
            Self.compare(dictionary)
            let text = try JSONCodec().encodeToString(dictionary)
            #expect(try JSONCodec().writeTree(JSONCodec().readTree(from: Data(text.utf8))) == Data(text.utf8))
        }
    }

    /// An encoder kept past `encode(to:)` and written into afterwards changes nothing that was
    /// returned, and does not crash.
    @Test func aValueThatThrowsAndIsCaughtLeavesNothingBehind() throws {
        #expect(
            try JSONCodec().encodeToString(CatchingPartial()) == #"{"after":null,"before":1,"list":[1,2]}"#)
        let binary = PropertyListCodec(format: .binary)
        #expect(
            try binary.readTree(from: binary.encode(CatchingPartial())) == [
                "before": 1, "list": [1, 2], "after": "$null",
            ])
    }

    @Test func anEncoderKeptPastItsCallIsHarmless() throws {
        final class Keeper: Encodable, @unchecked Sendable {
            var kept: (any Encoder)?
            func encode(to encoder: any Encoder) throws {
                kept = encoder
                var single = encoder.singleValueContainer()
                try single.encode(1)
            }
        }
        let keeper = Keeper()
        let bytes = try JSONCodec().encode(keeper)
        #expect(String(decoding: bytes, as: UTF8.self) == "1")
        var single = try #require(keeper.kept).singleValueContainer()
        _ = try? single.encode(2)
        var keyed = try #require(keeper.kept).container(keyedBy: StoredCodingKeyForTests.self)
        _ = try? keyed.encode(3, forKey: StoredCodingKeyForTests(stringValue: "a"))
        var unkeyed = try #require(keeper.kept).unkeyedContainer()
        _ = try? unkeyed.encode(4)
        #expect(String(decoding: bytes, as: UTF8.self) == "1")
        #expect(try JSONCodec().encodeToString([keeper]) == "[1]")
    }

    /// Encodes another value with a codec of its own inside its own encode, as a model that
    /// stores a nested document as text does: the inner encode runs while the outer one holds
    /// the thread's sink.
    struct EncodesInside: Encodable {
        let inner: [String: Double]
        let codec: JSONCodec
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: StoredCodingKeyForTests.self)
            try container.encode("before", forKey: StoredCodingKeyForTests(stringValue: "z"))
            try container.encode(codec.encodeToString(inner), forKey: StoredCodingKeyForTests(stringValue: "text"))
            try container.encode(inner, forKey: StoredCodingKeyForTests(stringValue: "a"))
        }
    }

    @Test func encodesOnOneThreadAfterAndInsideEachOtherWriteTheirOwnBytes() throws {
        let compact = JSONCodec()
        let pretty = JSONCodec(formatting: .pretty)
        let inner = ["y": 1.5, "b": -2]
        let large = (0..<3_000).map { "element \($0)" }
        let expectedLarge = try compact.writeTree(compact.encodeTree(large))
        for round in 0..<3 {
            // The outer encode's sink is in use while the inner one runs, with either layout.
            for (outer, innerCodec) in [(compact, pretty), (pretty, compact), (compact, compact)] {
                let value = EncodesInside(inner: inner, codec: innerCodec)
                let written = try outer.encode(value)
                #expect(written == (try outer.writeTree(outer.encodeTree(value))), "round \(round)")
                let text = try #require(try outer.readTree(from: written)["text"]?.stringValue)
                #expect(text == (try innerCodec.encodeToString(inner)))
            }
            // A document larger than the kept buffers, then small ones again.
            #expect(try compact.encode(large) == expectedLarge)
            #expect(try compact.encodeToString(inner) == #"{"b":-2,"y":1.5}"#)
            #expect(try pretty.encodeToString(["k": 1]) == "{\n  \"k\" : 1\n}")
            // A value the sink path gives up on (a repeated key) leaves the next encode whole.
            #expect(try compact.encode(RepeatedKey()) == (try compact.writeTree(compact.encodeTree(RepeatedKey()))))
            #expect(try compact.encodeToString(["a": [1, 2]]) == #"{"a":[1,2]}"#)
        }
    }

    /// As ``EncodesInside``, with an XML property list inside.
    struct PropertyListInside: Encodable {
        let inner: [String: Double]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: StoredCodingKeyForTests.self)
            try container.encode(
                PropertyListCodec(format: .xml).encodeToString(inner),
                forKey: StoredCodingKeyForTests(stringValue: "text"))
            try container.encode(inner, forKey: StoredCodingKeyForTests(stringValue: "a"))
        }
    }

    @Test func propertyListEncodesOnOneThreadAfterAndInsideEachOtherWriteTheirOwnBytes() throws {
        let xml = PropertyListCodec(format: .xml)
        let shallow = PropertyListCodec(format: .xml, limits: Limits(maximumDepth: 1))
        let binary = PropertyListCodec(format: .binary)
        let inner = ["y": 1.5, "b": -2]
        let large = (0..<3_000).map { "element \($0)" }
        let expectedLarge = try xml.writeTree(xml.encodeTree(large))
        for round in 0..<3 {
            for outer in [xml, xml] {
                let value = PropertyListInside(inner: inner)
                #expect(try outer.encode(value) == (try outer.writeTree(outer.encodeTree(value))), "round \(round)")
                let text = try #require(try outer.readTree(from: outer.encode(value))["text"]?.stringValue)
                #expect(text == (try xml.encodeToString(inner)))
            }
            #expect(try xml.encode(large) == expectedLarge)
            #expect(try binary.decode([String: Double].self, from: binary.encode(inner)) == inner)
            // A shallower codec on the same thread refuses what the default takes, and back.
            #expect(throws: RawCodingError.self) { try shallow.encode(["a": ["b": 1]]) }
            #expect(try xml.readTree(from: xml.encode(["a": ["b": 1]])) == ["a": ["b": 1]])
            #expect(try xml.encode(RepeatedKey()) == (try xml.writeTree(xml.encodeTree(RepeatedKey()))))
        }
    }

    /// As ``EncodesInside``, with a binary property list inside, and values the layout shares
    /// (a string equal to a key, the same data twice).
    struct BinaryInside: Encodable {
        let inner: [String: Double]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: StoredCodingKeyForTests.self)
            let bytes = try PropertyListCodec(format: .binary).encode(inner)
            try container.encode(bytes, forKey: StoredCodingKeyForTests(stringValue: "bytes"))
            try container.encode(inner, forKey: StoredCodingKeyForTests(stringValue: "a"))
            try container.encode("bytes", forKey: StoredCodingKeyForTests(stringValue: "name"))
            try container.encode(bytes, forKey: StoredCodingKeyForTests(stringValue: "again"))
        }
    }

    /// The binary sink is kept for the thread's next encode: each encode after another, inside
    /// another, after a large one or after one that gave up writes its own bytes.
    @Test func binaryPropertyListEncodesOnOneThreadAfterAndInsideEachOtherWriteTheirOwnBytes() throws {
        let binary = PropertyListCodec(format: .binary)
        let inner = ["y": 1.5, "b": -2]
        let large = (0..<3_000).map { "element \($0 % 1_000)" }
        let expectedLarge = try binary.writeTree(binary.encodeTree(large))
        let innerBytes = try binary.writeTree(binary.encodeTree(inner))
        for round in 0..<3 {
            let value = BinaryInside(inner: inner)
            let written = try binary.encode(value)
            #expect(written == (try binary.writeTree(binary.encodeTree(value))), "round \(round)")
            #expect(try binary.readTree(from: written)["again"]?.dataValue == innerBytes)
            #expect(try binary.encode(large) == expectedLarge)
            #expect(try binary.encode(inner) == innerBytes)
            #expect(try binary.encode(RepeatedKey()) == (try binary.writeTree(binary.encodeTree(RepeatedKey()))))
            // An encode the sink gives up on part-way (a date no reader takes) leaves the next whole.
            #expect(throws: RawCodingError.self) {
                try binary.encode([
                    "a": Date(timeIntervalSinceReferenceDate: 1), "b": Date(timeIntervalSinceReferenceDate: 1e300),
                ])
            }
            #expect(try binary.encode(["b": -2.0, "y": 1.5]) == innerBytes)
        }
    }

    @Test func codecsWithDifferentOptionsOnOneThreadEachWriteTheirOwn() throws {
        struct Dated: Codable, Equatable {
            var at = Date(timeIntervalSinceReferenceDate: 1.5)
            var ratio = Double.infinity
        }
        let plain = JSONCodec()
        let since1970 = JSONCodec(dates: .secondsSince1970)
        let named = JSONCodec(nonFiniteNumbers: .strings(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"))
        let shallow = JSONCodec(limits: Limits(maximumDepth: 1))
        for _ in 0..<3 {
            for codec in [plain, since1970, named, shallow, plain] {
                #expect(
                    Self.outcome { try codec.encode(Dated()) }
                        == Self.outcome { try codec.writeTree(codec.encodeTree(Dated())) }, "\(codec)")
            }
            #expect(try plain.encodeToString(Dated()) == #"{"at":1.5,"ratio":"Infinity"}"#)
            #expect(try since1970.encodeToString(Dated()) == #"{"at":978307201.5,"ratio":"Infinity"}"#)
            #expect(try named.encodeToString(Dated()) == #"{"at":1.5,"ratio":"inf"}"#)
            #expect(throws: RawCodingError.self) { try shallow.encode(["a": ["b": 1]]) }
        }
    }

    /// Keys of every shape snake case meets: words, acronyms, digits, underscores, keys that
    /// would read back as another name (refused by the tree path, with its message), and
    /// `[String: Value]` keys, which are data and kept as they are, at the top too.
    struct CamelKeys: Encodable {
        var userName = "u"
        var myURLValue = 1
        var item2B = true
        var aBCd = 2.5
        var _private = "p"
        var ID = 3
        var isPrivate: Bool? = false
        var byName = ["keepMe": 1, "HTTPServer": 2]
        var nested: [String: CamelKeys]? = nil
        var tree: StoredValue = ["treeKey": ["innerKey": 1]]
        var list = [["listKey": "v"]]
    }

    struct Accented: Encodable {
        var accented = "é"
        var plain = 1
        enum CodingKeys: String, CodingKey {
            case accented = "élanVital"
            case plain = "plainÉtat"
        }
    }

    struct ExplicitKey: Encodable {
        var value = 1
        enum CodingKeys: String, CodingKey { case value = "snake_value" }
    }

    /// Records which encoder wrote it.
    final class EncoderProbe: Encodable, @unchecked Sendable {
        var encoders: [String] = []
        enum Keys: String, CodingKey { case fontSize }
        func encode(to encoder: any Encoder) throws {
            encoders.append("\(type(of: encoder))")
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .fontSize)
        }
    }

    @Test func snakeCaseKeysAreWrittenByTheSinkAsTheTreeWritesThem() throws {
        let codecs: [any Codec] = [JSONCodec(keys: .snakeCase), JSONCodec(formatting: .pretty, keys: .snakeCase)]
        Self.compare(CamelKeys(), codecs: codecs)
        Self.compare(CamelKeys(nested: ["innerModel": CamelKeys()]), codecs: codecs)
        Self.compare(["topKey": CamelKeys()], codecs: codecs)
        Self.compare(["topKey": 1, "otherKey": 2] as [String: Int]?, codecs: codecs)
        Self.compare(["topKey": 1, "otherKey": 2], codecs: codecs)
        Self.compare(["topKey": ["innerKey": 1]], codecs: codecs)
        Self.compare(StoredDictionary([("topKey", 1)]), codecs: codecs)
        Self.compare(ExplicitKey(), codecs: codecs)
        Self.compare(Accented(), codecs: codecs)
        Self.compare([Accented()], codecs: codecs)
        Self.compare([ExplicitKey()], codecs: codecs)
        Self.compare(SuperKeys(base: Primitives(), items: [1]), codecs: codecs)

        let codec = JSONCodec(keys: .snakeCase)
        let refusedURL = #expect(throws: RawCodingError.self) { try codec.encode(CamelKeys()) }
        #expect(refusedURL?.codingPathDescription == "myURLValue")
        let refused = #expect(throws: RawCodingError.self) { try codec.encode([ExplicitKey()]) }
        #expect(refused?.codingPathDescription == "[0].snake_value")
        struct Readable: Encodable {
            var userName = "u"
            var item2B = true
            var byName = ["keepMe": 1, "alsoThis": 2]
            var tree: StoredValue = ["treeKey": ["innerKey": 1]]
            var nested: [String: [String: Int]]? = ["outerKey": ["innerKey": 1]]
        }
        Self.compare(Readable(), codecs: codecs)
        #expect(try codec.encodeToString(Accented()) == #"{"plain_état":1,"élan_vital":"é"}"#)
        #expect(try codec.encodeToString(["topKey": ["innerKey": 1]]) == #"{"topKey":{"innerKey":1}}"#)
        #expect(
            try codec.encodeToString(Readable())
                == #"{"by_name":{"alsoThis":2,"keepMe":1},"item2_b":true,"nested":{"outerKey":{"innerKey":1}},"tree":{"treeKey":{"innerKey":1}},"user_name":"u"}"#
        )

        // The sink writes them: the model sees its encoder, not the tree's.
        let probe = EncoderProbe()
        #expect(try codec.encodeToString([probe]) == #"[{"font_size":1}]"#)
        #expect(probe.encoders.count == 1 && probe.encoders[0].hasPrefix("SinkEncodingNode"), "\(probe.encoders)")
        // Alternating with default keys on one thread, each codec writes its own keys.
        for _ in 0..<3 {
            #expect(try JSONCodec().encodeToString(EncoderProbe()) == #"{"fontSize":1}"#)
            #expect(try codec.encodeToString(EncoderProbe()) == #"{"font_size":1}"#)
        }
    }

    /// Keys made at run time (heap strings, freed between encodes) and more keys than the
    /// thread's table of converted keys has room for: each written as the tree writes it.
    struct RunTimeKeys: Encodable {
        var names: [String]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: StoredCodingKeyForTests.self)
            for (index, name) in names.enumerated() {
                try container.encode(index, forKey: StoredCodingKeyForTests(stringValue: name))
            }
        }
    }

    @Test func snakeCaseKeysMadeAtRunTimeAreConvertedEachTime() {
        let codecs: [any Codec] = [JSONCodec(keys: .snakeCase)]
        var generator = SeededGenerator(state: 99)
        // Words whose keys read back, so every encode is the sink's (one key that does not
        // would send the whole value to the tree path).
        let words = ["value", "Value", "Id", "x", "2", "Über"]
        for round in 0..<60 {
            let names = (0..<40).map { index in
                let middle = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                    words.randomElement(using: &generator)!
                }
                return "k\(round)" + middle.joined() + "Number\(index)"
            }
            Self.compare(RunTimeKeys(names: Array(Set(names))), codecs: codecs)
        }
    }

    @Test func encodeToStringIsTheTextOfEncode() throws {
        var generator = SeededGenerator(state: 41)
        for codec in [JSONCodec(), JSONCodec(formatting: .pretty), JSONCodec(keys: .snakeCase)] {
            for _ in 0..<300 {
                let tree = StoredValue.random(using: &generator, depth: 3)
                let data = Self.outcome { try codec.encode(tree) }
                let text = Self.outcome { Data(try codec.encodeToString(tree).utf8) }
                #expect(data == text)
            }
        }
    }

    struct StoredCodingKeyForTests: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
