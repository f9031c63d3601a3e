import Foundation
import RawCoding
import Testing

/// One model shape: a value, and the checks run on it.
struct EngineShape: CustomTestStringConvertible, Sendable {
    var name: String
    var roundTrip: @Sendable () throws -> Void
    var matchesFoundationTree: @Sendable () throws -> Void
    var decodesFoundationTree: @Sendable () throws -> Void
    var testDescription: String { name }

    /// - Parameter hashOrdered: The value holds a Swift `Set` or `Dictionary`, whose order
    ///   (and so the tree's) can differ between two equal values.
    init<Value: Codable & Equatable & Sendable>(_ name: String, _ value: Value, hashOrdered: Bool = false) {
        self.name = name
        roundTrip = {
            let tree = try StoredValueEncoder().encode(value)
            let back = try StoredValueDecoder().decode(Value.self, from: tree)
            #expect(back == value, "\(name): \(tree)")
            // Encoding is deterministic: an equal value gives the same tree, key order included.
            if !hashOrdered {
                #expect(try StoredValueEncoder().encode(back).description == tree.description)
            }
        }
        matchesFoundationTree = {
            let ours = try EngineShape.jsonCompatibleEncoder.encode(value)
            let theirs = try EngineShape.foundationTree(value)
            #expect(ours.matchesAsJSON(theirs), "\(name)\n ours:       \(ours)\n Foundation: \(theirs)")
        }
        decodesFoundationTree = {
            let theirs = try EngineShape.foundationTree(value)
            #expect(
                try EngineShape.jsonCompatibleDecoder.decode(Value.self, from: theirs) == value, "\(name): \(theirs)")
        }
    }

    /// Our encoder set up the way `JSONEncoder` stores dates and bytes.
    static let jsonCompatibleEncoder: StoredValueEncoder = {
        var encoder = StoredValueEncoder()
        encoder.dates = .secondsSinceReferenceDate
        encoder.data = .base64
        return encoder
    }()

    static let jsonCompatibleDecoder: StoredValueDecoder = {
        var decoder = StoredValueDecoder()
        decoder.dates = .secondsSinceReferenceDate
        decoder.data = .base64
        return decoder
    }()

    /// Foundation's usual answer: `JSONEncoder`, then `JSONSerialization`, then the bridge.
    static func foundationTree<Value: Encodable>(_ value: Value) throws -> StoredValue {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value), options: .fragmentsAllowed)
        return try StoredValue(propertyList: object)
    }
}

extension StoredValue {
    /// Equal as JSON sees it: numbers by value (JSON text does not say whether 2 is an Int or
    /// a Double), everything else exactly.
    func matchesAsJSON(_ other: StoredValue) -> Bool {
        switch (self, other) {
        case (.int, _), (.uint, _), (.double, _), (.decimal, _):
            guard let left = doubleValue, let right = other.doubleValue else { return false }
            if let leftInt = int64Value, let rightInt = other.int64Value { return leftInt == rightInt }
            if let leftUInt = uint64Value, let rightUInt = other.uint64Value { return leftUInt == rightUInt }
            return left == right
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.matchesAsJSON($1) }
        case (.dictionary(let left), .dictionary(let right)):
            return left.count == right.count
                && left.allSatisfy { entry in
                    right[entry.key].map { entry.value.matchesAsJSON($0) } ?? false
                }
        default:
            return self == other
        }
    }
}

@Suite("StoredValue engine: round trips and Foundation differential")
struct EngineRoundTripTests {
    static let shapes: [EngineShape] = [
        EngineShape("empty struct", Empty()),
        EngineShape("primitives", Primitives()),
        EngineShape("integer minimums", IntegerWidths.minimum),
        EngineShape("integer maximums", IntegerWidths.maximum),
        EngineShape("floats", Floats()),
        EngineShape("optionals present", OptionalFields(name: "x", count: 0, nested: Primitives(), list: [])),
        EngineShape("optionals absent", OptionalFields()),
        EngineShape(
            "nested optionals present", NestedOptionals(twice: .some(.some(5)), thrice: .some(.some(.some("x"))))),
        EngineShape("nested optionals absent", NestedOptionals(twice: nil, thrice: nil)),
        EngineShape("collections", Collections(), hashOrdered: true),
        EngineShape("dictionaries", Dictionaries(), hashOrdered: true),
        EngineShape("[Int: String]", [1: "a", 2: "b"] as [Int: String], hashOrdered: true),
        EngineShape("[UUID: Int]", [UUID(uuidString: "0E6B5E4A-4E7C-4D3B-9A7E-2B8A9C1D0E1F")!: 7] as [UUID: Int]),
        EngineShape("[String: [Int]]", ["a": [1, 2], "b": []] as [String: [Int]], hashOrdered: true),
        EngineShape("string enum", [Color.red, .blue]),
        EngineShape("int enum", [Level.low, .high]),
        EngineShape(
            "enum with payloads", [Figure.circle(radius: 1.5), .rectangle(width: 2, height: 3), .pair(1, "a"), .point]),
        EngineShape("recursive enum", Expression.add(.number(1), .negate(.add(.number(2), .number(3))))),
        EngineShape(
            "recursive struct",
            TreeNode(
                value: 1,
                children: [
                    TreeNode(value: 2, children: []), TreeNode(value: 3, children: [TreeNode(value: 4, children: [])]),
                ])),
        EngineShape("recursive class list", ListNode("a", next: ListNode("b", next: ListNode("c")))),
        EngineShape("class hierarchy via superEncoder", Dog(name: "Rex", breed: "collie")),
        EngineShape("super encoders for key and in arrays", SuperKeys(base: Primitives(), items: [7, 8, 9])),
        EngineShape("renamed keys", RenamedKeys(firstName: "Ada", lastName: "Lovelace")),
        EngineShape(
            "hand-written nested containers",
            HandNested(latitude: 51.5, longitude: -0.12, history: ["a", "b"], label: "home")),
        EngineShape("single-value wrapper", [Meters(1.5), Meters(-2)]),
        EngineShape("Foundation types", FoundationTypes()),
        EngineShape("more keys than a linear search", ManyFields()),
        EngineShape(
            "RawCodable and ranges", Wrapped(settings: RawCodable(Primitives()), range: 1..<5, closed: 0.5...2.5)),
        EngineShape("deep recursion (100 levels)", deepTree(100)),
        EngineShape("large array", Array(0..<5_000)),
        EngineShape(
            "array of structs",
            (0..<50).map { Primitives(bool: $0 % 2 == 0, string: "\($0)", int: $0, double: Double($0) / 3) }),
        EngineShape("top-level Int", 42),
        EngineShape("top-level negative Int64", Int64.min),
        EngineShape("top-level UInt64.max", UInt64.max),
        EngineShape("top-level String", "just text"),
        EngineShape("top-level Bool", false),
        EngineShape("top-level Double", 2.5),
        EngineShape("top-level nil", Int?.none),
        EngineShape("top-level Date", Date(timeIntervalSinceReferenceDate: 1)),
        EngineShape("top-level Data", Data([1, 2, 3])),
        EngineShape("top-level URL", URL(string: "file:///tmp/x")!),
        EngineShape("array of optionals of arrays", [[1], nil, []] as [[Int]?]),
        EngineShape("dictionary of enums", ["a": Figure.point, "b": .circle(radius: 2)], hashOrdered: true),
        EngineShape("strings with escapes and unicode", ["\u{0}\u{1F}\"\\/", "e\u{301}", "🇫🇷", "\u{10FFFF}"]),
        EngineShape(
            "keys that look like numbers", ["0": 1, "-1": 2, "1.5": 3, "": 4] as [String: Int], hashOrdered: true),
    ]

    @Test(arguments: shapes)
    func roundTripsThroughTheTree(_ shape: EngineShape) throws {
        try shape.roundTrip()
    }

    @Test(arguments: shapes)
    func treeMatchesJSONEncoderAndJSONSerialization(_ shape: EngineShape) throws {
        try shape.matchesFoundationTree()
    }

    @Test(arguments: shapes)
    func decodesTheTreeFoundationsPathProduces(_ shape: EngineShape) throws {
        try shape.decodesFoundationTree()
    }

    @Test func thereAreAtLeastFortyShapes() {
        #expect(Self.shapes.count >= 40)
    }

    @Test func keyOrderIsTheOrderTheTypeEncodes() throws {
        let tree = try StoredValueEncoder().encode(HandNested(latitude: 1, longitude: 2, history: [], label: "x"))
        #expect(tree.dictionaryValue?.keys == ["location", "history", "label"])
        #expect(tree["location"]?.dictionaryValue?.keys == ["latitude", "longitude"])
    }

    @Test func typesAreKeptThatJSONWouldLose() throws {
        struct Kinds: Codable {
            var flag = true
            var whole = 2.0
            var count = 2
            var when = Date(timeIntervalSinceReferenceDate: 0)
            var bytes = Data([1])
        }
        let tree = try StoredValueEncoder().encode(Kinds())
        #expect(
            tree == [
                "flag": true, "whole": .double(2), "count": .int(2),
                "when": .date(Date(timeIntervalSinceReferenceDate: 0)), "bytes": .data(Data([1])),
            ])
    }

    @Test func aNestedOptionalHoldingNilReadsBackAsNilLikeFoundation() throws {
        let value = NestedOptionals(twice: .some(nil), thrice: nil)
        let ours = try StoredValueDecoder().decode(NestedOptionals.self, from: StoredValueEncoder().encode(value))
        let theirs = try JSONDecoder().decode(NestedOptionals.self, from: JSONEncoder().encode(value))
        #expect(ours == theirs)
        #expect(ours.twice == nil)
    }
}
