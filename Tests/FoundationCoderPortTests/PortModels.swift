import Foundation
import RawCoding
import Testing

// Models of the shapes swift-foundation's coder tests use, written for the port.

struct EmptyStruct: Codable, Equatable {}

final class EmptyClass: Codable, Equatable {
    static func == (lhs: EmptyClass, rhs: EmptyClass) -> Bool { true }
}

/// Encodes as a Bool through a single-value container.
enum Switch: Codable, Equatable {
    case off, on

    init(from decoder: any Decoder) throws {
        self = try decoder.singleValueContainer().decode(Bool.self) ? .on : .off
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self == .on)
    }
}

/// Encodes as a Double through a single-value container.
struct Timestamp: Codable, Equatable {
    let value: Double

    init(_ value: Double) { self.value = value }

    init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(Double.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// A class encoding as an Int through a single-value container.
final class Counter: Codable, Equatable {
    var count = 42

    init() {}

    init(from decoder: any Decoder) throws {
        count = try decoder.singleValueContainer().decode(Int.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(count)
    }

    static func == (lhs: Counter, rhs: Counter) -> Bool { lhs.count == rhs.count }
}

struct Address: Codable, Equatable {
    var street = "1 Infinite Loop"
    var city = "Cupertino"
    var state = "CA"
    var zipCode = 95014
    var country = "United States"
}

/// A class with several fields, which its subclass shares its encoder with.
class Person: Codable, Equatable, @unchecked Sendable {
    let name: String
    let email: String
    let website: URL?

    init(name: String = "Johnny Appleseed", email: String = "appleseed@apple.com", website: URL? = nil) {
        self.name = name
        self.email = email
        self.website = website
    }

    static func == (lhs: Person, rhs: Person) -> Bool {
        type(of: lhs) == type(of: rhs) && lhs.name == rhs.name && lhs.email == rhs.email
            && lhs.website == rhs.website && lhs.isEqual(to: rhs)
    }

    func isEqual(to other: Person) -> Bool { true }
}

/// Encodes its field beside its superclass's, in the same container.
final class Employee: Person, @unchecked Sendable {
    let id: Int
    enum Keys: String, CodingKey { case id }

    init(id: Int = 42) {
        self.id = id
        super.init()
    }

    required init(from decoder: any Decoder) throws {
        id = try decoder.container(keyedBy: Keys.self).decode(Int.self, forKey: .id)
        try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(id, forKey: .id)
    }

    override func isEqual(to other: Person) -> Bool { (other as? Employee)?.id == id }
}

struct Company: Codable, Equatable {
    var address = Address()
    var employees = [Employee()]
}

/// Encodes as a Bool or nil.
enum EnhancedBool: Codable, Equatable {
    case `true`, `false`, fileNotFound

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .fileNotFound
        } else {
            self = try container.decode(Bool.self) ? .true : .false
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .true: try container.encode(true)
        case .false: try container.encode(false)
        case .fileNotFound: try container.encodeNil()
        }
    }
}

/// Encodes as an array through a single-value container.
struct Numbers: Codable, Equatable {
    var values = [4, 8, 15, 16, 23, 42]

    init() {}

    init(from decoder: any Decoder) throws {
        values = try decoder.singleValueContainer().decode([Int].self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }
}

/// A class encoding as a dictionary through a single-value container.
final class Mapping: Codable, Equatable {
    let values: [String: Int]

    init(values: [String: Int] = ["Apple": 42, "localhost": 127]) { self.values = values }

    init(from decoder: any Decoder) throws {
        values = try decoder.singleValueContainer().decode([String: Int].self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }

    static func == (lhs: Mapping, rhs: Mapping) -> Bool { lhs.values == rhs.values }
}

/// A value that needs a configuration to encode and decode itself.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct ConfiguredNumber: EncodableWithConfiguration, DecodableWithConfiguration, Equatable {
    struct Configuration {
        let offset: Int
    }

    struct Provider: EncodingConfigurationProviding, DecodingConfigurationProviding {
        static var encodingConfiguration: Configuration { Configuration(offset: 2) }
        static var decodingConfiguration: Configuration { Configuration(offset: 2) }
    }

    let number: Int

    func encode(to encoder: any Encoder, configuration: Configuration) throws {
        var container = encoder.singleValueContainer()
        try container.encode(number + configuration.offset)
    }

    init(number: Int) { self.number = number }

    init(from decoder: any Decoder, configuration: Configuration) throws {
        number = try decoder.singleValueContainer().decode(Int.self) - configuration.offset
    }
}

/// Helpers the ported cases share.
enum Port {
    /// Encodes `value` with `codec`, checks the text when given, decodes it back and checks it
    /// is equal; with `foundation`, checks that `JSONEncoder` writes the same tree.
    static func roundTrip<Value: Codable & Equatable>(
        _ value: Value, codec: JSONCodec = JSONCodec(), expected: String? = nil,
        foundation: JSONEncoder? = JSONEncoder(), sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let text = try codec.encodeToString(value)
        if let expected { #expect(text == expected, sourceLocation: sourceLocation) }
        if let foundation {
            let theirs = try foundation.encode(value)
            #expect(
                try codec.readTree(from: Data(text.utf8)) == JSONCodec().readTree(from: theirs),
                "JSONEncoder wrote \(String(decoding: theirs, as: UTF8.self))", sourceLocation: sourceLocation)
        }
        #expect(try codec.decode(Value.self, from: text) == value, sourceLocation: sourceLocation)
    }

    /// Round trips `value` through both property-list layouts, and checks that Foundation's
    /// `PropertyListDecoder` reads ours as the same value.
    static func roundTripPropertyList<Value: Codable & Equatable>(
        _ value: Value, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for codec in [PropertyListCodec(format: .xml), PropertyListCodec(format: .binary)] as [any Codec] {
            let data = try codec.encode(value)
            #expect(try codec.decode(Value.self, from: data) == value, "\(codec)", sourceLocation: sourceLocation)
            #expect(
                try PropertyListDecoder().decode(Value.self, from: data) == value, "Foundation reads \(codec)'s",
                sourceLocation: sourceLocation)
        }
    }

    /// The text written for `value` under the engine options `configure` sets, through the
    /// engine's tree and the JSON writer.
    static func engineJSON(_ value: some Encodable, _ configure: (inout StoredValueEncoder) -> Void) throws -> String {
        var encoder = StoredValueEncoder()
        configure(&encoder)
        return String(decoding: try JSONCodec().writeTree(encoder.encode(value)), as: UTF8.self)
    }
}
