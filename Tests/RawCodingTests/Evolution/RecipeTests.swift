import Foundation
import RawCoding
import Testing

// The recipes of the "Changing your model" article (Sources/RawCoding/Documentation.docc/
// ChangingYourModel.md). Each enum holds one recipe's code exactly as the article shows it (the
// last test checks that), and each test runs it on data the previous model stored.

enum AddAField {
    struct Settings: Codable, Equatable, StoredDefault {
        var theme = "dark"
        var volume = 0.5  // new in this release

        static let defaultValue = Settings()
    }
}

enum RenameAKey {
    struct Settings: Codable, Equatable, StoredVersioned {
        var username: String  // was `name`

        static let storedVersion = 2
        static let migrations: [StoredMigration] = [
            .tree(from: 1) { tree in tree.renameKey("name", to: "username") }
        ]
    }
}

enum ChangeAType {
    struct Settings: Codable, Equatable, StoredVersioned {
        var volume: Double  // was an Int percentage

        static let storedVersion = 2
        static let migrations: [StoredMigration] = [
            .tree(from: 1) { tree in
                if let percent = tree["volume"]?.int64Value {
                    tree["volume"] = .double(Double(percent) / 100)
                }
            }
        ]
    }
}

enum SplitAField {
    struct Contact: Codable, Equatable, StoredVersioned {
        var givenName: String  // `fullName` was split in two
        var familyName: String

        static let storedVersion = 2
        static let migrations: [StoredMigration] = [
            .tree(from: 1) { tree in
                let parts = (tree["fullName"]?.stringValue ?? "").split(separator: " ", maxSplits: 1)
                tree["givenName"] = .string(parts.first.map(String.init) ?? "")
                tree["familyName"] = .string(parts.count > 1 ? String(parts[1]) : "")
                tree["fullName"] = nil
            }
        ]
    }
}

enum StructToEnum {
    struct Settings: Codable, Equatable, StoredVersioned {
        enum Ringtone: Codable, Equatable {
            case builtIn(String)
            case custom(file: String)
        }
        var ringtone: Ringtone  // was a struct {name, isCustom}

        static let storedVersion = 2
        static let migrations: [StoredMigration] = [
            .tree(from: 1) { tree in
                let name = tree["ringtone"]?["name"]?.stringValue ?? "Chime"
                let isCustom = tree["ringtone"]?["isCustom"]?.boolValue ?? false
                tree["ringtone"] = isCustom ? ["custom": ["file": .string(name)]] : ["builtIn": ["_0": .string(name)]]
            }
        ]
    }
}

enum ConvertTheOldType {
    /// The previous release's model, kept for its migration step.
    struct ProfileV1: Codable {
        var name: String
        var age: Int
    }

    struct Profile: Codable, Equatable, StoredVersioned {
        var displayName: String
        var birthYear: Int

        static let storedVersion = 2
        static let migrations: [StoredMigration] = [
            .typed(from: 1, ProfileV1.self) { old in
                Profile(displayName: old.name.capitalized, birthYear: 2026 - old.age)
            }
        ]
    }
}

enum RemoveAField {
    struct Settings: Codable, Equatable, StoredVersioned {
        var theme: String  // `legacyFlag` is gone

        static let storedVersion = 2
        static let migrations: [StoredMigration] = [
            .tree(from: 1) { tree in tree["legacyFlag"] = nil }
        ]
    }
}

enum AdoptVersioningLate {
    struct Settings: Codable, Equatable, StoredVersioned {
        var theme: String

        static let storedVersion = 1  // what every payload stored so far is
        static let migrations: [StoredMigration] = []
    }
}

@Suite("Changing your model: the recipes")
struct RecipeTests {
    @Test func theOverviewReadsEditsAndWritesBack() throws {
        typealias Settings = AddAField.Settings
        let codec = JSONCodec()
        let data = Data(#"{"theme":"light","wallpaper":"stars"}"#.utf8)
        let stored = try codec.decodeStored(Settings.self, from: data)
        var settings = stored.value
        settings.volume = 0.8
        let updated = try codec.encodeStored(settings, keeping: stored.unknownKeys)
        #expect(String(decoding: updated, as: UTF8.self) == #"{"theme":"light","volume":0.8,"wallpaper":"stars"}"#)
    }

    @Test func addAFieldWithADefault() throws {
        let stored = #"{"theme":"light"}"#  // written before `volume` existed
        let settings = try JSONCodec().decodeStored(AddAField.Settings.self, from: stored)
        #expect(settings.value == AddAField.Settings(theme: "light", volume: 0.5))
        #expect(RawCodable<AddAField.Settings>(rawValue: stored)?.volume == 0.5)
        // A present key of the wrong type is still an error, never replaced by the default.
        #expect(throws: RawCodingError.self) {
            try JSONCodec().decodeStored(AddAField.Settings.self, from: #"{"theme":"light","volume":"loud"}"#)
        }
    }

    @Test(arguments: CodecCase.allCases)
    func renameAKey(_ codecCase: CodecCase) throws {
        let codec = codecCase.codec
        let old = try codec.writeTree(["name": "ada"])
        let stored = try codec.decodeStored(RenameAKey.Settings.self, from: old)
        #expect(stored.value == RenameAKey.Settings(username: "ada"))
        #expect(try codec.readTree(from: codec.encodeStored(stored.value)) == ["$version": 2, "username": "ada"])
    }

    @Test(arguments: CodecCase.allCases)
    func changeAType(_ codecCase: CodecCase) throws {
        let codec = codecCase.codec
        let stored = try codec.decodeStored(ChangeAType.Settings.self, from: codec.writeTree(["volume": 80]))
        #expect(stored.value.volume == 0.8)
    }

    @Test func splitAField() throws {
        let contact = try JSONCodec().decodeStored(SplitAField.Contact.self, from: #"{"fullName":"Ada Lovelace"}"#)
        #expect(contact.value == SplitAField.Contact(givenName: "Ada", familyName: "Lovelace"))
        let single = try JSONCodec().decodeStored(SplitAField.Contact.self, from: #"{"fullName":"Plato"}"#)
        #expect(single.value == SplitAField.Contact(givenName: "Plato", familyName: ""))
        #expect(single.unknownKeys.isEmpty)
    }

    @Test(arguments: CodecCase.allCases)
    func turnAStructIntoAnEnum(_ codecCase: CodecCase) throws {
        let codec = codecCase.codec
        let custom = try codec.writeTree(["ringtone": ["name": "bells.caf", "isCustom": true]])
        let builtIn = try codec.writeTree(["ringtone": ["name": "Marimba", "isCustom": false]])
        #expect(
            try codec.decodeStored(StructToEnum.Settings.self, from: custom).value.ringtone
                == .custom(file: "bells.caf"))
        #expect(try codec.decodeStored(StructToEnum.Settings.self, from: builtIn).value.ringtone == .builtIn("Marimba"))
    }

    @Test func convertTheOldType() throws {
        let stored = try #require(RawCodable<ConvertTheOldType.Profile>(rawValue: #"{"age":36,"name":"ada"}"#))
        #expect(stored.wrappedValue == ConvertTheOldType.Profile(displayName: "Ada", birthYear: 1990))
        #expect(stored.rawValue == #"{"$version":2,"birthYear":1990,"displayName":"Ada"}"#)
    }

    @Test func removeAField() throws {
        // Without a step, the old key is kept as an unknown key, and written back.
        struct Unversioned: Codable { var theme: String }
        let kept = try JSONCodec().decodeStored(Unversioned.self, from: #"{"legacyFlag":true,"theme":"dark"}"#)
        #expect(kept.unknownKeys.keyPaths == ["legacyFlag"])
        // With the step, it is gone from what is written.
        let stored = try JSONCodec().decodeStored(
            RemoveAField.Settings.self, from: #"{"legacyFlag":true,"theme":"dark"}"#)
        #expect(stored.unknownKeys.isEmpty)
        #expect(
            try JSONCodec().encodeStoredToString(stored.value, keeping: stored.unknownKeys)
                == #"{"$version":2,"theme":"dark"}"#)
    }

    @Test func adoptVersioningLate() throws {
        let stored = try #require(RawCodable<AdoptVersioningLate.Settings>(rawValue: #"{"theme":"dark"}"#))
        #expect(stored.theme == "dark")
        #expect(stored.rawValue == #"{"$version":1,"theme":"dark"}"#)
        #expect(RawCodable<AdoptVersioningLate.Settings>(rawValue: stored.rawValue) == stored)
    }

    /// Each `swift` code block of the article is a run of lines of this file (after removing
    /// indentation), so the article shows code these tests compile and run.
    @Test func theArticleShowsTheTestedCode() throws {
        let article = try String(
            contentsOf: PackagePaths.root.appendingPathComponent(
                "Sources/RawCoding/Documentation.docc/ChangingYourModel.md"),
            encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map {
            $0.components(separatedBy: "\n```")[0]
        }
        #expect(blocks.count >= 8)
        for block in blocks {
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let found = sourceLines.indices.contains { start in
                start + lines.count <= sourceLines.count && Array(sourceLines[start..<start + lines.count]) == lines
            }
            #expect(found, "this block of the article is not in RecipeTests.swift:\n\(block)")
        }
    }
}
