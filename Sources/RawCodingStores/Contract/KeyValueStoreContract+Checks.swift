import Foundation
import Observation
import RawCoding

/// A model with every kind of value a codec writes, for the contract's round trips.
struct ContractSample: Codable, Sendable, Equatable {
    struct Nested: Codable, Sendable, Equatable {
        var flags: [Bool]
        var names: [String: String]
    }

    var text = "naïve 🧪 \"quoted\" \\ line\nbreak"
    var empty = ""
    var small = -42
    var large = Int64.max
    var unsigned = UInt64.max
    var fraction = 0.1
    var tiny = Double.leastNonzeroMagnitude
    var huge = 1.7976931348623157e308
    var flag = true
    var date = Date(timeIntervalSince1970: 1_700_000_000.25)
    var bytes = Data([0, 1, 2, 253, 254, 255])
    var list = [1, 2, 3]
    var nothing: [Int] = []
    var nested = Nested(flags: [true, false], names: ["a": "b", "": "empty key"])
    var noNames: [String: Int] = [:]
}

/// Settings as the contract's typed checks store them.
struct ContractSettings: Codable, Sendable, Equatable {
    var name = "default"
    var volume = 5
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
extension KeyValueStoreContract {
    struct Run {
        var contract: KeyValueStoreContract
        var check: Check

        var store: any KeyValueStore { contract.store }
        var other: any KeyValueStore { contract.other }

        func expect(_ condition: Bool, _ message: @autoclosure () throws -> String) throws {
            if !condition { throw Failure(check: check, message: try message()) }
        }

        /// Waits until `condition` holds or the contract's timeout passes.
        func eventually(_ what: String, _ condition: @Sendable () throws -> Bool) async throws {
            let clock = ContinuousClock()
            let deadline = clock.now + contract.timeout
            while try !condition() {
                guard clock.now < deadline else {
                    throw Failure(check: check, message: "\(what) did not happen within \(contract.timeout)")
                }
                try await Task.sleep(for: .milliseconds(10))
            }
        }

        func sharesStorageWithAnotherCodec() throws {
            let mixed = contract.otherCodec
            try store.write(["v": 1], forKey: "theme")
            try mixed.write(["v": 2], forKey: "theme")
            try mixed.write(["v": 3], forKey: "font.size")
            try store.write(["v": 4], forKey: "a.b")
            for (name, instance, own) in [("the store", store, "a.b"), ("the other codec's", mixed, "font.size")] {
                let keys = try instance.keys()
                try expect(keys.contains("theme") && keys.contains(own), "\(name) lists \(keys)")
                for key in keys {
                    try expect(
                        try instance.read(forKey: key) != nil, "\(name) lists \"\(key)\", which reads nothing: \(keys)")
                }
            }
            try expect(
                try mixed.read(forKey: "theme") == ["v": 2],
                "the other codec's theme reads \(String(describing: try mixed.read(forKey: "theme")))")
            let theme = try store.read(forKey: "theme")
            // Its own file, or the one shared entry the other wrote last.
            try expect(theme == ["v": 1] || theme == ["v": 2], "theme reads \(String(describing: theme))")
            try expect(try mixed.read(forKey: "font.size") == ["v": 3], "the other codec's key is lost")
            try expect(try store.read(forKey: "a.b") == ["v": 4], "the store's key is lost")
        }

        func readsNothingForMissingKeys() throws {
            try expect(try store.keys().isEmpty, "a fresh store should have no keys, has \(try store.keys())")
            try expect(try store.read(forKey: "missing") == nil, "a missing key should read as nil")
            try store.remove(forKey: "missing")
            try expect(try store.setAside(forKey: "missing") == nil, "setting aside a missing key should return nil")
        }

        func storesEveryKindOfValue() throws {
            let tree = try store.codec.encodeTree(ContractSample())
            try store.write(tree, forKey: "sample")
            let back = try store.read(forKey: "sample")
            try expect(back == tree, "read back \(String(describing: back)), wrote \(tree)")
            let decoded = try store.value(ContractSample.self, forKey: "sample")
            try expect(decoded == ContractSample(), "decoded \(String(describing: decoded))")
            for (key, scalar) in [("int", StoredValue(integerLiteral: -7)), ("string", "text"), ("bool", false)] {
                try store.write(scalar, forKey: key)
                try expect(try store.read(forKey: key) == scalar, "a top-level \(scalar.kindName) should read back")
            }
        }

        func overwritesAndRemoves() throws {
            try store.write("first", forKey: "key")
            try store.write("second", forKey: "key")
            try expect(try store.read(forKey: "key") == "second", "a write should replace the value")
            try store.write(1, forKey: "other")
            try expect(try store.keys() == ["key", "other"], "keys should be [key, other], are \(try store.keys())")
            try store.remove(forKey: "key")
            try expect(try store.read(forKey: "key") == nil, "a removed key should read as nil")
            try expect(try store.keys() == ["other"], "keys after removal should be [other], are \(try store.keys())")
        }

        func keepsAwkwardKeysApart() throws {
            let keys = ["Theme", "theme", "a.b", "a/b", "100%", ".hidden", "ключ", "\u{e9}", "with space", "^", "%41"]
            for (index, key) in keys.enumerated() {
                try store.write(StoredValue(integerLiteral: Int64(index)), forKey: key)
            }
            for (index, key) in keys.enumerated() {
                let value = try store.read(forKey: key)
                try expect(
                    value == StoredValue(integerLiteral: Int64(index)),
                    "key \"\(key)\" read \(String(describing: value))")
            }
            try expect(try store.keys() == keys.sorted(), "keys() gave \(try store.keys()), expected \(keys.sorted())")
            // Swift compares strings by canonical equivalence, so an "é" typed as e + U+0301
            // is the same key as the precomposed one.
            try expect(
                try store.read(forKey: "e\u{301}") == StoredValue(integerLiteral: 7),
                "canonically equal keys should be one key"
            )
            try store.write("decomposed", forKey: "e\u{301}")
            try expect(
                try store.read(forKey: "\u{e9}") == "decomposed", "a write to an equal key should replace the value")
            try expect(try store.keys().count == keys.count, "canonically equal keys should be listed once")
        }

        func refusesNullAtTheTopLevel() throws {
            do {
                try store.write(.null, forKey: "null")
                throw Failure(check: check, message: "writing null should throw")
            } catch is RawCodingError {}
            try expect(try store.read(forKey: "null") == nil, "a refused write should store nothing")
        }

        func updatesAreAtomic() async throws {
            let stores = [store, other]
            try await withThrowingTaskGroup(of: Void.self) { group in
                for thread in 0..<8 {
                    let store = stores[thread % 2]
                    group.addTask {
                        for _ in 0..<50 {
                            try await store.update(Int.self, forKey: "counter", defaultValue: 0) { $0 += 1 }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let total = try await store.value(Int.self, forKey: "counter")
            try expect(total == 400, "8 tasks × 50 increments should give 400, gave \(String(describing: total))")
        }

        func asyncCallsMatchTheSynchronousOnes() async throws {
            try await store.write("written", forKey: "async")
            try expect(try await store.read(forKey: "async") == "written", "an async write should be read back")
            try expect(try await other.read(forKey: "async") == "written", "an async read should see the write")
            try await store.set(ContractSettings(name: "async", volume: 1), forKey: "settings")
            let count = try await other.update(
                ContractSettings.self, forKey: "settings", defaultValue: ContractSettings()
            ) {
                $0.volume += 1
                return $0.volume
            }
            try expect(count == 2, "an async update should return its body's result, returned \(count)")
            let settings = try await store.value(ContractSettings.self, forKey: "settings")
            try expect(
                settings == ContractSettings(name: "async", volume: 2),
                "an async value read \(String(describing: settings))")
            try await store.remove(forKey: "async")
            try expect(
                try await store.value(Int.self, forKey: "async", defaultValue: 7) == 7, "a removed key should be empty")
            let store = self.store
            let cancelled = Task { () async -> RawCodingError? in
                withUnsafeCurrentTask { $0?.cancel() }
                do throws(RawCodingError) {
                    try await store.update(Int.self, forKey: "cancelled", defaultValue: 0) { $0 += 1 }
                    return nil
                } catch {
                    return error
                }
            }
            let error = await cancelled.value
            try expect(
                error?.kind == .cancelled,
                "an update from a cancelled task should throw .cancelled, threw \(String(describing: error))")
            try expect(
                try await store.read(forKey: "cancelled") == nil,
                "an update cancelled before it ran should write nothing")
            try await store.write(1, forKey: "after")
            try expect(
                try await store.read(forKey: "after") == 1, "the store should stay usable after a cancelled call")
        }

        func failedUpdateWritesNothing() throws {
            try store.write("kept", forKey: "key")
            do {
                try store.update(forKey: "key") { (value: inout StoredValue?) throws(RawCodingError) in
                    value = "changed"
                    throw RawCodingError(kind: .encodingFailed, typeName: "Contract", reason: "the body gave up")
                }
                throw Failure(check: check, message: "update should rethrow its body's error")
            } catch is RawCodingError {}
            try expect(try store.read(forKey: "key") == "kept", "an update whose body threw should write nothing")
        }

        func instancesShareStorage() throws {
            try store.write("from the first", forKey: "shared")
            try expect(try other.read(forKey: "shared") == "from the first", "the other instance should read the write")
            try other.remove(forKey: "shared")
            try expect(try store.read(forKey: "shared") == nil, "the first instance should see the removal")
        }

        func notifiesObservers() async throws {
            let seen = Locked<[String: [StoreChange]]>([:])
            var first: StoreObservation? = store.observe { change in
                seen.withLock { $0["first", default: []].append(change) }
            }
            let second = other.observe { change in seen.withLock { $0["second", default: []].append(change) } }
            try await store.write("value", forKey: "observed")
            try await eventually("notifying both instances of a write") {
                seen.withLock {
                    ($0["first"] ?? []).contains(StoreChange(key: "observed", origin: .thisInstance))
                        && ($0["second"] ?? []).contains(StoreChange(key: "observed", origin: .otherInstance))
                }
            }
            first?.cancel()
            first = nil
            let before = seen.withLock { $0["first"]?.count ?? 0 }
            try await other.write("again", forKey: "observed")
            try await eventually("notifying the second instance") {
                seen.withLock { ($0["second"] ?? []).contains(StoreChange(key: "observed", origin: .thisInstance)) }
            }
            let after = seen.withLock { $0["first"]?.count ?? 0 }
            try expect(after == before, "a cancelled observation should not be called (\(after - before) calls)")
            second.cancel()
        }

        func setsPayloadsAside() throws {
            let tree = try store.codec.encodeTree(ContractSettings(name: "kept", volume: 3))
            try store.write(tree, forKey: "payload")
            let payload = try store.setAside(forKey: "payload")
            try expect(payload?.key == "payload", "setAside should return the payload of the key")
            try expect(try payload?.tree(readingWith: store.codec) == tree, "the set-aside payload should be unchanged")
            try expect(try store.read(forKey: "payload") == nil, "a set-aside key should be empty")
            try expect(!(try store.keys().contains("payload")), "keys() should not list a set-aside payload")
            let listed = try other.setAsidePayloads()
            try expect(listed.map(\.id) == [payload?.id].compactMap { $0 }, "setAsidePayloads() listed \(listed)")
            try expect(listed.first == payload, "the listed payload should equal the returned one")
            try other.discardSetAside(listed[0].id)
            try expect(try store.setAsidePayloads().isEmpty, "a discarded payload should be gone")
        }

        func storedPropertyFollowsOtherInstances() async throws {
            let property = StoredProperty("settings", store: store, defaultValue: ContractSettings())
            try expect(property.value == ContractSettings(), "an empty key should read as the default")
            let fired = Locked(false)
            withObservationTracking {
                _ = property.value
            } onChange: {
                fired.withLock { $0 = true }
            }
            try await other.set(ContractSettings(name: "other", volume: 9), forKey: "settings")
            try await eventually("observation firing after the other instance wrote") { fired.withLock { $0 } }
            try expect(
                property.value == ContractSettings(name: "other", volume: 9),
                "the property should read the other instance's write, reads \(property.value)")
        }

        func undecodablePayloadIsKept() throws {
            let incompatible: StoredValue = ["name": ["not": "a string"], "volume": "loud"]
            try store.write(incompatible, forKey: "settings")
            let property = StoredProperty("settings", store: store, defaultValue: ContractSettings())
            let reported = Locked<[RawCodingDiagnostics.Event]>([])
            let value = RawCodingDiagnostics.withHandler({ event in reported.withLock { $0.append(event) } }) {
                property.value
            }
            try expect(value == ContractSettings(), "an undecodable payload should read as the default")
            try expect(property.error != nil, "the property should carry the decoding error")
            try expect(
                reported.withLock { $0.contains { $0.kind == .storedValueDidNotDecode } },
                "the failure should be reported to RawCodingDiagnostics")
            try expect(try store.read(forKey: "settings") == incompatible, "reading should leave the payload untouched")
            try property.set(ContractSettings(name: "new", volume: 1))
            try expect(property.error == nil, "a successful write should clear the error")
            let payloads = try property.setAsidePayloads()
            try expect(payloads.count == 1, "the old payload should be set aside once, found \(payloads.count)")
            try expect(
                try payloads.first?.tree(readingWith: store.codec) == incompatible,
                "the set-aside payload should be the original")
            let stored = try other.value(ContractSettings.self, forKey: "settings")
            try expect(stored == ContractSettings(name: "new", volume: 1), "the new value should be stored")
        }

        func streamsDeliverWrites() async throws {
            let stream = store.values(ContractSettings.self, forKey: "streamed", defaultValue: ContractSettings())
            let received = Locked<[ContractSettings]>([])
            let consumer = Task {
                for await value in stream { received.withLock { $0.append(value) } }
            }
            defer { consumer.cancel() }
            try await eventually("the stream yielding the current value") { received.withLock { !$0.isEmpty } }
            let first = received.withLock { $0.first }
            try expect(
                first == ContractSettings(),
                "the stream should start with the current value, gave \(String(describing: first))")
            let written = ContractSettings(name: "streamed", volume: 2)
            try await other.set(written, forKey: "streamed")
            try await eventually("the stream delivering the other instance's write") {
                received.withLock { $0.last == written }
            }
        }

        func storesNilAsAbsent() async throws {
            try await nilIsAbsent(at: "string", "text" as String?)
            try await nilIsAbsent(at: "struct", ContractSettings(name: "some", volume: 1) as ContractSettings?)
            try await nilIsAbsent(at: "array", [1, 2] as [Int]?)
            try await nilIsAbsent(at: "dictionary", ["a": 1] as [String: Int]?)
            try await nilIsAbsent(at: "tree", StoredValue.array(["a", 1]) as StoredValue?)
        }

        /// Writes `some` and then `nil` under `key` by each path, expecting the key absent.
        private func nilIsAbsent<Value: Codable & Sendable & Equatable>(at key: String, _ some: Value?) async throws {
            func isAbsent(after path: String) throws {
                let tree = try store.read(forKey: key)
                try expect(
                    tree == nil,
                    "\(path) of nil to a \(Value?.self) should remove \"\(key)\", which holds \(String(describing: tree))"
                )
                try expect(!(try store.keys().contains(key)), "\(path) of nil should leave \"\(key)\" out of keys()")
                let value = try other.value(Value?.self, forKey: key)
                try expect(value == nil, "after \(path) of nil the other instance reads \(String(describing: value))")
            }
            func holdsSome(after path: String) throws {
                let value = try store.value(Value?.self, forKey: key)
                try expect(
                    value == some, "\(path) of \(String(describing: some)) read back \(String(describing: value))")
            }
            try synchronousPaths()
            try await store.set(some, forKey: key)
            try await store.set(nil as Value?, forKey: key)
            try isAbsent(after: "an async set")
            try await store.set(some, forKey: key)
            try await store.update(Value?.self, forKey: key, defaultValue: nil) { $0 = nil }
            try isAbsent(after: "an async update")

            func synchronousPaths() throws {
                try store.set(some, forKey: key)
                try holdsSome(after: "set")
                try store.set(nil as Value?, forKey: key)
                try isAbsent(after: "set")

                try store.set(some, forKey: key)
                try store.update(Value?.self, forKey: key, defaultValue: nil) { $0 = nil }
                try isAbsent(after: "update")

                let property = StoredProperty<Value?>(key, store: store, defaultValue: nil)
                try property.set(some)
                try holdsSome(after: "a StoredProperty's set")
                try property.set(nil)
                try isAbsent(after: "a StoredProperty's set")
                try expect(property.error == nil, "a StoredProperty's set of nil should leave no error")
                property.value = some
                property.value = nil
                try isAbsent(after: "assigning a StoredProperty's value")
                try expect(
                    property.value == nil, "the property should read nil, reads \(String(describing: property.value))")
            }
        }

        func observersReadTheNewValue() async throws {
            // Properties made after the observers, so registration order alone would tell the
            // observers first.
            let seen = Locked<[[Int]]>([])
            let properties = Locked<[StoredProperty<Int>]>([])
            let observations = [store, other].map { instance in
                instance.observe { change in
                    guard change.affects("count") else { return }
                    let values = properties.withLock { $0 }.map(\.value)
                    seen.withLock { $0.append(values) }
                }
            }
            defer { for observation in observations { observation.cancel() } }
            let mine = StoredProperty("count", store: store, defaultValue: 0)
            let same = StoredProperty("count", store: store, defaultValue: 0)
            let theirs = StoredProperty("count", store: other, defaultValue: 0)
            properties.withLock { $0 = [mine, same, theirs] }
            try expect([mine, same, theirs].map(\.value) == [0, 0, 0], "the properties should start at the default")
            let writes: [(String, Int, () throws -> Void)] = [
                ("the property's own write", 1, { try mine.set(1) }),
                ("the other instance's property", 2, { try theirs.set(2) }),
                ("a typed set", 3, { try self.store.set(3, forKey: "count") }),
                ("a typed set through the other instance", 4, { try self.other.set(4, forKey: "count") }),
            ]
            for (what, value, write) in writes {
                seen.withLock { $0.removeAll() }
                try write()
                try await eventually("the observers being told of \(what)") { seen.withLock { $0.count >= 2 } }
                let reads = seen.withLock { $0 }
                try expect(
                    reads.allSatisfy { $0 == [value, value, value] },
                    "after \(what) of \(value), observers read the properties as \(reads)")
            }
        }
    }
}
