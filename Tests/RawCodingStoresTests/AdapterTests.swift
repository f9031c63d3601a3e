import Foundation
import Observation
import RawCoding
import RawCodingStores
import Testing

struct Settings: Codable, Sendable, Equatable {
    var username = "guest"
    var isPrivate = false
    var ringtone = "Chime"
    var lastChange = Date(timeIntervalSince1970: 0)
}

@Suite("What each adapter does beyond the contract")
struct AdapterTests {
    @Test func userDefaultsKeepsAStructAsANativeDictionary() throws {
        let suite = "RawCodingStoresTests.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let defaults = try #require(UserDefaults(suiteName: suite))
        let settings = Settings(username: "ada", isPrivate: true, lastChange: Date(timeIntervalSince1970: 1_000))
        try defaults.setStored(settings, forKey: "settings")

        let object = try #require(defaults.dictionary(forKey: "settings"))
        #expect(object["username"] as? String == "ada")
        #expect(object["isPrivate"] as? Bool == true)
        #expect(object["lastChange"] as? Date == Date(timeIntervalSince1970: 1_000))
        #expect(try defaults.stored(Settings.self, forKey: "settings") == settings)
        #expect(try defaults.stored(Settings.self, forKey: "missing") == nil)
    }

    /// Linux's `UserDefaults` file holds dates to the whole second; a date read back after
    /// the file was loaded again (here by another process; in one process it depends on when
    /// Foundation reloads) kept only the whole second.
    @Test func userDefaultsKeepsTheFractionOfADateThroughItsFile() throws {
        let suite = "RawCodingStoresTests.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let store = UserDefaultsStore(suiteName: suite)
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let tree: StoredValue = [
            "at": .date(date), "list": [.date(date), "text"], "whole": .date(Date(timeIntervalSince1970: 1_000)),
        ]
        try store.write(tree, forKey: "times")
        #expect(try store.read(forKey: "times") == tree)
        let result = try Probe(["defaults-read", suite, "times"]).finish()
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("date(2023-11-14T22:13:20.250Z)"), "another process read \(result.output)")
        // A date of whole seconds stays a native date in the file.
        #expect(UserDefaults(suiteName: suite)?.dictionary(forKey: "times")?["whole"] as? Date != nil)
    }

    @Test func userDefaultsConvenienceKeepsUnknownKeysAndFillsMissingOnes() throws {
        let suite = "RawCodingStoresTests.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let defaults = try #require(UserDefaults(suiteName: suite))
        defaults.set(["username": "ada", "theme": "dark"], forKey: "settings")
        let read = try defaults.stored(Settings.self, forKey: "settings", defaultValue: Settings())
        #expect(read == Settings(username: "ada"))
        try defaults.setStored(read, forKey: "settings")
        #expect(defaults.dictionary(forKey: "settings")?["theme"] as? String == "dark")
    }

    @Test func aDefaultValueIsTheValueWhereTheKeyHoldsNothing() throws {
        let suite = "RawCodingStoresTests.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let defaults = try #require(UserDefaults(suiteName: suite))
        let fallback = Settings(username: "nobody")
        #expect(try defaults.stored(Settings.self, forKey: "settings") == nil)
        #expect(try defaults.stored(Settings.self, forKey: "settings", defaultValue: fallback) == fallback)
        let store = InMemoryStore()
        #expect(try store.value(Settings.self, forKey: "settings") == nil)
        #expect(try store.value(Settings.self, forKey: "settings", defaultValue: fallback) == fallback)
        // Nothing was written by reading a default.
        #expect(try store.keys().isEmpty)
        #expect(defaults.object(forKey: "settings") == nil)
    }

    @Test func userDefaultsConvenienceThrowsOneErrorTypeWithTheKey() throws {
        let suite = "RawCodingStoresTests.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let defaults = try #require(UserDefaults(suiteName: suite))
        defaults.set("not settings", forKey: "settings")
        let error = #expect(throws: RawCodingError.self) { try defaults.stored(Settings.self, forKey: "settings") }
        #expect(error?.codingPath.first?.stringValue == "settings")
        #expect(defaults.string(forKey: "settings") == "not settings")
    }

    @Test func fileStoreNamesFilesSafelyAndReadably() throws {
        let directory = try TemporaryDirectory()
        let store = try FileStore(directory: directory.url)
        for key in ["settings", "Theme", "a/b", "..", "ключ"] { try store.write(true, forKey: key) }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter {
            !$0.hasPrefix(".")
        }
        #expect(
            names.sorted()
                == ["%2E%2E.json", "%D0%BA%D0%BB%D1%8E%D1%87.json", "^Theme.json", "a%2Fb.json", "settings.json"])
        #expect(try store.keys() == ["..", "Theme", "a/b", "settings", "ключ"])
        let long = String(repeating: "k", count: 300)
        let error = #expect(throws: RawCodingError.self) { try store.write(true, forKey: long) }
        #expect(error?.kind == .storageFailed)
        #expect(error?.reason.contains("too long") == true)
    }

    @Test func fileStoreRemovesLeftoverTemporaryFilesWhenOpened() throws {
        let directory = try TemporaryDirectory()
        let leftover = directory.url.appendingPathComponent(".tmp-99999-crashed")
        try Data("half a val".utf8).write(to: leftover)
        _ = try FileStore(directory: directory.url)
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
    }

    @Test func fileStoreRefusesAFileOverItsLimitAndLeavesIt() throws {
        let directory = try TemporaryDirectory()
        let big = Data(repeating: UInt8(ascii: " "), count: 2_000) + Data("1".utf8)
        try big.write(to: directory.url.appendingPathComponent("big.json"))
        let store = try FileStore(directory: directory.url, maximumFileBytes: 1_000)
        let error = #expect(throws: RawCodingError.self) { try store.read(forKey: "big") }
        #expect(error?.kind == .limitExceeded)
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("big.json")) == big)
    }

    @Test func fileStoreIgnoresFilesItDidNotName() throws {
        let directory = try TemporaryDirectory()
        try Data("notes".utf8).write(to: directory.url.appendingPathComponent("README.txt"))
        try Data("{}".utf8).write(to: directory.url.appendingPathComponent("^bad^.json"))
        let store = try FileStore(directory: directory.url)
        #expect(try store.keys() == [])
    }

    @Test func anObservableModelSeesAnotherInstancesWrite() throws {
        let store = InMemoryStore()
        let model = SettingsModel(store: store)
        let other = SettingsModel(store: InMemoryStore(sharingStorageWith: store))
        #expect(model.settings == Settings())
        let fired = Locked(0)
        withObservationTracking {
            _ = model.settings
        } onChange: {
            fired.withLock { $0 += 1 }
        }
        other.settings.username = "ada"
        #expect(fired.withLock { $0 } == 1)
        #expect(model.settings.username == "ada")
    }

    @Test func settingThePropertyNotifiesItsOwnObservers() throws {
        let model = SettingsModel(store: InMemoryStore())
        let fired = Locked(0)
        withObservationTracking {
            _ = model.settings
        } onChange: {
            fired.withLock { $0 += 1 }
        }
        model.settings.isPrivate = true
        #expect(fired.withLock { $0 } == 1)
        #expect(model.settings.isPrivate)
    }

    @Test func anObserverMayReadAndWritePropertiesWhileTheStoreNotifies() throws {
        let values = try finishing(within: 10, "an observer that reads and writes properties deadlocked the write") {
            let store = InMemoryStore()
            let writer = StoredProperty("shared", store: store, defaultValue: 0)
            let reader = StoredProperty("shared", store: store, defaultValue: 0)
            let echo = StoredProperty("echo", store: store, defaultValue: 0)
            let before = reader.value
            withObservationTracking {
                _ = reader.value
            } onChange: {
                // Runs while `writer` is writing: reading it, or writing another key, must not deadlock.
                _ = writer.value
                echo.value = 1
            }
            writer.value = 5
            return [before, reader.value, writer.value, echo.value]
        }
        #expect(values == [0, 5, 5, 1])
    }

    /// `nil` removes the key: `@Stored` and `setStored` leave nothing in the defaults (they
    /// failed with "null cannot be stored in a property list" and kept the old value), and a
    /// property whose default is another value reads that default, as a new instance does.
    @Test func nilRemovesTheKeyAndReadsAsTheDefault() throws {
        let suite = "RawCodingStoresTests.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let defaults = try #require(UserDefaults(suiteName: suite))
        let store = UserDefaultsStore(defaults: defaults)
        @Stored("nickname", store: store) var nickname: String? = nil
        nickname = "Ada"
        #expect(defaults.string(forKey: "nickname") == "Ada")
        nickname = nil
        #expect(defaults.object(forKey: "nickname") == nil)
        #expect(nickname == nil)
        #expect($nickname.error == nil)

        try defaults.setStored(Settings() as Settings?, forKey: "settings")
        #expect(defaults.dictionary(forKey: "settings") != nil)
        try defaults.setStored(nil as Settings?, forKey: "settings")
        #expect(defaults.object(forKey: "settings") == nil)

        let greeting = StoredProperty<String?>("greeting", store: store, defaultValue: "hello")
        try greeting.set("hi")
        #expect(greeting.value == "hi")
        try greeting.set(nil)
        #expect(defaults.object(forKey: "greeting") == nil)
        #expect(greeting.value == "hello")
        #expect(StoredProperty<String?>("greeting", store: store, defaultValue: "hello").value == "hello")
    }

    /// `@Stored` of an optional versioned model migrates what an older version wrote, and its
    /// write records the version, so the next read does not migrate again.
    @Test func anOptionalVersionedModelMigratesInAStore() throws {
        struct Size: Codable, Equatable, StoredVersioned {
            var size: Int
            static let storedVersion = 2
            static let migrations: [StoredMigration] = [
                .tree(from: 1) { tree in tree["size"] = .int(Int64(tree["size"]?.stringValue ?? "") ?? 0) }
            ]
        }
        let store = InMemoryStore()
        try store.write(["size": "12"], forKey: "size")
        @Stored("size", store: store) var size: Size? = nil
        #expect(size == Size(size: 12))
        #expect($size.error == nil)
        size = Size(size: 13)
        #expect(try store.read(forKey: "size") == ["$version": 2, "size": 13])
        #expect(StoredProperty<Size?>("size", store: store, defaultValue: nil).value == Size(size: 13))
    }

    @Test func aStoredDictionaryHoldsAnyPropertyListValues() throws {
        let store = InMemoryStore()
        let property = StoredProperty<[String: StoredValue]>("preferences", store: store, defaultValue: [:])
        property.value["volume"] = 0.5
        property.value["tags"] = ["a", "b"]
        #expect(try store.read(forKey: "preferences") == ["volume": 0.5, "tags": ["a", "b"]])
    }
}

@Observable final class SettingsModel {
    @ObservationIgnored @Stored var settings: Settings

    init(store: any KeyValueStore) {
        _settings = Stored(wrappedValue: Settings(), "settings", store: store)
    }
}

@Suite("FileStores with different codecs in one directory")
struct SharedDirectoryTests {
    @Test func eachStoreListsOnlyItsOwnKeysAndPayloads() throws {
        let directory = try TemporaryDirectory()
        let json = try FileStore(directory: directory.url, codec: .json)
        let pretty = try FileStore(directory: directory.url, codec: .json(.pretty))
        let binary = try FileStore(directory: directory.url, codec: .propertyList(.binary))
        try json.write("dark", forKey: "theme")
        try pretty.write("light", forKey: "theme")
        try pretty.write(14, forKey: "font.size")
        try binary.write(true, forKey: "Sync")
        // Files no store made: a hand-made name, and a non-canonical escape of "theme".
        try Data("{}".utf8).write(to: directory.url.appendingPathComponent("notes.txt"))
        try Data("1".utf8).write(to: directory.url.appendingPathComponent("%74heme.json"))

        #expect(try json.keys() == ["theme"])
        #expect(try pretty.keys() == ["font.size", "theme"])
        #expect(try binary.keys() == ["Sync"])
        #expect(try json.read(forKey: "theme") == "dark")
        #expect(try pretty.read(forKey: "theme") == "light")

        _ = try json.setAside(forKey: "theme")
        _ = try pretty.setAside(forKey: "font.size")
        #expect(try json.setAsidePayloads().map(\.key) == ["theme"])
        #expect(try pretty.setAsidePayloads().map(\.key) == ["font.size"])
        #expect(try binary.setAsidePayloads().isEmpty)
        // One store cannot discard another's payload.
        let prettyID = try #require(try pretty.setAsidePayloads().first?.id)
        #expect(throws: RawCodingError.self) { try json.discardSetAside(prettyID) }
        #expect(try pretty.setAsidePayloads().count == 1)
    }
}
