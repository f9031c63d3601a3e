import Foundation
import RawCoding
import RawCodingSQLite
import RawCodingStores
import Testing

/// The adapters of this package, each on a fresh storage, as the contract wants them.
enum Adapter: String, CaseIterable, CustomTestStringConvertible {
    case inMemory, inMemoryWithCloudLimits, userDefaults, fileJSON, fileBinaryPropertyList, sqliteJSON
    case sqliteBinaryPropertyList

    var testDescription: String { rawValue }

    /// Runs `body` with two instances on one fresh storage, removed afterwards.
    /// (The third instance has another codec, where the adapter takes one on the same storage.)
    func withStores<Result>(
        _ body: (any KeyValueStore, any KeyValueStore, (any KeyValueStore)?) async throws -> Result
    ) async throws -> Result {
        switch self {
        case .inMemory, .inMemoryWithCloudLimits:
            let store = InMemoryStore(limits: self == .inMemory ? .unlimited : .ubiquitousKeyValueStore)
            return try await body(store, InMemoryStore(sharingStorageWith: store), nil)
        case .userDefaults:
            let suite = "RawCodingStoresTests.\(UUID().uuidString)"
            defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
            return try await body(
                UserDefaultsStore(suiteName: suite), UserDefaultsStore(suiteName: suite),
                UserDefaultsStore(suiteName: suite, codec: .json))
        case .fileJSON, .fileBinaryPropertyList:
            let directory = try TemporaryDirectory()
            let codec: any Codec = self == .fileJSON ? .json : .propertyList(.binary)
            let otherCodec: any Codec = self == .fileJSON ? .json(.pretty) : .json
            return try await body(
                try FileStore(directory: directory.url, codec: codec),
                try FileStore(directory: directory.url, codec: codec),
                try FileStore(directory: directory.url, codec: otherCodec))
        case .sqliteJSON, .sqliteBinaryPropertyList:
            let directory = try TemporaryDirectory()
            let path = directory.url.appendingPathComponent("store.sqlite").path
            let codec: any Codec = self == .sqliteJSON ? .json : .propertyList(.binary)
            let otherCodec: any Codec = self == .sqliteJSON ? .propertyList(.binary) : .json
            return try await body(
                try SQLiteStore(path: path, table: "settings", codec: codec),
                try SQLiteStore(path: path, table: "settings", codec: codec),
                try SQLiteStore(path: path, table: "settings", codec: otherCodec))
        }
    }
}

@Suite("The store contract, against every adapter")
struct StoreContractTests {
    @Test(arguments: Adapter.allCases, KeyValueStoreContract.Check.allCases)
    func adapterMeetsTheContract(_ adapter: Adapter, _ check: KeyValueStoreContract.Check) async throws {
        try await adapter.withStores { store, other, otherCodec in
            try await KeyValueStoreContract(store, sameStorage: other, otherCodec: otherCodec).run(check)
        }
    }

    @Test func aBrokenStoreFailsTheContract() async throws {
        // A store that forgets writes must fail: the contract can fail.
        let failure = await #expect(throws: KeyValueStoreContract.Failure.self) {
            try await KeyValueStoreContract(ForgetfulStore(), sameStorage: ForgetfulStore()).run(.overwritesAndRemoves)
        }
        #expect(failure?.description.contains("overwritesAndRemoves") == true)
    }
}

/// Accepts every write and keeps none.
final class ForgetfulStore: KeyValueStore {
    var codec: any Codec { .json }
    func read(forKey key: String) throws(RawCodingError) -> StoredValue? { nil }
    func write(_ value: StoredValue, forKey key: String) throws(RawCodingError) {}
    func remove(forKey key: String) throws(RawCodingError) {}
    func update<Result>(
        forKey key: String, _ body: (inout StoredValue?) throws(RawCodingError) -> Result
    ) throws(RawCodingError) -> Result {
        var value: StoredValue? = nil
        return try body(&value)
    }
    func keys() throws(RawCodingError) -> [String] { [] }
    func observe(_ handler: @escaping @Sendable (StoreChange) -> Void) -> StoreObservation { StoreObservation {} }
    func setAside(forKey key: String) throws(RawCodingError) -> SetAsidePayload? { nil }
    func setAsidePayloads() throws(RawCodingError) -> [SetAsidePayload] { [] }
    func discardSetAside(_ id: String) throws(RawCodingError) {}
}
