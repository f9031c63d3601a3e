import Foundation
import RawCoding
import Testing

/// The same mistake in the data gives the same error, at the same coding path, from our decoder
/// as from `JSONDecoder`.
@Suite("StoredValueDecoder errors match JSONDecoder's")
struct EngineErrorTests {
    struct Person: Codable, Equatable {
        struct Address: Codable, Equatable {
            var city: String
            var floor: Int8
        }
        var name: String
        var age: Int
        var address: Address
        var tags: [String]
        var friends: [Friend]
    }

    struct Friend: Codable, Equatable {
        var name: String
        var since: UInt16
    }

    struct Mistake: CustomTestStringConvertible, Sendable {
        var name: String
        var json: String
        /// JSONDecoder reports numbers that do not fit as invalid JSON with an empty coding
        /// path (swift-foundation, Swift 6.3.1); PropertyListDecoder names the path. For these,
        /// only PropertyListDecoder is the oracle.
        var jsonDecoderLosesThePath = false
        var testDescription: String { name }
    }

    static let valid =
        #"{"name":"Ada","age":36,"address":{"city":"London","floor":3},"tags":["a","b"],"friends":[{"name":"Charles","since":1833}]}"#

    static let mistakes: [Mistake] = [
        Mistake(
            name: "missing top-level key",
            json: #"{"name":"Ada","address":{"city":"London","floor":3},"tags":[],"friends":[]}"#),
        Mistake(
            name: "missing nested key", json: #"{"name":"Ada","age":36,"address":{"floor":3},"tags":[],"friends":[]}"#),
        Mistake(
            name: "missing key in an array element",
            json:
                #"{"name":"Ada","age":36,"address":{"city":"L","floor":3},"tags":[],"friends":[{"name":"C","since":1},{"name":"D"}]}"#
        ),
        Mistake(
            name: "wrong type at top level",
            json: #"{"name":"Ada","age":"36","address":{"city":"L","floor":3},"tags":[],"friends":[]}"#),
        Mistake(
            name: "wrong type nested",
            json: #"{"name":"Ada","age":36,"address":{"city":7,"floor":3},"tags":[],"friends":[]}"#),
        Mistake(
            name: "wrong type in an array",
            json: #"{"name":"Ada","age":36,"address":{"city":"L","floor":3},"tags":["a",2],"friends":[]}"#),
        Mistake(
            name: "null where a value is required",
            json: #"{"name":null,"age":36,"address":{"city":"L","floor":3},"tags":[],"friends":[]}"#),
        Mistake(
            name: "null nested",
            json: #"{"name":"Ada","age":36,"address":{"city":null,"floor":3},"tags":[],"friends":[]}"#),
        Mistake(name: "null for a struct", json: #"{"name":"Ada","age":36,"address":null,"tags":[],"friends":[]}"#),
        Mistake(
            name: "null in an array of strings",
            json: #"{"name":"Ada","age":36,"address":{"city":"L","floor":3},"tags":[null],"friends":[]}"#),
        Mistake(
            name: "integer out of range (Int8)",
            json: #"{"name":"Ada","age":36,"address":{"city":"L","floor":300},"tags":[],"friends":[]}"#,
            jsonDecoderLosesThePath: true),
        Mistake(
            name: "integer out of range in an array (UInt16)",
            json:
                #"{"name":"Ada","age":36,"address":{"city":"L","floor":3},"tags":[],"friends":[{"name":"C","since":-1}]}"#,
            jsonDecoderLosesThePath: true),
        Mistake(
            name: "fraction for an integer",
            json: #"{"name":"Ada","age":36.5,"address":{"city":"L","floor":3},"tags":[],"friends":[]}"#,
            jsonDecoderLosesThePath: true),
        Mistake(
            name: "array where a dictionary is expected",
            json: #"{"name":"Ada","age":36,"address":[],"tags":[],"friends":[]}"#),
        Mistake(
            name: "dictionary where an array is expected",
            json: #"{"name":"Ada","age":36,"address":{"city":"L","floor":3},"tags":{},"friends":[]}"#),
        Mistake(name: "top level is not a dictionary", json: #"[1,2]"#),
    ]

    /// The error's case and its coding path as text, for comparing.
    static func summary(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not a DecodingError: \(error)" }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }.joined(separator: "/")
        }
        switch error {
        case .keyNotFound(let key, let context): return "keyNotFound(\(key.stringValue)) at \(path(context))"
        case .typeMismatch(_, let context): return "typeMismatch at \(path(context))"
        case .valueNotFound(_, let context): return "valueNotFound at \(path(context))"
        case .dataCorrupted(let context): return "dataCorrupted at \(path(context))"
        @unknown default: return "unknown \(error)"
        }
    }

    @Test func theValidDocumentDecodesBothWays() throws {
        let ours = try StoredValueDecoder().decode(
            Person.self, from: StoredValue(propertyList: JSONSerialization.jsonObject(with: Data(Self.valid.utf8))))
        #expect(try ours == JSONDecoder().decode(Person.self, from: Data(Self.valid.utf8)))
    }

    @Test(arguments: mistakes)
    func sameErrorAndCodingPathAsFoundation(_ mistake: Mistake) throws {
        let data = Data(mistake.json.utf8)
        let object = try JSONSerialization.jsonObject(with: data)
        let ours = #expect(throws: DecodingError.self) {
            try StoredValueDecoder().decode(Person.self, from: StoredValue(propertyList: object))
        }
        guard let ours else { return }
        if !mistake.jsonDecoderLosesThePath {
            let theirs = #expect(throws: DecodingError.self) { try JSONDecoder().decode(Person.self, from: data) }
            if let theirs {
                #expect(
                    Self.summary(ours) == Self.summary(theirs),
                    "\(mistake.name)\n ours:   \(ours)\n JSONDecoder: \(theirs)")
            }
        }
        // Property lists have no null; every other mistake is checked against PropertyListDecoder too.
        guard !mistake.json.contains("null") else { return }
        let plist = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        let theirs = #expect(throws: DecodingError.self) { try PropertyListDecoder().decode(Person.self, from: plist) }
        if let theirs {
            #expect(
                Self.summary(ours) == Self.summary(theirs),
                "\(mistake.name)\n ours:   \(ours)\n PropertyListDecoder: \(theirs)")
        }
    }

    @Test func errorsNameTheKeyThatIsMissing() throws {
        let tree: StoredValue = ["name": "Ada"]
        do {
            _ = try StoredValueDecoder().decode(Friend.self, from: tree)
            Issue.record("decoded without `since`")
        } catch DecodingError.keyNotFound(let key, let context) {
            #expect(key.stringValue == "since")
            #expect(context.codingPath.isEmpty)
            #expect(context.debugDescription.contains("since"))
        }
    }
}
