import Foundation
import RawCoding
import RawCodingStores
import Testing

/// Keys as values, closure defaults, registered defaults, several keys at once, and observers
/// that write: what Defaults users rely on, in this library's vocabulary.
@Suite struct StoredKeyTests {
    /// The handler of a stream of several keys holds the keys, and through them their
    /// properties: ending the stream released the last of them inside the broadcaster's lock,
    /// whose deinit then ended its own observation there (a deadlock, seen in the Defaults port).
    @Test func endingAnObservationThatHoldsTheLastPropertyReturns() throws {
        let done = try finishing(within: 10, "cancelling an observation that holds the last property") {
            let store = InMemoryStore()
            var stream: AsyncStream<(Int, String)>? = StoredKeys.values(
                StoredKey("a", store: store, defaultValue: 1), StoredKey("b", store: store, defaultValue: "b"))
            _ = stream
            stream = nil
            return true
        }
        #expect(done == true)
    }

    /// An observer may write the property whose write it observes, from inside that write:
    /// the observer's value wins, everywhere, and the observer is not called by its own write.
    @Test(arguments: [0, 1])
    func anObserverMayWriteThePropertyItObserves(_ which: Int) throws {
        let suite = "RawCodingStoresTests.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let store: any KeyValueStore = which == 0 ? InMemoryStore() : UserDefaultsStore(suiteName: suite)
        let property = StoredProperty("volume", store: store, defaultValue: 0)
        let calls = Locked(0)
        let observation = store.observe { change in
            guard change.affects("volume") else { return }
            calls.withLock { $0 += 1 }
            // Clamp what was written.
            if property.value > 10 { property.value = 10 }
        }
        let finished = try finishing(within: 10, "an observer writing the property it observes") {
            property.value = 50
            return property.value
        }
        #expect(finished == 10)
        #expect(calls.withLock { $0 } == 1)
        #expect(try store.value(Int.self, forKey: "volume") == 10)
        #expect(StoredProperty("volume", store: store, defaultValue: 0).value == 10)
        observation.cancel()
    }

    @Test func aKeyMakesItsDefaultOnlyWhenNeededAndAgainOnReset() throws {
        let store = InMemoryStore()
        let made = Locked(0)
        let key = StoredKey<Int>("counter", store: store) {
            made.withLock {
                $0 += 1
                return $0 * 100
            }
        }
        #expect(made.withLock { $0 } == 0, "making a key makes no default")
        let first = key.value
        #expect(first > 0 && first % 100 == 0)
        key.value = 5
        #expect(key.value == 5)
        try key.reset()
        #expect(key.value > first, "the default is made again after a reset")
        #expect(try store.read(forKey: "counter") == nil)
    }

    @Test func keysAreEqualByNameAndStorage() {
        let suite = "RawCodingStoresTests.\(UUID().uuidString)"
        let memory = InMemoryStore()
        #expect(StoredKey("a", store: memory, defaultValue: 0) == StoredKey("a", store: memory, defaultValue: 1))
        #expect(StoredKey("a", store: memory, defaultValue: 0) != StoredKey("b", store: memory, defaultValue: 0))
        #expect(
            StoredKey("a", store: memory, defaultValue: 0) != StoredKey("a", store: InMemoryStore(), defaultValue: 0))
        #expect(
            StoredKey("a", store: UserDefaultsStore(suiteName: suite), defaultValue: 0)
                == StoredKey("a", store: UserDefaultsStore(suiteName: suite), defaultValue: 0))
        #expect(
            Set([
                StoredKey("a", store: UserDefaultsStore.standard, defaultValue: 0),
                StoredKey("a", store: UserDefaultsStore.standard, defaultValue: 0),
            ]).count == 1)
    }

    @Test func aRegisteredDefaultIsSeenByPlainUserDefaultsAndIsNotAStoredKey() throws {
        let suite = "RawCodingStoresTests.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let store = UserDefaultsStore(suiteName: suite)
        // Registered defaults are the whole process's on Linux, seen by every suite: a key of
        // this test's own.
        let key = "registered-\(UUID().uuidString)"
        try store.registerDefault(["theme": "dark"], forKey: key)
        try store.registerDefault(nil as Int?, forKey: "\(key)-nothing")
        #expect(store.defaults.dictionary(forKey: key)?["theme"] as? String == "dark")
        #expect(store.defaults.object(forKey: "\(key)-nothing") == nil)
        #expect(try store.keys().isEmpty)
        #expect(try store.value([String: String].self, forKey: key) == ["theme": "dark"])
        #expect(throws: RawCodingError.self) { try store.registerDefault(1, forKey: UserDefaultsStore.setAsideKey) }
    }

    @Test func severalKeysStreamTheirValuesTogether() async throws {
        let store = InMemoryStore()
        let name = StoredKey("name", store: store, defaultValue: "ada")
        let volume = StoredKey("volume", store: store, defaultValue: 1)
        var values = StoredKeys.values(name, volume).makeAsyncIterator()
        let first = await values.next()
        #expect(first?.0 == "ada" && first?.1 == 1)
        volume.value = 2
        let second = await values.next()
        #expect(second?.0 == "ada" && second?.1 == 2)
        try StoredKeys.reset([name, volume])
        #expect(name.value == "ada" && volume.value == 1)
        #expect(try store.keys().isEmpty)
    }
}
