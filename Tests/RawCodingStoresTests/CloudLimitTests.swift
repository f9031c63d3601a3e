import Foundation
import RawCoding
import RawCodingStores
import Testing

@Suite("The iCloud key-value store's quotas, checked before anything is written")
struct CloudLimitTests {
    func expectRefused(
        _ store: InMemoryStore, _ mention: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ write: () throws -> Void
    ) throws {
        let before = try store.keys().map { ($0, try store.read(forKey: $0)) }
        let error = #expect(throws: RawCodingError.self, sourceLocation: sourceLocation) { try write() }
        #expect(error?.kind == .limitExceeded, sourceLocation: sourceLocation)
        #expect(error?.reason.contains(mention) == true, "\(String(describing: error))", sourceLocation: sourceLocation)
        #expect(error?.reason.contains("nothing was written") == true, sourceLocation: sourceLocation)
        let after = try store.keys().map { ($0, try store.read(forKey: $0)) }
        #expect(after.map(\.0) == before.map(\.0), sourceLocation: sourceLocation)
        #expect(after.map(\.1) == before.map(\.1), sourceLocation: sourceLocation)
    }

    @Test func aKeyLongerThanSixtyFourBytesIsRefused() throws {
        let store = InMemoryStore(limits: .ubiquitousKeyValueStore)
        try store.write(1, forKey: String(repeating: "k", count: 64))
        try expectRefused(store, "65 bytes long") { try store.write(1, forKey: String(repeating: "k", count: 65)) }
        // Bytes, not characters: 33 two-byte letters are 66 bytes.
        try expectRefused(store, "66 bytes long") { try store.write(1, forKey: String(repeating: "é", count: 33)) }
    }

    @Test func theThousandAndTwentyFifthKeyIsRefused() throws {
        let store = InMemoryStore(limits: .ubiquitousKeyValueStore)
        for index in 0..<1_024 { try store.write(true, forKey: "key\(index)") }
        try expectRefused(store, "1024 keys") { try store.write(true, forKey: "one more") }
        try store.write(false, forKey: "key0")  // replacing a value is not adding a key
        #expect(try store.read(forKey: "key0") == false)
    }

    @Test func aValueOverOneMegabyteIsRefused() throws {
        let store = InMemoryStore(limits: .ubiquitousKeyValueStore)
        try expectRefused(store, "per value") {
            try store.set(Data(count: 1_000_001), forKey: "blob")
        }
    }

    @Test func theStoreOverOneMegabyteInAllIsRefused() throws {
        let store = InMemoryStore(limits: .ubiquitousKeyValueStore)
        try store.write(.data(Data(count: 600_000)), forKey: "first")
        try store.write(.data(Data(count: 500_000)), forKey: "first")  // a replaced value no longer counts
        try store.write(.data(Data(count: 600_000)), forKey: "first")
        try expectRefused(store, "in all") { try store.write(.data(Data(count: 600_000)), forKey: "second") }
        try store.write(.data(Data(count: 300_000)), forKey: "first")  // shrinking frees room
        try store.write(.data(Data(count: 600_000)), forKey: "second")
    }

    @Test func theStoredPropertyReportsARefusedWrite() throws {
        let store = InMemoryStore(limits: .ubiquitousKeyValueStore)
        let property = StoredProperty(String(repeating: "k", count: 70), store: store, defaultValue: 0)
        #expect(throws: RawCodingError.self) { try property.set(1) }
        #expect(try store.keys().isEmpty)
    }

    @Test func anExternalChangeIsObservedAsExternal() throws {
        let store = InMemoryStore(limits: .ubiquitousKeyValueStore)
        let changes = Locked<[StoreChange]>([])
        let observation = store.observe { change in changes.withLock { $0.append(change) } }
        try store.simulateExternalChange("from another device", forKey: "theme")
        #expect(changes.withLock { $0 } == [StoreChange(key: "theme", origin: .external)])
        #expect(try store.read(forKey: "theme") == "from another device")
        observation.cancel()
    }
}
