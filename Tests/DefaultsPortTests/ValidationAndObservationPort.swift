import Foundation
import RawCoding
import RawCodingStores
import Testing

/// `DefaultsValidationTests.swift`: key names, equality, default values, dynamic defaults.
enum ValidationPort {
    static let file = "DefaultsValidationTests"

    static let cases: [DefaultsCase] = [
        DefaultsCase(
            file, "testKeyNameValidation",
            .keptDifference("any key name is valid: no key-value-observing key path is made of it")
        ) { (suite: PortSuite) throws in
            for name in ["validKey123", "invalid.key", "@invalidKey", "", ".", "@", "key.with.multiple.dots"] {
                let key = suite.key(name, default: "test")
                key.value = "stored"
                #expect(try suite.persisted(name, default: "") == "stored", "\(name)")
            }
        },
        DefaultsCase(file, "testKeyEquality") { (suite: PortSuite) throws in
            let key1 = suite.key("testKey", default: "value")
            let key2 = suite.key("testKey", default: "value")
            let key3 = suite.key("differentKey", default: "value")
            let key4 = PortSuite().key("testKey", default: "value")
            #expect(key1 == key2)
            #expect(key1 != key3)
            #expect(key1 != key4)
        },
        DefaultsCase(file, "testKeyHashability") { (suite: PortSuite) throws in
            let key1 = suite.key("testKey", default: "value")
            let key2 = suite.key("testKey", default: "value")
            let key3 = suite.key("differentKey", default: "value")
            var set = Set<StoredKey<String>>()
            set.insert(key1)
            set.insert(key2)
            set.insert(key3)
            #expect(set.count == 2)
            #expect(set.contains(key1) && set.contains(key2) && set.contains(key3))
        },
        DefaultsCase(file, "testIsDefaultValue") { (suite: PortSuite) throws in
            let key = suite.key("defaultValueTest", default: "defaultValue")
            #expect(key.value == key.defaultValue)
            key.value = "newValue"
            #expect(key.value != key.defaultValue)
            try key.reset()
            #expect(key.value == key.defaultValue)
            key.value = "defaultValue"
            #expect(key.value == key.defaultValue)
        },
        DefaultsCase(file, "testIsDefaultValueNonEquatable") { (suite: PortSuite) throws in
            // Defaults' internal `_isDefaultValue`: whether the key holds nothing.
            let key = suite.key("internalTest", default: "default")
            #expect(try suite.store.read(forKey: key.name) == nil)
            key.value = "different"
            #expect(try suite.store.read(forKey: key.name) != nil)
            try key.reset()
            #expect(try suite.store.read(forKey: key.name) == nil)
        },
        DefaultsCase(file, "testOptionalKeyDefaultBehavior") { (suite: PortSuite) throws in
            try expectAnOptionalStringRoundTrips(suite, "optionalTest", "test")
        },
        DefaultsCase(file, "testDynamicDefaultValue") { (suite: PortSuite) throws in
            let dynamic = Box("initial")
            let key = StoredKey<String>("dynamicTest", store: suite.store) { dynamic.value }
            #expect(key.value == "initial")
            dynamic.value = "changed"
            try key.reset()
            #expect(key.value == "changed")
            key.value = "specific"
            #expect(key.value == "specific")
            try key.reset()
            #expect(key.value == "changed")
        },
        DefaultsCase(file, "testDynamicOptionalDefaultValue") { (suite: PortSuite) throws in
            let returnsNil = Box(false)
            let key = StoredKey<String?>("dynamicOptionalTest", store: suite.store) {
                returnsNil.value ? nil : "dynamic"
            }
            #expect(key.value == "dynamic")
            returnsNil.value = true
            try key.reset()
            #expect(key.value == nil)
            key.value = "specific"
            #expect(key.value == "specific")
            try key.reset()
            #expect(key.value == nil)
        },
        DefaultsCase(
            file, "testUserDefaultsSubscript",
            .keptDifference(
                "on Linux a value removed with UserDefaults directly is not reported (Foundation posts nothing): "
                    + "a key's cached value shows it after the store reports a change; removing through the store is seen at once"
            )
        ) { (suite: PortSuite) throws in
            let key = suite.key("subscriptTest", default: 42)
            #expect(try suite.defaults.stored(Int.self, forKey: key.name, defaultValue: 42) == 42)
            try suite.defaults.setStored(100, forKey: key.name)
            #expect(try suite.defaults.stored(Int.self, forKey: key.name, defaultValue: 42) == 100)
            #expect(key.value == 100)
            try suite.store.remove(forKey: key.name)
            #expect(try suite.defaults.stored(Int.self, forKey: key.name, defaultValue: 42) == 42)
            #expect(key.value == 42)
        },
        DefaultsCase(file, "testRemoveAllBehavior") { (suite: PortSuite) throws in
            let key1 = suite.key("removeAll1", default: "default1")
            let key2 = suite.key("removeAll2", default: 42)
            key1.value = "changed1"
            key2.value = 100
            #expect(key1.value == "changed1" && key2.value == 100)
            try removeAll(suite)
            #expect(key1.value == "default1")
            #expect(key2.value == 42)
        },
        DefaultsCase(
            file, "testUserDefaultsRemoveAll",
            .keptDifference("on Linux removals made with UserDefaults directly are not reported; the store's are")
        ) { (suite: PortSuite) throws in
            let key1 = suite.key("userDefaultsRemoveAll1", default: "default1")
            let key2 = suite.key("userDefaultsRemoveAll2", default: 42)
            key1.value = "changed1"
            key2.value = 100
            suite.defaults.removeObject(forKey: key1.name)
            suite.defaults.removeObject(forKey: key2.name)
            // A fresh read of the store sees the removal at once.
            #expect(try suite.store.value(String.self, forKey: key1.name, defaultValue: "default1") == "default1")
            #expect(try suite.store.value(Int.self, forKey: key2.name, defaultValue: 42) == 42)
        },
        DefaultsCase(
            file, "testKeyRegistersDefaultValues",
            .keptDifference(
                "defaults are registered by UserDefaultsStore.registerDefault(_:forKey:), not by making a key")
        ) { (suite: PortSuite) throws in
            let key = suite.key("registersDefaultValues", default: "registered")
            try suite.store.registerDefault(key.defaultValue, forKey: key.name)
            #expect(suite.defaults.string(forKey: key.name) == "registered")
            #expect(key.value == "registered")
        },
        DefaultsCase(file, "testOptionalKeyDoesNotRegisterNil") { (suite: PortSuite) throws in
            let key: StoredKey<String?> = suite.key("optionalNoRegister")
            try suite.store.registerDefault(key.defaultValue, forKey: key.name)
            #expect(suite.defaults.object(forKey: key.name) == nil)
        },
    ]
}

/// An optional string key reads `nil`, then a value, then `nil` again, and `nil` is no object.
func expectAnOptionalStringRoundTrips(_ suite: PortSuite, _ name: String, _ value: String) throws {
    let key: StoredKey<String?> = suite.key(name)
    #expect(key.value == nil)
    key.value = value
    #expect(key.value == value)
    key.value = nil
    #expect(key.value == nil)
    #expect(suite.defaults.object(forKey: name) == nil)
}

/// An observer counts one change, is cancelled, and does not count the next.
func expectNothingAfterCancelling(_ suite: PortSuite, _ before: String, then after: String) throws {
    let key = suite.key("observationTest", default: "initial")
    let count = Box(0)
    let observation = suite.store.observe { if $0.affects(key.name) { count.value += 1 } }
    key.value = before
    observation.cancel()
    key.value = after
    #expect(count.value == 1)
}

/// `DefaultsObservationAdvancedTests.swift`: observers, streams, several keys.
enum ObservationPort {
    static let file = "DefaultsObservationAdvancedTests"
    static let noInitial =
        "observe(_:) reports changes only (Defaults' default options add the value now): values() starts with it"

    static let cases: [DefaultsCase] = [
        DefaultsCase(
            file, "testObservationWithoutPropagation",
            .keptDifference("\(noInitial); an observer's own write is not reported back to it, no withoutPropagation")
        ) { (suite: PortSuite) throws in
            let key = suite.key("preventPropagationTest", default: "initial")
            let changes = Box<[String]>([])
            let observation = suite.store.observe { change in
                guard change.affects(key.name) else { return }
                changes.value.append(key.value)
                key.value = "from_observer"
            }
            key.value = "external_change"
            #expect(changes.value == ["external_change"])
            #expect(key.value == "from_observer")
            #expect(try suite.persisted(key.name, default: "") == "from_observer")
            observation.cancel()
        },
        DefaultsCase(file, "testMultipleObservationsOnSameKey", .keptDifference(noInitial)) {
            (suite: PortSuite) throws in
            let key = suite.key("observationTest", default: "initial")
            let counts = Box([0, 0])
            let first = suite.store.observe { if $0.affects(key.name) { counts.value[0] += 1 } }
            let second = suite.store.observe { if $0.affects(key.name) { counts.value[1] += 1 } }
            key.value = "changed"
            #expect(counts.value == [1, 1])
            first.cancel()
            second.cancel()
        },
        DefaultsCase(file, "testObservationInvalidation") { (suite: PortSuite) throws in
            try expectNothingAfterCancelling(suite, "test1", then: "test2")
        },
        DefaultsCase(
            file, "testLifetimeTiedObservation",
            .keptDifference(
                "\(noInitial); an observation lives as long as its StoreObservation, tied to no other object")
        ) { (suite: PortSuite) throws in
            let key = suite.key("observationTest", default: "initial")
            let count = Box(0)
            var observation: StoreObservation? = suite.store.observe { if $0.affects(key.name) { count.value += 1 } }
            key.value = "tied_test"
            #expect(count.value == 1)
            observation = nil
            key.value = "after_owner_released"
            #expect(count.value == 1)
            _ = observation
        },
        DefaultsCase(
            file, "testObservationLifetimeTieRemoval", .keptDifference("\(noInitial); cancel() ends an observation")
        ) { (suite: PortSuite) throws in
            try expectNothingAfterCancelling(suite, "after_tie_removal", then: "after_invalidation")
        },
        DefaultsCase(file, "testConcurrentObservation") { (suite: PortSuite) async throws in
            let key = suite.key("concurrentObservation", default: 0)
            let count = Box(0)
            let observation = suite.store.observe { if $0.affects(key.name) { count.value += 1 } }
            await withTaskGroup(of: Void.self) { group in
                for index in 1...100 { group.addTask { key.value = index } }
            }
            #expect(count.value == 100)
            observation.cancel()
        },
        DefaultsCase(file, "testAsyncUpdatesStream") { (suite: PortSuite) async throws in
            let key = suite.key("asyncUpdates", default: "start")
            var values = key.values().makeAsyncIterator()
            #expect(await values.next() == "start")
            for update in ["update1", "update2", "update3"] {
                key.value = update
                #expect(await values.next() == update)
            }
        },
        DefaultsCase(file, "testAsyncUpdatesStreamWithoutInitial") { (suite: PortSuite) async throws in
            let key = suite.key("asyncUpdatesNoInitial", default: "start")
            var values = key.values().dropFirst().makeAsyncIterator()
            key.value = "update1"
            #expect(await values.next() == "update1")
            key.value = "update2"
            #expect(await values.next() == "update2")
        },
        DefaultsCase(file, "testMultipleKeysUpdatesStream") { (suite: PortSuite) async throws in
            let key1 = suite.key("multiKey1", default: "start1")
            let key2 = suite.key("multiKey2", default: 0)
            var values = StoredKeys.values(key1, key2).makeAsyncIterator()
            let initial = await values.next()
            #expect(initial?.0 == "start1" && initial?.1 == 0)
            key1.value = "changed1"
            let first = await values.next()
            #expect(first?.0 == "changed1" && first?.1 == 0)
            key2.value = 42
            let second = await values.next()
            #expect(second?.0 == "changed1" && second?.1 == 42)
        },
        DefaultsCase(
            file, "testArrayKeysUpdatesStream",
            .keptDifference("StoredKeys.changes names each key that changes, with no initial element")
        ) { (suite: PortSuite) async throws in
            let key1 = suite.key("arrayKey1", default: "start1")
            let key2 = suite.key("arrayKey2", default: 0)
            let changes = try await collect(2, from: StoredKeys.changes([key1, key2])) {
                key1.value = "changed1"
                key2.value = 42
            }
            #expect(changes == ["arrayKey1", "arrayKey2"])
        },
        DefaultsCase(file, "testCompositeObservation", .keptDifference(noInitial)) { (suite: PortSuite) throws in
            let key1 = suite.key("composite1", default: "start1")
            let key2 = suite.key("composite2", default: 0)
            let count = Box(0)
            let observation = suite.store.observe { change in
                if change.affects(key1.name) || change.affects(key2.name) { count.value += 1 }
            }
            key1.value = "changed1"
            key2.value = 42
            #expect(count.value == 2)
            observation.cancel()
        },
    ]
}
