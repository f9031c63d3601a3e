import Foundation
import RawCoding
import Testing

/// A type at version 4 whose steps each leave a mark, to show they run once each, in order.
private struct Chained: Codable, Equatable, StoredVersioned {
    var trail: [String]
    var value: Int

    static let storedVersion = 4
    static let migrations: [StoredMigration] = [
        // Listed out of order on purpose: steps are found by version.
        .tree(from: 3) { tree in tree["trail"] = .array((tree["trail"]?.arrayValue ?? []) + ["3→4"]) },
        .tree(from: 1) { tree in
            tree["trail"] = ["1→2"]
            tree.renameKey("count", to: "value")
        },
        .typed(from: 2, ChainedV2.self) { old in ChainedV3(trail: old.trail + ["2→3"], value: old.value * 10) },
    ]
}

private struct ChainedV2: Codable {
    var trail: [String]
    var value: Int
}
private struct ChainedV3: Codable {
    var trail: [String]
    var value: Int
}

/// A step that refuses what it cannot convert.
private struct Strict: Codable, Equatable, StoredVersioned {
    struct Refusal: Error, CustomStringConvertible {
        var description: String { "the old size is not a number" }
    }
    var size: Int

    static let storedVersion = 2
    static let migrations: [StoredMigration] = [
        .tree(from: 1) { tree in
            guard let size = Int(tree["size"]?.stringValue ?? "") else { throw Refusal() }
            tree["size"] = .int(Int64(size))
        }
    ]
}

/// A versioned value that is not a dictionary.
private struct Tags: Codable, Equatable, StoredVersioned {
    var values: [String]
    init(_ values: [String]) { self.values = values }
    init(from decoder: any Decoder) throws { values = try decoder.singleValueContainer().decode([String].self) }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }
    static let storedVersion = 2
    static let migrations: [StoredMigration] = [
        .tree(from: 1) { tree in
            // Version 1 stored one comma-separated string.
            tree = .array((tree.stringValue ?? "").split(separator: ",").map { .string(String($0)) })
        }
    ]
}

private struct Unsteppable: Codable, StoredVersioned {
    var size: Int
    static let storedVersion = 3
    static let migrations: [StoredMigration] = [.tree(from: 1) { _ in }]
}

@Suite("Schema versions and migrations")
struct MigrationTests {
    @Test(arguments: CodecCase.allCases)
    func aLegacyPayloadRunsEveryStepAndIsWrittenBackAtTheCurrentVersion(_ codecCase: CodecCase) throws {
        let codec = codecCase.codec
        let legacy = try codec.encode(SettingsV1.sample)
        let stored = try codec.decodeStored(EvolvingSettings.self, from: legacy)
        #expect(stored.value == EvolvingSettings.v1Expected)
        #expect(stored.storedVersion == 1)
        #expect(stored.isOutdated)
        // The typed step from version 2 made a whole value: nothing left to fill.
        #expect(stored.filledKeyPaths == [])

        let written = try codec.encodeStored(stored.value, keeping: stored.unknownKeys)
        #expect(try codec.readTree(from: written)["$version"] == 3)
        let again = try codec.decodeStored(EvolvingSettings.self, from: written)
        #expect(again.value == stored.value)
        #expect(again.storedVersion == 3)
        #expect(!again.isOutdated)
    }

    @Test(arguments: CodecCase.allCases)
    func aChainOfThreeStepsRunsInOrder(_ codecCase: CodecCase) throws {
        let codec = codecCase.codec
        let fromOne = try codec.decodeStored(Chained.self, from: codec.writeTree(["count": 4]))
        #expect(fromOne.value == Chained(trail: ["1→2", "2→3", "3→4"], value: 40))
        #expect(fromOne.storedVersion == 1)
        let fromThree = try codec.decodeStored(
            Chained.self, from: codec.writeTree(["$version": 3, "trail": ["x"], "value": 1]))
        #expect(fromThree.value == Chained(trail: ["x", "3→4"], value: 1))
        let current = try codec.decodeStored(
            Chained.self, from: codec.writeTree(["$version": 4, "trail": [], "value": 2]))
        #expect(current.value == Chained(trail: [], value: 2))
    }

    @Test(arguments: CodecCase.allCases)
    func aNewerVersionIsAMigrationErrorAndLeavesThePayloadAsItWas(_ codecCase: CodecCase) throws {
        let codec = codecCase.codec
        var tree = try codec.encodeStoredTree(EvolvingSettings.sample)
        tree["$version"] = 4
        tree["theme"] = "dark"
        let payload = try codec.writeTree(tree)
        let copy = payload
        let error = #expect(throws: RawCodingError.self) {
            try codec.decodeStored(EvolvingSettings.self, from: payload)
        }
        #expect(error?.kind == .migrationFailed)
        #expect(error?.description.contains("version 4, newer than version 3") == true)
        #expect(error?.typeName.hasSuffix("EvolvingSettings") == true)
        #expect(payload == copy)
    }

    /// An optional of a versioned type migrates and records the version as the type does (it
    /// did neither: the version was looked up on `Optional`), and its `nil` records none.
    @Test(arguments: CodecCase.allCases)
    func anOptionalOfAVersionedTypeMigratesAndRecordsItsVersion(_ codecCase: CodecCase) throws {
        let codec = codecCase.codec
        let old = try codec.writeTree(["size": "12"])
        let migrated = try codec.decodeStored(Strict?.self, from: old)
        #expect(migrated.value == Strict(size: 12))
        #expect(migrated.storedVersion == 1)
        #expect(migrated.isOutdated)

        let written = try codec.encode(Strict(size: 12) as Strict?)
        #expect(try codec.readTree(from: written)["$version"] == 2)
        #expect(written == (try codec.encode(Strict(size: 12))))
        let again = try codec.decodeStored(Strict?.self, from: written)
        #expect(again.value == Strict(size: 12) && again.storedVersion == 2 && !again.isOutdated)
        #expect(try codec.decode(Strict?.self, from: written) == Strict(size: 12))

        #expect(try codec.encodeStoredTree(nil as Strict?) == .null)
        #expect(try codec.decodeStored(Strict?.self, fromTree: .null).value == nil)
    }

    @Test(arguments: CodecCase.allCases)
    func aThrowingStepIsAMigrationErrorWithItsCause(_ codecCase: CodecCase) throws {
        let codec = codecCase.codec
        let payload = try codec.writeTree(["size": "large"])
        let error = #expect(throws: RawCodingError.self) { try codec.decodeStored(Strict.self, from: payload) }
        #expect(error?.kind == .migrationFailed)
        #expect(error?.underlyingError is Strict.Refusal)
        #expect(error?.description.contains("step from version 1 to 2 threw: the old size is not a number") == true)
        #expect(try codec.decodeStored(Strict.self, from: codec.writeTree(["size": "12"])).value.size == 12)
    }

    @Test func aFailingTypedStepNamesThePathInsideTheOldForm() throws {
        let payload = Data(
            #"{"$version":2,"username":"x","privateAccount":false,"ringtone":7,"customRingtone":false,"volume":1}"#.utf8
        )
        let error = #expect(throws: RawCodingError.self) {
            try JSONCodec().decodeStored(EvolvingSettings.self, from: payload)
        }
        #expect(error?.kind == .migrationFailed)
        #expect(error?.codingPathDescription == "ringtone")
        #expect((error?.underlyingError as? RawCodingError)?.kind == .decodingFailed)
    }

    @Test func aMissingStepOrAnInvalidVersionIsAMigrationError() throws {
        let missing = #expect(throws: RawCodingError.self) {
            try JSONCodec().decodeStored(Unsteppable.self, from: #"{"$version":2,"size":1}"#)
        }
        #expect(missing?.kind == .migrationFailed)
        #expect(missing?.description.contains("no step from 2 to 3") == true)
        for version in [#""3""#, "0", "-1", "2.5", "true"] {
            let invalid = #expect(throws: RawCodingError.self) {
                try JSONCodec().decodeStored(Unsteppable.self, from: #"{"$version":\#(version),"size":1}"#)
            }
            #expect(invalid?.kind == .migrationFailed)
            #expect(invalid?.codingPathDescription == "$version")
        }
    }

    @Test(arguments: CodecCase.allCases)
    func aValueThatIsNotADictionaryIsWrappedWithItsVersion(_ codecCase: CodecCase) throws {
        let codec = codecCase.codec
        let written = try codec.encodeStored(Tags(["a", "b"]))
        let tree = try codec.readTree(from: written)
        #expect(tree == ["$version": 2, "$value": ["a", "b"]])
        #expect(try codec.decodeStored(Tags.self, from: written).value == Tags(["a", "b"]))
        let legacy = try codec.encode("a,b,c")
        #expect(try codec.decodeStored(Tags.self, from: legacy).value == Tags(["a", "b", "c"]))
    }

    @Test func rawCodableRecordsTheVersionAndMigrates() throws {
        let legacy = try JSONCodec().encodeToString(SettingsV1.sample)
        let stored = try #require(RawCodable<EvolvingSettings>(rawValue: legacy))
        #expect(stored.wrappedValue == EvolvingSettings.v1Expected)
        #expect(stored.rawValue.hasPrefix(#"{"$version":3,"#))
        #expect(RawCodable<EvolvingSettings>(rawValue: stored.rawValue) == stored)
    }

    @Test func aPayloadThatDoesNotMigrateIsReportedAndStaysInTheStore() throws {
        let suite = "rawcoding.migration.\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let newer = #"{"$version":9,"username":"x"}"#
        defaults.set(newer, forKey: "settings")

        let events = Collected<RawCodingDiagnostics.Event>()
        let read = RawCodingDiagnostics.withHandler({ events.append($0) }) {
            defaults.string(forKey: "settings").flatMap(RawCodable<EvolvingSettings>.init(rawValue:))
        }
        #expect(read == nil)
        #expect(events.all.map(\.kind) == [.storedValueDidNotDecode])
        #expect(events.all.first?.error.kind == .migrationFailed)
        #expect(events.all.first?.error.description.contains("newer than version 3") == true)
        #expect(defaults.string(forKey: "settings") == newer)
    }
}

/// A model that is its own raw value, versioned and with a default.
private struct SelfStoredPrefs: RawStringCodable, StoredVersioned, StoredDefault, Equatable {
    var theme: String
    var fontSize: Int

    enum CodingKeys: String, CodingKey { case theme, fontSize }
    init(theme: String, fontSize: Int) {
        self.theme = theme
        self.fontSize = fontSize
    }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        theme = try container.decode(String.self, forKey: .theme)
        fontSize = try container.decode(Int.self, forKey: .fontSize)
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(theme, forKey: .theme)
        try container.encode(fontSize, forKey: .fontSize)
    }

    static let storedVersion = 2
    static let migrations: [StoredMigration] = [.tree(from: 1) { tree in tree.renameKey("color", to: "theme") }]
    static let defaultValue = SelfStoredPrefs(theme: "light", fontSize: 14)
}

@Suite("Stored forms of RawStringCodable models")
struct RawStringCodableEvolutionTests {
    @Test func itsRawValueRecordsTheVersionAndOlderTextMigratesAndIsFilled() throws {
        let old = try #require(SelfStoredPrefs(rawValue: #"{"color":"dark"}"#))
        #expect(old == SelfStoredPrefs(theme: "dark", fontSize: 14))
        #expect(old.rawValue == #"{"$version":2,"fontSize":14,"theme":"dark"}"#)
        #expect(SelfStoredPrefs(rawValue: old.rawValue) == old)
        let events = Collected<RawCodingDiagnostics.Event>()
        RawCodingDiagnostics.withHandler({ events.append($0) }) {
            #expect(SelfStoredPrefs(rawValue: #"{"$version":3,"theme":"x"}"#) == nil)
        }
        #expect(events.all.first?.error.kind == .migrationFailed)
        #expect(events.all.first?.error.typeName.hasSuffix("SelfStoredPrefs") == true)
        // Inside another model it encodes member by member (its own encode(to:)), with no version.
        struct Outer: Codable, Equatable { var prefs: SelfStoredPrefs }
        let outer = try JSONCodec().encodeToString(Outer(prefs: old))
        #expect(outer == #"{"prefs":{"fontSize":14,"theme":"dark"}}"#)
    }
}
