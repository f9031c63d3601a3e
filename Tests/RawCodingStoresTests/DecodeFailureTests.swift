import Foundation
import RawCoding
import RawCodingStores
import Testing

struct Profile: Codable, Sendable, Equatable {
    var username = "guest"
    var isPrivate = false
}

@Suite("A payload that does not decode is reported, kept, set aside and recovered")
struct DecodeFailureTests {
    /// Payloads as another program or an older release may have left them in a file.
    static let payloads: [(String, String)] = [
        ("incompatible", #"{ "username" : 42,   "isPrivate": "yes" }"#),
        ("malformed", #"{"username": "ada", "isPrivate": tru"#),
        ("not UTF-8", "\u{FF}"),
    ]

    @Test(arguments: payloads.map(\.0))
    func fileStoreRecoversTheOriginalBytes(_ name: String) throws {
        let original = Data(try #require(Self.payloads.first { $0.0 == name }).1.utf8)
        let directory = try TemporaryDirectory()
        try original.write(to: directory.url.appendingPathComponent("profile.json"))
        let store = try FileStore(directory: directory.url)
        let property = StoredProperty("profile", store: store, defaultValue: Profile())

        let events = Locked<[RawCodingDiagnostics.Event]>([])
        let read = RawCodingDiagnostics.withHandler({ event in events.withLock { $0.append(event) } }) {
            property.value
        }
        #expect(read == Profile())
        let error = try #require(property.error)
        #expect(error.codingPath.first?.stringValue == "profile")
        #expect(events.withLock { $0.map(\.kind) } == [.storedValueDidNotDecode])
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("profile.json")) == original)

        try property.set(Profile(username: "ada", isPrivate: true))
        #expect(property.error == nil)
        #expect(try store.value(Profile.self, forKey: "profile") == Profile(username: "ada", isPrivate: true))
        let kept = try property.setAsidePayloads()
        #expect(kept.count == 1)
        #expect(kept.first?.content == .bytes(original))

        // A second write does not set aside the new, readable value.
        try property.set(Profile(username: "ada", isPrivate: false))
        #expect(try store.setAsidePayloads().count == 1)
        try store.discardSetAside(kept[0].id)
        #expect(try store.setAsidePayloads().isEmpty)
    }

    @Test func userDefaultsKeepsTheOriginalTree() throws {
        let suite = "RawCodingStoresTests.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let defaults = try #require(UserDefaults(suiteName: suite))
        defaults.set(["username": 42, "isPrivate": "yes"] as [String: Any], forKey: "profile")
        let store = UserDefaultsStore(suiteName: suite)
        let property = StoredProperty("profile", store: store, defaultValue: Profile())
        let read = RawCodingDiagnostics.withHandler({ _ in }) { property.value }
        #expect(read == Profile())
        #expect(property.error?.kind == .decodingFailed)
        property.value = Profile(username: "ada")
        let kept = try #require(try store.setAsidePayloads().first)
        #expect(kept.content == .tree(["username": 42, "isPrivate": "yes"]))
        #expect(try defaults.stored(Profile.self, forKey: "profile") == Profile(username: "ada"))
    }

    @Test func aFailedWriteKeepsTheStoredValueAndSaysWhy() throws {
        let store = InMemoryStore(limits: .ubiquitousKeyValueStore)
        let property = StoredProperty("note", store: store, defaultValue: "")
        property.value = "short"
        let events = Locked<[RawCodingDiagnostics.Event]>([])
        RawCodingDiagnostics.withHandler({ event in events.withLock { $0.append(event) } }) {
            property.value = String(repeating: "x", count: 1_100_000)
        }
        #expect(events.withLock { $0.map(\.kind) } == [.writeFailed])
        #expect(property.error?.kind == .limitExceeded)
        #expect(property.value == "short")
        #expect(try store.read(forKey: "note") == "short")
    }

    @Test func typedSetOverAnUndecodablePayloadSetsItAside() throws {
        let store = InMemoryStore()
        try store.write(["username": ["nested": true]], forKey: "profile")
        try store.set(Profile(username: "new"), forKey: "profile")
        #expect(try store.setAsidePayloads().map(\.content) == [.tree(["username": ["nested": true]])])
    }

    @Test func typedUpdateRefusesAnUndecodablePayloadAndLeavesIt() throws {
        let store = InMemoryStore()
        try store.write("not a number", forKey: "counter")
        #expect(throws: RawCodingError.self) {
            try store.update(Int.self, forKey: "counter", defaultValue: 0) { $0 += 1 }
        }
        #expect(try store.read(forKey: "counter") == "not a number")
    }
}
