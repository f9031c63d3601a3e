import Foundation
import RawCoding

// Model shapes for the engine's round-trip and differential tests.

struct Primitives: Codable, Equatable, Sendable {
    var bool = true
    var string = "héllo \"world\" 🙂"
    var int = -42
    var double = 3.141592653589793
}

struct IntegerWidths: Codable, Equatable, Sendable {
    var int8: Int8, int16: Int16, int32: Int32, int64: Int64, int: Int
    var uint8: UInt8, uint16: UInt16, uint32: UInt32, uint64: UInt64, uint: UInt

    static let minimum = IntegerWidths(
        int8: .min, int16: .min, int32: .min, int64: .min, int: .min,
        uint8: .min, uint16: .min, uint32: .min, uint64: .min, uint: .min)
    static let maximum = IntegerWidths(
        int8: .max, int16: .max, int32: .max, int64: .max, int: .max,
        uint8: .max, uint16: .max, uint32: .max, uint64: .max, uint: .max)
}

struct Floats: Codable, Equatable, Sendable {
    var float: Float = 3.14
    var tiny: Float = 1e-30
    var double = 0.1
    var negativeZero = -0.0
    var large = 1.7976931348623157e308
    var small = Double.leastNonzeroMagnitude
}

struct OptionalFields: Codable, Equatable, Sendable {
    var name: String?
    var count: Int?
    var nested: Primitives?
    var list: [Int]?
}

struct NestedOptionals: Codable, Equatable, Sendable {
    var twice: Int??
    var thrice: String???
}

struct Collections: Codable, Equatable, Sendable {
    var ints: [Int] = [1, 2, 3]
    var strings: [String] = ["a", "ß", "日本", ""]
    var nested: [[Int]] = [[1], [], [2, 3]]
    var empty: [String] = []
    var optionals: [Int?] = [1, nil, 3]
    var bools: [Bool] = [true, false]
    var set: Set<Int> = [3, 1, 2]
}

struct Dictionaries: Codable, Equatable, Sendable {
    var byString: [String: Int] = ["a": 1, "b": 2, "1": 3]
    var byInt: [Int: String] = [1: "one", -2: "minus two", 300: "many"]
    var byUUID: [UUID: Int] = [UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!: 1]
    var nested: [String: [String: Int]] = ["x": ["y": 1], "z": [:]]
    var empty: [String: Bool] = [:]
}

enum Color: String, Codable, Equatable, Sendable { case red, green, blue }
enum Level: Int, Codable, Equatable, Sendable {
    case low = 1
    case high = 10
}

enum Figure: Codable, Equatable, Sendable {
    case circle(radius: Double)
    case rectangle(width: Double, height: Double)
    case pair(Int, String)
    case point
}

indirect enum Expression: Codable, Equatable, Sendable {
    case number(Int)
    case add(Expression, Expression)
    case negate(Expression)
}

struct TreeNode: Codable, Equatable, Sendable {
    var value: Int
    var children: [TreeNode]
}

final class ListNode: Codable, Equatable, @unchecked Sendable {
    var value: String
    var next: ListNode?
    init(_ value: String, next: ListNode? = nil) {
        self.value = value
        self.next = next
    }
    static func == (lhs: ListNode, rhs: ListNode) -> Bool { lhs.value == rhs.value && lhs.next == rhs.next }
}

/// A class hierarchy that encodes its base through `superEncoder()`.
class Animal: Codable, @unchecked Sendable {
    var name: String
    init(name: String) { self.name = name }
}

final class Dog: Animal, Equatable, @unchecked Sendable {
    var breed: String
    enum CodingKeys: String, CodingKey { case breed }
    init(name: String, breed: String) {
        self.breed = breed
        super.init(name: name)
    }
    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        breed = try container.decode(String.self, forKey: .breed)
        try super.init(from: container.superDecoder())
    }
    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(breed, forKey: .breed)
        try super.encode(to: container.superEncoder())
    }
    static func == (lhs: Dog, rhs: Dog) -> Bool { lhs.name == rhs.name && lhs.breed == rhs.breed }
}

/// Keyed super encoders under a chosen key, and an unkeyed one.
struct SuperKeys: Codable, Equatable, Sendable {
    var base: Primitives
    var items: [Int]
    enum CodingKeys: String, CodingKey { case base, items }
    init(base: Primitives, items: [Int]) {
        self.base = base
        self.items = items
    }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        base = try Primitives(from: container.superDecoder(forKey: .base))
        var unkeyed = try container.nestedUnkeyedContainer(forKey: .items)
        items = [try Int(from: unkeyed.superDecoder())]
        while !unkeyed.isAtEnd { items.append(try unkeyed.decode(Int.self)) }
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try base.encode(to: container.superEncoder(forKey: .base))
        var unkeyed = container.nestedUnkeyedContainer(forKey: .items)
        try items[0].encode(to: unkeyed.superEncoder())
        for item in items.dropFirst() { try unkeyed.encode(item) }
    }
}

struct RenamedKeys: Codable, Equatable, Sendable {
    var firstName: String
    var lastName: String
    enum CodingKeys: String, CodingKey {
        case firstName = "first_name"
        case lastName = "Last-Name"
    }
}

/// Nested keyed and unkeyed containers written by hand, including one written after its
/// sibling (pending containers keep their position).
struct HandNested: Codable, Equatable, Sendable {
    var latitude: Double
    var longitude: Double
    var history: [String]
    var label: String

    enum CodingKeys: String, CodingKey { case location, history, label }
    enum LocationKeys: String, CodingKey { case latitude, longitude }

    init(latitude: Double, longitude: Double, history: [String], label: String) {
        self.latitude = latitude
        self.longitude = longitude
        self.history = history
        self.label = label
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let location = try container.nestedContainer(keyedBy: LocationKeys.self, forKey: .location)
        latitude = try location.decode(Double.self, forKey: .latitude)
        longitude = try location.decode(Double.self, forKey: .longitude)
        var history = try container.nestedUnkeyedContainer(forKey: .history)
        self.history = []
        while !history.isAtEnd { self.history.append(try history.decode(String.self)) }
        label = try container.decode(String.self, forKey: .label)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var location = container.nestedContainer(keyedBy: LocationKeys.self, forKey: .location)
        var history = container.nestedUnkeyedContainer(forKey: .history)
        try container.encode(label, forKey: .label)
        try location.encode(latitude, forKey: .latitude)
        for entry in self.history { try history.encode(entry) }
        try location.encode(longitude, forKey: .longitude)
    }
}

/// Encodes as its single inner value.
struct Meters: Codable, Equatable, Sendable {
    var value: Double
    init(_ value: Double) { self.value = value }
    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Double.self) }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

struct FoundationTypes: Codable, Equatable, Sendable {
    var date = Date(timeIntervalSinceReferenceDate: 812_345_678.5)
    var early = Date(timeIntervalSince1970: -1_000_000)
    var data = Data([0, 1, 2, 255])
    var emptyData = Data()
    var url = URL(string: "https://example.com/a%20b?q=1")!
    var decimal = Decimal(string: "12345.678")!
    var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
}

struct ManyFields: Codable, Equatable, Sendable {
    var f01 = 1, f02 = 2, f03 = 3, f04 = 4, f05 = 5, f06 = 6, f07 = 7, f08 = 8, f09 = 9, f10 = 10
    var f11 = "11", f12 = "12", f13 = "13", f14 = "14", f15 = "15", f16 = "16", f17 = "17", f18 = "18"
    var f19 = true, f20 = false
}

struct Wrapped: Codable, Equatable, Sendable {
    var settings: RawCodable<Primitives>
    var range: Range<Int>
    var closed: ClosedRange<Double>
}

/// A key set that uses the same key in two containers' super encoders.
struct Empty: Codable, Equatable, Sendable {}

func deepTree(_ depth: Int) -> TreeNode {
    depth == 0 ? TreeNode(value: 0, children: []) : TreeNode(value: depth, children: [deepTree(depth - 1)])
}
