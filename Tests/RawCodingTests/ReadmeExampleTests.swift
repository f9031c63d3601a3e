import Foundation
import RawCoding
import Testing

/// The README's "Anywhere" quick start, kept compiling and true.
@Suite("README examples")
struct ReadmeExampleTests {
    struct Settings: Codable, Equatable {
        var theme = "dark"
        var fontSize = 14
    }

    func save(_ value: some Encodable, with codec: some Codec) throws -> Data {
        try codec.encode(value)
    }

    @Test func quickStartWorksAsWritten() throws {
        let stored = RawCodable(Settings()).rawValue
        #expect(stored == #"{"fontSize":14,"theme":"dark"}"#)
        let back = RawCodable<Settings>(rawValue: stored)
        let checked = try RawCodable<Settings>(decoding: stored)
        #expect(back == checked)

        let json = try JSONCodec.json.encode(Settings())
        let pretty = try JSONCodec.json(.pretty).encodeToString(Settings())
        let binary = try PropertyListCodec.propertyList(.binary).encode(Settings())
        let again = try PropertyListCodec.propertyList(.binary).decode(Settings.self, from: binary)
        #expect(String(decoding: json, as: UTF8.self) == stored)
        #expect(pretty.contains("\n"))
        #expect(again == Settings())
        #expect(try save(Settings(), with: .propertyList(.xml)).starts(with: Array("<?xml".utf8)))
    }

    @Test func gettingStartedErrorExampleNamesThePath() {
        do {
            _ = try RawCodable<Settings>(decoding: #"{"theme":"dark","fontSize":"big"}"#)
            Issue.record("decoding should fail")
        } catch {
            #expect(error.codingPathDescription == "fontSize")
        }
    }

    @Test func formatsErrorExamplePrintsAsShown() {
        do {
            _ = try JSONReader().read(Data(#"{"tags": [1, 2,]}"#.utf8))
            Issue.record("reading should fail")
        } catch {
            #expect("\(error)" == "Could not decode RawCoding.StoredValue at tags[2]: unexpected character ']'; expected a value (input line 1, column 16 (byte offset 15))")
        }
    }
}
