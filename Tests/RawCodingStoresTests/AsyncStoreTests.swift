import Foundation
import RawCoding
import RawCodingPostgres
import RawCodingSQLite
import RawCodingStores
import Testing

/// Holds `key`'s lock in a store from a thread of its own (not the concurrency pool): a
/// synchronous `update` whose body waits, so a `FileStore` holds its `flock`, an `SQLiteStore`
/// its write transaction, a `PostgresStore` the key's advisory lock and row lock.
final class LockHolder: Sendable {
    private let held = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let failure = Locked<(any Error)?>(nil)
    /// Whether the hold ended because nobody released it within the deadline.
    let timedOut = Locked(false)

    /// Starts holding until ``release()`` is called, or `deadline` seconds have passed.
    init(_ store: any KeyValueStore, key: String, deadline: Int = 30) {
        Thread.detachNewThread { [self] in
            do {
                try store.update(forKey: key) { _ in
                    held.signal()
                    if released.wait(timeout: .now() + .seconds(deadline)) == .timedOut {
                        timedOut.withLock { $0 = true }
                    }
                }
            } catch {
                failure.withLock { $0 = error }
                held.signal()
            }
            finished.signal()
        }
    }

    /// Waits, off the concurrency pool, until the lock is held.
    func waitUntilHeld() async throws {
        await Self.wait(for: held)
        if let error = failure.withLock({ $0 }) { throw error }
    }

    func release() { released.signal() }

    /// Waits, off the concurrency pool, until the holding `update` returned.
    func waitUntilFinished() async throws {
        await Self.wait(for: finished)
        if let error = failure.withLock({ $0 }) { throw error }
    }

    private static func wait(for semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                semaphore.wait()
                continuation.resume()
            }
        }
    }
}

@Suite("Async store calls leave the concurrency pool free", .serialized)
struct AsyncStoreTests {
    /// 64 tasks call `update` on a key whose lock another connection holds for 2 s, while a
    /// ticker task counts: a pool blocked by the waiting calls would give the ticker no turn.
    /// In a process of its own (`StoreProbe`), so that no other test uses its pool meanwhile;
    /// the pool is as wide as the machine's cores, Swift's default.
    @Test(arguments: SharedStorage.available)
    func aHeldLockLeavesThePoolFreeAndEveryUpdateLands(_ storage: SharedStorage) throws {
        let directory = try TemporaryDirectory()
        let result = try Probe(["tick-while-locked", storage.probeArgument(directory)]).finish()
        let numbers = result.output.split(whereSeparator: { !$0.isNumber && $0 != "-" }).compactMap { Int($0) }
        try #require(result.status == 0 && numbers.count == 2, "\(result.output)")
        // 200 ticks fit in 2 s; a blocked pool gives none.
        #expect(numbers[0] >= 20, "the ticker ticked \(numbers[0]) times while the lock was held")
        #expect(numbers[1] == 64, "\(numbers[1]) of 64 updates landed")
    }

    /// A task cancelled while its `update` waits for the key's lock writes nothing, and the
    /// store stays usable. PostgreSQL cancels the waiting statement, so there the call returns
    /// while the lock is still held.
    @Test(arguments: SharedStorage.available)
    func anUpdateCancelledWhileWaitingForTheLockWritesNothing(_ storage: SharedStorage) async throws {
        let directory = try TemporaryDirectory()
        let store = try storage.store(directory)
        try await store.set(0, forKey: "counter")
        // For PostgreSQL shorter than the store's lock timeout (10 s): a store that did not cancel
        // its statement would return only after the holder gave up. The others are released by
        // the test; their deadline only has to outlast a slow (sanitized) run.
        let holder = LockHolder(try storage.store(directory), key: "counter", deadline: storage == .postgres ? 5 : 60)
        try await holder.waitUntilHeld()
        let waiting = Task { () async -> RawCodingError? in
            do throws(RawCodingError) {
                try await store.update(Int.self, forKey: "counter", defaultValue: 0) { $0 += 1 }
                return nil
            } catch {
                return error
            }
        }
        // Time for the call to reach the lock (were it cancelled sooner, it would not start).
        try await Task.sleep(for: .milliseconds(300))
        waiting.cancel()
        let error: RawCodingError?
        if storage == .postgres {
            error = await waiting.value
            #expect(holder.timedOut.withLock { !$0 }, "the cancelled call returned only after the lock was released")
            holder.release()
        } else {
            holder.release()
            error = await waiting.value
        }
        try await holder.waitUntilFinished()
        #expect(error?.kind == .cancelled, "\(String(describing: error))")
        #expect(error?.codingPath.map(\.stringValue) == ["counter"])
        #expect(try await store.value(Int.self, forKey: "counter") == 0, "the cancelled update wrote")
        try await store.update(Int.self, forKey: "counter", defaultValue: 0) { $0 += 1 }
        #expect(try await store.value(Int.self, forKey: "counter") == 1, "the store is not usable after it")
    }

    /// While the store's own write transaction is open, readers on other tasks read the last
    /// committed value through their own connections instead of waiting for it to end.
    @Test func sqliteReadersReadTheLastCommitAroundAnOpenWriteTransaction() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.url.appendingPathComponent("store.sqlite").path, readers: 4)
        try await store.set(1, forKey: "value")
        let holder = LockHolder(store, key: "value")
        try await holder.waitUntilHeld()
        let seen = try await withThrowingTaskGroup(of: [Int?].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var values: [Int?] = []
                    for _ in 0..<20 { values.append(try await store.value(Int.self, forKey: "value")) }
                    return values
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let waited = holder.timedOut.withLock { $0 }
        holder.release()
        try await holder.waitUntilFinished()
        #expect(!waited, "the reads waited for the write transaction to end")
        #expect(seen.count == 160 && seen.allSatisfy { $0 == 1 })
    }
}

@Suite("New store files are owner-only")
struct StoreFilePermissionTests {
    private func mode(_ path: String) throws -> UInt16 {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? NSNumber).uint16Value & 0o7777
    }

    @Test func fileStoreCreatesItsDirectoryFilesAndSetAsideFolderOwnerOnly() throws {
        let parent = try TemporaryDirectory()
        let directory = parent.url.appendingPathComponent("new/settings")
        let store = try FileStore(directory: directory)
        try store.set(1, forKey: "token")
        _ = try store.setAside(forKey: "token")
        try store.set(2, forKey: "token")
        #expect(try mode(parent.url.appendingPathComponent("new").path) == 0o700)
        #expect(try mode(directory.path) == 0o700)
        #expect(try mode(directory.appendingPathComponent("token.json").path) == 0o600)
        // The lock file, the value file and the set-aside folder with its file.
        let entries = try #require(FileManager.default.subpaths(atPath: directory.path))
        #expect(entries.count >= 4, "\(entries)")
        for entry in entries {
            let path = directory.appendingPathComponent(entry).path
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            #expect(try mode(path) == (isDirectory.boolValue ? 0o700 : 0o600), "\(entry)")
        }
    }

    @Test func fileStoreKeepsAnExistingFilesModeAndTakesPermissionsAsked() throws {
        let parent = try TemporaryDirectory()
        let store = try FileStore(directory: parent.url)  // exists: keeps its mode
        try store.set(1, forKey: "shared")
        let file = parent.url.appendingPathComponent("shared.json").path
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        try store.set(2, forKey: "shared")
        #expect(try mode(file) == 0o644)
        let group = parent.url.appendingPathComponent("group")
        let asked = try FileStore(directory: group, permissions: StoreFilePermissions(files: 0o640, directories: 0o750))
        try asked.set(1, forKey: "value")
        #expect(try mode(group.path) == 0o750)
        #expect(try mode(group.appendingPathComponent("value.json").path) == 0o640)
    }

    @Test func sqliteStoreCreatesItsDatabaseAndWALOwnerOnly() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("store.sqlite").path
        let store = try SQLiteStore(path: path)
        try store.set(1, forKey: "token")
        for file in [path, path + "-wal", path + "-shm"] {
            #expect(try mode(file) == 0o600, "\(file)")
        }
        let asked = directory.url.appendingPathComponent("asked.sqlite").path
        let other = try SQLiteStore(path: asked, permissions: StoreFilePermissions(files: 0o640, directories: 0o750))
        try other.set(1, forKey: "value")
        #expect(try mode(asked) == 0o640)
        #expect(try mode(asked + "-wal") == 0o640)
    }
}
