import Foundation
import RawCoding
import RawCodingStores
import Testing

/// A value shared with a `@Sendable` closure, behind a lock.
final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// Removes every key of the suite, as `Defaults.removeAll(suite:)`.
func removeAll(_ suite: PortSuite) throws {
    for key in try suite.store.keys() { try suite.store.remove(forKey: key) }
}

let fixtureURL = URL(string: "https://sindresorhus.com")!
let fixtureFileURL = URL(string: "file://~/icon.png")!
let fixtureURL2 = URL(string: "https://example.com")!

/// `DefaultsTests.swift`: keys, types, dynamic defaults, registration, observation, reset.
enum DefaultsTestsPort {
    static let file = "DefaultsTests"

    static let cases: [DefaultsCase] = [
        DefaultsCase(file, "testKey") { (suite: PortSuite) throws in
            let key = suite.key("independentKey", default: false)
            #expect(!key.value)
            key.value = true
            #expect(key.value)
            #expect(try suite.persisted("independentKey", default: false))
        },
        DefaultsCase(
            file, "testValidKeyName",
            .keptDifference("any key name is valid: no key-value-observing key path is made of it")
        ) { (suite: PortSuite) throws in
            for name in ["test", "test.a", "@test"] {
                let key = suite.key(name, default: false)
                key.value = true
                #expect(try suite.persisted(name, default: false), "\(name)")
            }
        },
        DefaultsCase(file, "testOptionalKey") { (suite: PortSuite) throws in
            let key: StoredKey<Bool?> = suite.key("independentOptionalKey")
            let url: StoredKey<URL?> = suite.key("independentOptionalURLKey")
            #expect(key.value == nil)
            #expect(url.value == nil)
            key.value = true
            url.value = fixtureURL
            #expect(key.value == true)
            #expect(url.value == fixtureURL)
            key.value = nil
            url.value = nil
            #expect(key.value == nil)
            #expect(url.value == nil)
            key.value = false
            url.value = fixtureURL2
            #expect(key.value == false)
            #expect(url.value == fixtureURL2)
        },
        DefaultsCase(file, "testInitializeDynamicDateKey") { (suite: PortSuite) throws in
            let calls = Box(0)
            let key = StoredKey<Date>("independentInitializeDynamicDateKey", store: suite.store) {
                calls.value += 1
                return Date()
            }
            let optional = StoredKey<Date?>("independentInitializeDynamicOptionalDateKey", store: suite.store) {
                calls.value += 1
                return Date()
            }
            _ = (key, optional)
            #expect(calls.value == 0, "making a key must not run its default")
        },
        DefaultsCase(
            file, "testKeyRegistersDefault",
            .keptDifference(
                "making a key registers nothing: UserDefaultsStore.registerDefault(_:forKey:) registers "
                    + "(a key is a value, made anywhere, and registering is a global effect)")
        ) { (suite: PortSuite) throws in
            #expect(!suite.defaults.bool(forKey: "registersDefault"))
            let key = suite.key("registersDefault", default: true)
            #expect(!suite.defaults.bool(forKey: "registersDefault"))
            try suite.store.registerDefault(key.defaultValue, forKey: key.name)
            #expect(suite.defaults.bool(forKey: "registersDefault"))
            let key2 = suite.key("registersDefault2", default: "registersDefault2")
            try suite.store.registerDefault(key2.defaultValue, forKey: key2.name)
            #expect(suite.defaults.string(forKey: "registersDefault2") == "registersDefault2")
            #expect(try suite.store.keys().isEmpty, "registered defaults are not stored keys")
        },
        DefaultsCase(file, "testKeyWithUserDefaultSubscript") { (suite: PortSuite) throws in
            // `suite[key]` is `UserDefaults.stored(_:forKey:defaultValue:)` / `setStored`.
            let key = suite.key("keyWithUserDeaultSubscript", default: false)
            #expect(try !suite.defaults.stored(Bool.self, forKey: key.name, defaultValue: key.defaultValue))
            try suite.defaults.setStored(true, forKey: key.name)
            #expect(try suite.defaults.stored(Bool.self, forKey: key.name, defaultValue: key.defaultValue))
        },
        DefaultsCase(file, "testKeys") { (suite: PortSuite) throws in
            let key = suite.key("key", default: false)
            #expect(!key.value)
            key.value = true
            #expect(key.value)
        },
        DefaultsCase(file, "testUrlType") { (suite: PortSuite) throws in
            let key = suite.key("url", default: fixtureURL)
            #expect(key.value == fixtureURL)
            let newURL = URL(string: "https://twitter.com")!
            key.value = newURL
            #expect(key.value == newURL)
            #expect(try suite.persisted("url", default: fixtureURL) == newURL)
        },
        DefaultsCase(file, "testDataType") { (suite: PortSuite) throws in
            let key = suite.key("data", default: Data())
            #expect(key.value == Data())
            key.value = Data([0xFF])
            #expect(key.value == Data([0xFF]))
            #expect(suite.defaults.data(forKey: "data") == Data([0xFF]))
        },
        DefaultsCase(file, "testDateType") { (suite: PortSuite) throws in
            let fixtureDate = Date()
            let key = suite.key("date", default: fixtureDate)
            #expect(key.value == fixtureDate)
            let newDate = Date()
            key.value = newDate
            #expect(key.value == newDate)
            #expect(try suite.persisted("date", default: fixtureDate) == newDate)
        },
        DefaultsCase(file, "testDynamicDateType") { (suite: PortSuite) throws in
            let key = StoredKey<Date>("defaultDynamicDate", store: suite.store) { Date(timeIntervalSince1970: 0) }
            #expect(key.value == Date(timeIntervalSince1970: 0))
            let next = Date(timeIntervalSince1970: 1)
            key.value = next
            #expect(key.value == next)
            #expect(suite.defaults.object(forKey: key.name) as? Date == next)
            try key.reset()
            #expect(key.value == Date(timeIntervalSince1970: 0))
        },
        DefaultsCase(file, "testDynamicOptionalDateType") { (suite: PortSuite) throws in
            let key = StoredKey<Date?>("defaultDynamicOptionalDate", store: suite.store) {
                Date(timeIntervalSince1970: 1)
            }
            #expect(key.value == Date(timeIntervalSince1970: 1))
            let next = Date(timeIntervalSince1970: 2)
            key.value = next
            #expect(key.value == next)
            #expect(suite.defaults.object(forKey: key.name) as? Date == next)
            key.value = nil
            #expect(key.value == Date(timeIntervalSince1970: 1))
            #expect(suite.defaults.object(forKey: key.name) == nil)
        },
        DefaultsCase(file, "testFileURLType") { (suite: PortSuite) throws in
            #expect(suite.key("fileURL", default: fixtureFileURL).value == fixtureFileURL)
        },
        DefaultsCase(file, "testUUIDType") { (suite: PortSuite) throws in
            let key: StoredKey<UUID?> = suite.key("uuid")
            let fixture = UUID()
            key.value = fixture
            #expect(key.value == fixture)
            #expect(try suite.persisted("uuid", default: nil as UUID?) == fixture)
        },
        DefaultsCase(file, "testRemoveAll") { (suite: PortSuite) throws in
            let key = suite.key("removeAll", default: false)
            let key2 = suite.key("removeAll2", default: false)
            key.value = true
            key2.value = true
            #expect(key.value && key2.value)
            try removeAll(suite)
            #expect(!key.value)
            #expect(!key2.value)
        },
        DefaultsCase(file, "testCustomSuite") { (suite: PortSuite) throws in
            let custom = PortSuite()
            let key = custom.key("customSuite", default: false)
            #expect(try !custom.defaults.stored(Bool.self, forKey: key.name, defaultValue: false))
            #expect(!key.value)
            key.value = true
            #expect(try custom.defaults.stored(Bool.self, forKey: key.name, defaultValue: false))
            #expect(key.value)
            #expect(suite.defaults.object(forKey: key.name) == nil, "another suite is untouched")
        },
        DefaultsCase(file, "testIsDefaultValue") { (suite: PortSuite) throws in
            let key = suite.key("isDefaultValue", default: false)
            #expect(key.value == key.defaultValue)
            key.value.toggle()
            #expect(key.value != key.defaultValue)
        },
        DefaultsCase(file, "testObserveKeyCombine") { (suite: PortSuite) async throws in
            let key = suite.key("observeKey", default: false)
            var values = key.values().makeAsyncIterator()
            #expect(await values.next() == false)
            key.value = true
            #expect(await values.next() == true)
            try key.reset()
            #expect(await values.next() == false)
        },
        DefaultsCase(file, "testObserveOptionalKeyCombine") { (suite: PortSuite) async throws in
            let key: StoredKey<Bool?> = suite.key("observeOptionalKey")
            var values = key.values().makeAsyncIterator()
            #expect(await values.next() == .some(nil))
            for value in [true, false] {
                key.value = value
                #expect(await values.next() == value)
            }
            try key.reset()
            #expect(await values.next() == .some(nil))
        },
        DefaultsCase(file, "testDynamicOptionalDateTypeCombine") { (suite: PortSuite) async throws in
            let first = Date(timeIntervalSince1970: 0)
            let key = StoredKey<Date?>("combineDynamicOptionalDateKey", store: suite.store) { first }
            var values = key.values().makeAsyncIterator()
            #expect(await values.next() == first)
            for date in [Date(timeIntervalSince1970: 1), Date(timeIntervalSince1970: 2)] {
                key.value = date
                #expect(await values.next() == date)
            }
            try key.reset()
            #expect(await values.next() == first)
        },
        DefaultsCase(file, "testObserveMultipleKeysCombine") { (suite: PortSuite) async throws in
            let key1 = suite.key("observeKey1", default: "x")
            let key2 = suite.key("observeKey2", default: true)
            let changes = try await collect(2, from: StoredKeys.changes([key1, key2])) {
                key1.value = "y"
                key2.value = false
            }
            #expect(changes == ["observeKey1", "observeKey2"])
        },
        DefaultsCase(file, "testObserveMultipleOptionalKeysCombine") { (suite: PortSuite) async throws in
            let key1: StoredKey<String?> = suite.key("observeOptionalKey1")
            let key2: StoredKey<Bool?> = suite.key("observeOptionalKey2")
            let changes = try await collect(2, from: StoredKeys.changes([key1, key2])) {
                key1.value = "x"
                key2.value = false
            }
            #expect(changes.count == 2)
        },
        DefaultsCase(file, "testReceiveValueBeforeSubscriptionCombine") { (suite: PortSuite) async throws in
            let key = suite.key("receiveValueBeforeSubscription", default: "hello")
            key.value = "world"
            var values = key.values().makeAsyncIterator()
            #expect(await values.next() == "world")
            key.value = "!"
            #expect(await values.next() == "!")
        },
        DefaultsCase(
            file, "testObservePreventPropagationCombine",
            .keptDifference(
                "no withoutPropagation: an observer's own writes are never reported back to it, and every other "
                    + "observer and property still sees them")
        ) { (suite: PortSuite) throws in
            let key: StoredKey<Bool?> = suite.key("preventPropagation6")
            let calls = Box(0)
            let observation = suite.store.observe { change in
                guard change.affects(key.name) else { return }
                calls.value += 1
                key.value = true
            }
            key.value = false
            #expect(calls.value == 1)
            #expect(key.value == true)
            observation.cancel()
        },
        DefaultsCase(
            file, "testObservePreventPropagationMultipleKeysCombine",
            .keptDifference("an observer's own writes are not reported back to it (no withoutPropagation)")
        ) { (suite: PortSuite) throws in
            let key1: StoredKey<Bool?> = suite.key("preventPropagation7")
            let key2: StoredKey<Bool?> = suite.key("preventPropagation8")
            let calls = Box(0)
            let observation = suite.store.observe { change in
                guard change.affects(key1.name) || change.affects(key2.name) else { return }
                calls.value += 1
                key1.value = true
            }
            key2.value = false
            #expect(calls.value == 1)
            #expect(key1.value == true)
            observation.cancel()
        },
        DefaultsCase(file, "testResetKey") { (suite: PortSuite) throws in
            let key1 = suite.key("key1", default: "foo1")
            let key2 = suite.key("key2", default: 0)
            key1.value = "bar1"
            key2.value = 1
            try key1.reset()
            #expect(key1.value == "foo1")
            #expect(key2.value == 1)
        },
        DefaultsCase(file, "testResetMultipleKeys") { (suite: PortSuite) throws in
            let key1 = suite.key("akey1", default: "foo1")
            let key2 = suite.key("akey2", default: 0)
            let key3 = suite.key("akey3", default: "foo3")
            key1.value = "bar1"
            key2.value = 1
            key3.value = "bar3"
            try StoredKeys.reset([key1, key2])
            #expect(key1.value == "foo1")
            #expect(key2.value == 0)
            #expect(key3.value == "bar3")
        },
        DefaultsCase(file, "testResetMultipleOptionalKeys") { (suite: PortSuite) throws in
            let key1: StoredKey<String?> = suite.key("aoptionalKey1")
            let key2: StoredKey<Int?> = suite.key("aoptionalKey2")
            let key3: StoredKey<String?> = suite.key("aoptionalKey3")
            key1.value = "bar1"
            key2.value = 1
            key3.value = "bar3"
            try StoredKeys.reset([key1, key2])
            #expect(key1.value == nil)
            #expect(key2.value == nil)
            #expect(key3.value == "bar3")
        },
        DefaultsCase(file, "testImmediatelyFinishingPublisherCombine") { (suite: PortSuite) async throws in
            var values = suite.key("observeKey", default: false).values().makeAsyncIterator()
            #expect(await values.next() == false)
        },
        DefaultsCase(file, "testImmediatelyFinishingMultiplePublisherCombine") { (suite: PortSuite) async throws in
            let stream = StoredKeys.values(
                suite.key("observeKey1", default: false), suite.key("observeKey2", default: "🦄"))
            var values = stream.makeAsyncIterator()
            let first = await values.next()
            #expect(first?.0 == false)
            #expect(first?.1 == "🦄")
        },
        DefaultsCase(file, "testKeyEquatable") { (suite: PortSuite) throws in
            #expect(suite.key("equatableKeyTest", default: false) == suite.key("equatableKeyTest", default: false))
            // Another instance on the same suite is the same storage.
            #expect(
                suite.key("equatableKeyTest", default: false)
                    == StoredKey(
                        "equatableKeyTest", store: UserDefaultsStore(suiteName: suite.name), defaultValue: false))
        },
        DefaultsCase(file, "testKeyHashable") { (suite: PortSuite) throws in
            let keys = Set([suite.key("hashableKeyTest", default: false), suite.key("hashableKeyTest", default: false)])
            #expect(keys.count == 1)
        },
        DefaultsCase(file, "testUpdates") { (suite: PortSuite) async throws in
            let key = suite.key("updatesKey", default: false)
            let values = try await collect(2, from: key.values()) { key.value = true }
            #expect(values == [false, true])
        },
        DefaultsCase(file, "testUpdatesMultipleKeys") { (suite: PortSuite) async throws in
            let key1 = suite.key("updatesMultipleKey1", default: false)
            let key2 = suite.key("updatesMultipleKey2", default: false)
            let changes = try await collect(2, from: StoredKeys.changes([key1, key2])) {
                key1.value = true
                key2.value = true
            }
            #expect(changes.count == 2)
        },
        DefaultsCase(file, "testUpdatesMultipleKeysVariadic") { (suite: PortSuite) async throws in
            let key1 = suite.key("updatesMultipleKeyVariadic1", default: false)
            let key2 = suite.key("updatesMultipleKeyVariadic2", default: false)
            let stream = StoredKeys.values(key1, key2)
            var values = stream.makeAsyncIterator()
            let initial = await values.next()
            #expect(initial?.0 == false && initial?.1 == false)
            key1.value = true
            let first = await values.next()
            #expect(first?.0 == true && first?.1 == false)
            key2.value = true
            let second = await values.next()
            #expect(second?.0 == true && second?.1 == true)
        },
    ]
}
