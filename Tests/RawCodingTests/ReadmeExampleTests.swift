import Foundation
import RawCoding
import Testing

/// The README's "Anywhere" quick start, kept true (`ReadmeSnippetTests` compiles it as written).
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

        let json = try JSONCodec().encode(Settings())
        let pretty = try JSONCodec(formatting: .pretty).encodeToString(Settings())
        let binary = try PropertyListCodec(format: .binary).encode(Settings())
        let again = try PropertyListCodec(format: .binary).decode(Settings.self, from: binary)
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
            #expect(
                "\(error)"
                    == "Could not decode RawCoding.StoredValue at tags[2]: unexpected character ']'; expected a value (input line 1, column 16 (byte offset 15))"
            )
        }
    }

    @Test func valueTreeExampleWorksAsWritten() throws {
        var tree = try StoredValueEncoder().encode(Settings())
        #expect(tree == ["theme": "dark", "fontSize": 14])
        #expect(tree["fontSize"]?.int64Value == 14)
        tree["theme"] = "light"
        let restored = try StoredValueDecoder().decode(
            Settings.self, from: StoredValue(propertyList: tree.propertyListObject()))
        #expect(restored == Settings(theme: "light", fontSize: 14))
        let defaults: StoredValue = ["theme": "light", "volume": 0.5, "account": ["plan": "free"]]
        let stored: StoredValue = ["theme": "dark", "account": ["email": "me@example.com"]]
        #expect(
            defaults.merging(stored) == [
                "theme": "dark", "volume": 0.5, "account": ["plan": "free", "email": "me@example.com"],
            ])
    }

    struct Item: Codable { var name: String }
    struct Order: Codable { var items: [Item] }

    @Test func errorsSectionExamplePrintsAsShown() {
        let text = """
            {"items": [
              {"name": "a"},
              {"name": "b"},
              {"name": tru}
            ]}
            """
        do {
            _ = try JSONCodec().decode(Order.self, from: text)
            Issue.record("decoding should fail")
        } catch {
            let shown = "\(error)".replacingOccurrences(of: "RawCodingTests.ReadmeExampleTests.", with: "")
            #expect(
                shown
                    == "Could not decode Order at items[2].name: unexpected character '}'; expected 'true' (input line 4, column 15 (byte offset 60))"
            )
        }
    }
}

/// The README's "Changing your model" example, as written.
enum ReadmeChangingYourModel {
    struct Settings: Codable, Equatable, Sendable, StoredDefault, StoredVersioned {
        var theme = "dark"
        var fontSize = 14  // added in version 2: filled from the default when missing

        static let defaultValue = Settings()
        static let storedVersion = 2
        static let migrations: [StoredMigration] = [
            .tree(from: 1) { tree in tree.renameKey("colorScheme", to: "theme") }
        ]
    }
}

@Suite("README: changing your model")
struct ReadmeChangingYourModelTests {
    typealias Settings = ReadmeChangingYourModel.Settings

    @Test func exampleWorksAsWritten() throws {
        let settings = RawCodable<Settings>(rawValue: #"{"colorScheme":"light"}"#)  // what version 1 stored
        #expect(settings?.theme == "light")
        #expect(settings?.fontSize == 14)
        #expect(settings?.rawValue == #"{"$version":2,"fontSize":14,"theme":"light"}"#)
        let decoded = try JSONCodec().decodeStored(Settings.self, from: #"{"theme":"x"}"#, defaultValue: Settings())
            .value
        #expect(decoded == Settings(theme: "x", fontSize: 14))
    }
}
