import Foundation
import RawCoding
import RawCodingStores
import Testing

/// Decodes from anything; refuses to encode, as a model with a value no codec holds does.
struct Unwritable: Codable, Sendable, Equatable {
    struct Refusal: Error {}

    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws { throw Refusal() }
}

@Suite("Writing back: encode first, then replace in one step")
struct WriteBackTests {
    /// A stored payload that does not decode as `Profile`, and the stores that hold it.
    static let undecodable: StoredValue = ["username": 42]

    @Test(arguments: Adapter.allCases)
    func anEncodeFailureLeavesThePayloadAndTheKeyAsTheyWere(_ adapter: Adapter) async throws {
        try await adapter.withStores { store, _, _ in
            try store.write(Self.undecodable, forKey: "profile")
            // `set` over a payload that does not decode would set it aside: not before encoding.
            #expect(throws: RawCodingError.self) { try store.set(Unwritable(), forKey: "profile") }
            #expect(try store.read(forKey: "profile") == Self.undecodable)
            #expect(try store.setAsidePayloads().isEmpty)
            #expect(try store.keys() == ["profile"])

            let property = StoredProperty("profile", store: store, defaultValue: Unwritable())
            RawCodingDiagnostics.withHandler({ _ in }) { _ = property.value }
            #expect(throws: RawCodingError.self) { try property.set(Unwritable()) }
            #expect(try store.read(forKey: "profile") == Self.undecodable)
            #expect(try store.setAsidePayloads().isEmpty)

            // A value that encodes replaces the payload and sets it aside in the same step.
            try store.set(Profile(username: "ada"), forKey: "profile")
            #expect(try store.value(Profile.self, forKey: "profile") == Profile(username: "ada"))
            #expect(try store.setAsidePayloads().map(\.key) == ["profile"])
        }
    }

    @Test(arguments: Adapter.allCases)
    func aSetDecodesWhatAnotherWriterWroteSinceItsLastWrite(_ adapter: Adapter) async throws {
        try await adapter.withStores { store, other, _ in
            // Each `set` follows a write of the same key by `set`, whose payload it need not
            // decode again; what came between must be decoded all the same.
            try store.set(Profile(username: "ada"), forKey: "profile")
            try other.write(Self.undecodable, forKey: "profile")
            try store.set(Profile(username: "grace"), forKey: "profile")
            #expect(try store.value(Profile.self, forKey: "profile") == Profile(username: "grace"))
            let setAside = try store.setAsidePayloads()
            #expect(setAside.map(\.key) == ["profile"])
            #expect(try setAside.first?.tree(readingWith: store.codec) == Self.undecodable)

            try other.write(["username": "ada", "isPrivate": true, "color": "blue"], forKey: "profile")
            try store.set(Profile(username: "hopper"), forKey: "profile")
            #expect(try store.read(forKey: "profile") == ["username": "hopper", "isPrivate": false, "color": "blue"])
            #expect(try store.setAsidePayloads().count == 1)
        }
    }

    @Test(arguments: Adapter.allCases)
    func aSetOverItsOwnWriteKeepsWhatADecodeWouldKeep(_ adapter: Adapter) async throws {
        try await adapter.withStores { store, other, _ in
            // The first `set` decodes another writer's payload and keeps its unknown key; the
            // second takes its own write as known. Through another instance (which decodes
            // it) the result is the same.
            try other.write(["username": "ada", "color": "blue"], forKey: "a")
            try store.set(Profile(username: "grace"), forKey: "a")
            try store.set(Profile(username: "hopper", isPrivate: true), forKey: "a")
            let own = try store.read(forKey: "a")

            try other.write(["username": "ada", "color": "blue"], forKey: "b")
            try store.set(Profile(username: "grace"), forKey: "b")
            try other.set(Profile(username: "hopper", isPrivate: true), forKey: "b")
            #expect(own == ["username": "hopper", "isPrivate": true, "color": "blue"])
            #expect(try store.read(forKey: "b") == own)
        }
    }

    @Test func anIOReadFailureSetsNothingAside() throws {
        let directory = try TemporaryDirectory()
        let store = try FileStore(directory: directory.url)
        // The key's file cannot be read: a directory stands where it should be.
        let file = directory.url.appendingPathComponent("profile.json")
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)

        let failure = try #require(throws: RawCodingError.self) { try store.read(forKey: "profile") }
        #expect(failure.kind == .storageFailed)
        #expect(throws: RawCodingError.self) { try store.set(Profile(username: "ada"), forKey: "profile") }

        let property = StoredProperty("profile", store: store, defaultValue: Profile())
        let events = Locked<[RawCodingDiagnostics.Event]>([])
        let read = RawCodingDiagnostics.withHandler({ event in events.withLock { $0.append(event) } }) {
            property.value
        }
        #expect(read == Profile())
        #expect(property.error?.kind == .storageFailed)
        #expect(events.withLock { $0.map(\.kind) } == [.readFailed])
        // The write reads again, fails again, and writes nothing over what it cannot see.
        #expect(throws: RawCodingError.self) { try property.set(Profile(username: "grace")) }

        #expect(try store.setAsidePayloads().isEmpty)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }
}
