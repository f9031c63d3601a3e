import Foundation
import RawCoding

/// A settings model of the kind apps keep in defaults; the golden files encode `.sample`.
struct SampleSettings: Codable, Equatable, Hashable, Sendable {
    enum Theme: Codable, Equatable, Hashable, Sendable {
        case system
        case named(String)
        case custom(red: Double, green: Double, blue: Double)
    }

    struct Account: Codable, Equatable, Hashable, Sendable {
        var id: Int64
        var email: String?
        var joined: Date
    }

    var theme: Theme
    var fontSize: Int
    var scale: Double
    var tags: [String]
    var homepage: URL
    var avatar: Data
    var account: Account
    var nickname: String?
    var lastSync: Date?
    var notifications: Bool

    static let sample = SampleSettings(
        theme: .custom(red: 0.25, green: 0.5, blue: 1),
        fontSize: 14,
        scale: 1.5,
        tags: ["work", "café", "日本語", "🙂", "a/b", ""],
        homepage: URL(string: "https://example.com/path?q=1&r=ü")!,
        avatar: Data([0x00, 0xFF, 0x10, 0x80, 0x7F]),
        account: Account(
            id: Int64.min, email: "me@example.com", joined: Date(timeIntervalSinceReferenceDate: 700_000_000)),
        nickname: nil,
        lastSync: Date(timeIntervalSinceReferenceDate: -86_400),
        notifications: true)
}

/// Numbers at the edges of their types.
struct ExtremeNumbers: Codable, Equatable, Sendable {
    var int64Min = Int64.min
    var int64Max = Int64.max
    var uint64Max = UInt64.max
    var int8Min = Int8.min
    var uint8Max = UInt8.max
    var greatest = Double.greatestFiniteMagnitude
    var leastNonzero = Double.leastNonzeroMagnitude
    var leastNormal = Double.leastNormalMagnitude
    var negative = -1.0e-300
    var tenth = 0.1
    var float = Float(3.25)
}

/// Doubles JSON has no literal for.
struct NonFinite: Codable, Sendable {
    var positive = Double.infinity
    var negative = -Double.infinity
    var notANumber = Double.nan
    var float = Float.infinity
}

/// Keys that stress sorting and escaping.
struct UnicodeKeys: Codable, Equatable, Sendable {
    var values: [String: Int] = [
        "": 0, "a": 1, "Z": 2, "é": 3, "e\u{301}x": 4, "🙂": 5, "\u{FF61}": 6, "\u{10000}": 7,
        "quote\"": 8, "back\\slash": 9, "new\nline": 10, "tab\t": 11, "slash/": 12, "nul\u{0}": 13,
    ]
}

/// Containers with nothing in them.
struct EmptyContainers: Codable, Equatable, Sendable {
    struct Nothing: Codable, Equatable, Sendable {}
    var array: [Int] = []
    var dictionary: [String: String] = [:]
    var nested: [[Int]] = [[]]
    var nothing = Nothing()
    var emptyString = ""
    var emptyData = Data()
}

/// Enums with associated values, nested.
indirect enum Shape: Codable, Equatable, Sendable {
    case point
    case circle(radius: Double)
    case polygon([Shape])
    case labelled(String, Shape?)
}

/// `RawCodable` nested in `RawCodable`, and inside another type.
struct Document: Codable, Equatable, Sendable {
    var title: String
    var settings: RawCodable<SampleSettings>
    var twice: RawCodable<RawCodable<Shape>>
    var optional: RawCodable<Int>?
}

/// Foundation types with special coding.
struct FoundationValues: Codable, Equatable, Sendable {
    var decimal = Decimal(string: "12345678901234567890.123456789")!
    var negativeDecimal = Decimal(string: "-0.001")!
    var url = URL(string: "file:///tmp/a%20b/c.txt")!
    var relativeURL = URL(string: "docs/readme.md", relativeTo: URL(string: "https://example.com/")!)!.absoluteURL
    var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    var date = Date(timeIntervalSinceReferenceDate: 1_000_000)
    var dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1_000_000_000)]
    var data = Data((0...255).map(UInt8.init))
}

/// Optionals at every depth.
struct Optionals: Codable, Equatable, Sendable {
    var none: Int? = nil
    var some: Int? = 7
    var array: [Int?] = [1, nil, 3]
    var nestedNone: String?? = .some(nil)
}
