import Foundation
import RawCoding
import RawCodingSQLite
import RawCodingStores

#if canImport(RawCodingPostgres)
    import RawCodingPostgres
#endif

/// Many tasks at once through one store, as a server's request handlers call it: the pooled
/// stores against the same statements on as many connections by hand, and against one
/// connection (what each store had before its pool).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
func concurrencyRows() throws -> [Comparison] {
    try withTemporaryDirectory { directory in try concurrencyRows(in: directory) }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
private func concurrencyRows(in directory: URL) throws -> [Comparison] {
    #if DEBUG
        let calls = 20
    #else
        let calls = 400
    #endif
    let path = directory.appendingPathComponent("settings.sqlite").path
    let pooled = try SQLiteStore(path: path, readers: 8)
    let single = try SQLiteStore(path: path, readers: 1)
    let tree = try pooled.codec.encodeTree(BenchmarkSettings())
    try pooled.write(tree, forKey: "settings")
    guard try single.read(forKey: "settings") == tree else { fail("SQLite: the readers read another value") }
    let reads = "8 tasks × \(calls) reads"
    var operations: [(label: String, body: () throws -> Void)] = [
        (
            "sqlite sync 8 readers",
            { try onTasks(8) { _ in for _ in 0..<calls { _ = try synchronousRead(pooled) } } }
        ),
        (
            "sqlite sync 1 reader",
            { try onTasks(8) { _ in for _ in 0..<calls { _ = try synchronousRead(single) } } }
        ),
        (
            "sqlite async 8 readers",
            { try onTasks(8) { _ in for _ in 0..<calls { _ = try await pooled.read(forKey: "settings") } } }
        ),
    ]
    var postgresRows: [(String, String, String, Double)] = []
    #if canImport(RawCodingPostgres)
        if let connection = ProcessInfo.processInfo.environment["RAWCODING_POSTGRES"] {
            let table = "benchmark_concurrent_\(ProcessInfo.processInfo.processIdentifier)"
            let store = try PostgresStore(connection: connection, table: table, connections: 8)
            let one = try PostgresStore(connection: connection, table: table, connections: 1)
            let direct = (0..<8).map { DirectPostgres(connection, table: table, dropsTables: $0 == 0) }
            let payload = try JSONCodec.json.encode(BenchmarkSettings())
            let writes = "32 tasks × \(calls / 4)"
            operations += [
                (
                    "postgres 8 connections",
                    {
                        try onTasks(32) { task in
                            for call in 0..<(calls / 4) { try await store.write(tree, forKey: "k\(task)-\(call % 8)") }
                        }
                    }
                ),
                (
                    "postgres 1 connection",
                    {
                        try onTasks(32) { task in
                            for call in 0..<(calls / 4) { try await one.write(tree, forKey: "k\(task)-\(call % 8)") }
                        }
                    }
                ),
                (
                    "libpq 1 connection",
                    {
                        for call in 0..<(calls / 4) {
                            for task in 0..<32 { direct[0].write(payload, forKey: "k\(task)-\(call % 8)") }
                        }
                    }
                ),
                (
                    "libpq 8 connections",
                    {
                        // The same 32 writers' keys, 4 writers to each connection's thread.
                        onThreads(8) { thread in
                            for call in 0..<(calls / 4) {
                                for task in stride(from: thread, to: 32, by: 8) {
                                    direct[thread].write(payload, forKey: "k\(task)-\(call % 8)")
                                }
                            }
                        }
                    }
                ),
            ]
            postgresRows = [
                (
                    "PostgresStore vs libpq, 8 connections each: \(writes)", "postgres 8 connections",
                    "libpq 8 connections", 0.7
                ),
                ("PostgresStore, 8 connections vs 1: \(writes)", "postgres 8 connections", "postgres 1 connection", 4),
                // The most 8 connections give on this machine: client and server share its cores.
                ("libpq by hand, 8 connections vs 1: \(writes)", "libpq 8 connections", "libpq 1 connection", 0),
            ]
        }
    #endif
    let measured = try Measurement.interleaved(operations, runs: min(runs, 7), warmup: 1)
    let time = Dictionary(uniqueKeysWithValues: zip(operations.map(\.label), measured))
    var rows = [
        // Reads as today's code makes them: synchronous calls from the tasks, on the pool.
        Comparison(
            title: "SQLiteStore, 8 readers vs 1 (before): \(reads)", ours: time["sqlite sync 8 readers"]!,
            theirs: time["sqlite sync 1 reader"]!, target: 1.6),
        // What leaving the pool costs a read of a few microseconds: two thread handoffs a call.
        Comparison(
            title: "SQLiteStore async vs sync reads, 8 readers: \(reads)",
            ours: time["sqlite async 8 readers"]!, theirs: time["sqlite sync 8 readers"]!, target: nil),
    ]
    for (title, ours, theirs, target) in postgresRows {
        rows.append(
            Comparison(title: title, ours: time[ours]!, theirs: time[theirs]!, target: target > 0 ? target : nil))
    }
    if postgresRows.isEmpty { print("PostgreSQL concurrency rows: skipped (\(postgresAbsence))") }
    return rows
}

/// Runs `body` on `count` tasks of the concurrency pool and waits for all of them.
private func onTasks(_ count: Int, _ body: @escaping @Sendable (Int) async throws -> Void) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = Locked<(any Error)?>(nil)
    Task.detached {
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<count { group.addTask { try await body(task) } }
                try await group.waitForAll()
            }
        } catch {
            failure.withLock { $0 = error }
        }
        done.signal()
    }
    done.wait()
    if let error = failure.withLock({ $0 }) { throw error }
}

/// Runs `body` on `count` threads of its own and waits for all of them.
private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for thread in 0..<count {
        group.enter()
        Thread.detachNewThread {
            body(thread)
            group.leave()
        }
    }
    group.wait()
}

/// The synchronous read, as code written before the async calls makes it from a task (in an
/// `async` function Swift would choose the async one).
private func synchronousRead(_ store: SQLiteStore) throws -> StoredValue? { try store.read(forKey: "settings") }
