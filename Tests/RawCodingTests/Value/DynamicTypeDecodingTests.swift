import Foundation
import RawCoding
import Testing

/// The metatype a caller passes decides what is decoded, as with `JSONDecoder`
/// (swift-foundation's `decodingDerivedTypeWithSuperclassType` cases): a subclass passed as its
/// superclass's metatype comes back as the subclass, with its own fields.
@Suite("The dynamic type decides")
struct DynamicTypeDecodingTests {
    class Person: Codable, @unchecked Sendable {
        let name: String
        init(name: String) { self.name = name }
    }

    /// Shares its encoder and decoder with its superclass, as swift-foundation's `Employee`.
    final class Employee: Person, @unchecked Sendable {
        let id: Int
        enum Keys: String, CodingKey { case id }

        init(name: String, id: Int) {
            self.id = id
            super.init(name: name)
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
    }

    /// What a caller holds when the concrete class is chosen at run time.
    static let personType: Person.Type = Employee.self
    static let employee = Employee(name: "Ada", id: 7)

    static func expectEmployee(_ decoded: Person, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let employee = decoded as? Employee
        #expect(employee != nil, "\(label) gave \(type(of: decoded))", sourceLocation: sourceLocation)
        #expect(employee?.id == 7 && decoded.name == "Ada", "\(label)", sourceLocation: sourceLocation)
    }

    @Test func everyCodecDecodesTheMetatypeItIsGiven() throws {
        let json = JSONCodec()
        let text = try json.encodeToString(Self.employee)
        #expect(text == #"{"id":7,"name":"Ada"}"#)
        Self.expectEmployee(try json.decode(Self.personType, from: text), "JSONCodec from text")
        Self.expectEmployee(try json.decode(Self.personType, from: Data(text.utf8)), "JSONCodec from data")
        let tree = try json.encodeTree(Self.employee)
        Self.expectEmployee(try json.decode(Self.personType, fromTree: tree), "JSONCodec from a tree")
        for codec in [PropertyListCodec(format: .xml), PropertyListCodec(format: .binary)] as [any Codec] {
            let data = try codec.encode(Self.employee)
            Self.expectEmployee(try codec.decode(Self.personType, from: data), "\(codec)")
        }
        let engineTree = try StoredValueEncoder().encode(Self.employee)
        Self.expectEmployee(try StoredValueDecoder().decode(Self.personType, from: engineTree), "StoredValueDecoder")
    }

    @Test func decodeStoredDecodesTheMetatypeItIsGiven() throws {
        for codec in [JSONCodec(), PropertyListCodec(format: .xml), PropertyListCodec(format: .binary)] as [any Codec] {
            let data = try codec.encodeStored(Self.employee)
            Self.expectEmployee(try codec.decodeStored(Self.personType, from: data).value, "\(codec) decodeStored")
            let tree = try codec.encodeStoredTree(Self.employee)
            Self.expectEmployee(
                try codec.decodeStored(Self.personType, fromTree: tree).value, "\(codec) decodeStored from a tree")
        }
        // With a default to fill from, through the evolving decoder, and nested in an array.
        let json = JSONCodec()
        let filled = try json.decodeStored(Self.personType, from: #"{"id":7}"#, defaultValue: Self.employee)
        Self.expectEmployee(filled.value, "decodeStored with a default")
        #expect(filled.filledKeyPaths == ["name"])
        let list = try json.decodeStored([Employee].self, from: #"[{"name":"Ada","id":7}]"#).value
        Self.expectEmployee(list[0], "decodeStored of an array")
    }

    @Test func rawCodableKeepsASubclassWhole() throws {
        let raw = RawCodable(Self.employee).rawValue
        let decoded = try #require(RawCodable<Employee>(rawValue: raw))
        Self.expectEmployee(decoded.wrappedValue, "RawCodable<Employee>")
        // Held as its superclass, it is written whole; read back as the superclass, as Foundation does.
        let asPerson = RawCodable<Person>(Self.employee).rawValue
        #expect(asPerson == raw)
        #expect(RawCodable<Person>(rawValue: asPerson)?.wrappedValue.name == "Ada")
    }
}
