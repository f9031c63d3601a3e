import Foundation
import Observation
import RawCoding
import RawCodingPostgres
import RawCodingStores
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The server the PostgreSQL tests use: `RAWCODING_POSTGRES` holds its libpq connection string
/// (`.ci/run` starts a throwaway cluster with `Scripts/postgres-cluster.sh` and sets it).
///
/// The restart check needs a server of its own, since restarting one drops every connection to
/// it, and the suites that use `RAWCODING_POSTGRES` run at the same time:
/// `RAWCODING_POSTGRES_RESTARTABLE` holds its connection string and `RAWCODING_POSTGRES_RESTART`
/// a shell command that restarts it.
enum PostgresServer {
    static let connection = ProcessInfo.processInfo.environment["RAWCODING_POSTGRES"]
    static let restartable = ProcessInfo.processInfo.environment["RAWCODING_POSTGRES_RESTARTABLE"]
    static let restartCommand = ProcessInfo.processInfo.environment["RAWCODING_POSTGRES_RESTART"]

    static let skipped =
        "RAWCODING_POSTGRES is not set: start a server with Scripts/postgres-cluster.sh start and set it "
        + "to the connection string it prints, as .ci/run does"

    /// A table no other test uses.
    static func freshTable() -> String { "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "") }

    /// A store on `table`.
    static func store(_ table: String, codec: any Codec = .json, on server: String? = connection) throws
        -> PostgresStore
    {
        try PostgresStore(connection: try #require(server), table: table, codec: codec)
    }

    /// How `StoreProbe` names a store on `table`.
    static func probeArgument(_ table: String) -> String { "postgres:\(table)|\(connection ?? "")" }

    /// Runs `command` with `/bin/sh` and waits for it. Not `Foundation.Process`: on Linux its
    /// wait also waits for the server that `pg_ctl` leaves running, forever.
    static func run(_ command: String) throws -> Int32 {
        try run(arguments: ["/bin/sh", "-c", command])
    }

    /// Runs the program `arguments[0]` (a path) with `arguments` and waits for it, as ``run(_:)``.
    static func run(arguments: [String]) throws -> Int32 {
        var pid: pid_t = 0
        var pointers = arguments.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        try #require(posix_spawn(&pid, arguments[0], nil, nil, &pointers, environ) == 0)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return status
    }
}

@Suite(
    "PostgresStore against a PostgreSQL server", .serialized,
    .enabled(if: PostgresServer.connection != nil, Comment(rawValue: PostgresServer.skipped)))
struct PostgresStoreTests {
    enum Payload: String, CaseIterable, CustomTestStringConvertible {
        case json, binaryPropertyList
        var testDescription: String { rawValue }
        var codec: any Codec { self == .json ? .json : .propertyList(.binary) }
        var otherCodec: any Codec { self == .json ? .propertyList(.binary) : .json }
    }

    /// More callers than connections: each waits for a connection to come back, none fails, and
    /// no more than `connections` of them run at once.
    @Test func callersBeyondThePoolWaitForAConnection() async throws {
        let store = try PostgresStore(
            connection: try #require(PostgresServer.connection), table: PostgresServer.freshTable(), connections: 2)
        #expect(store.connections == 2)
        let running = Locked((now: 0, most: 0))
        let failures = Locked<[String]>([])
        let finished = DispatchGroup()
        for caller in 0..<8 {
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                do {
                    for round in 0..<5 {
                        try store.update(Int.self, forKey: "key\(caller)", defaultValue: 0) { value in
                            running.withLock {
                                $0.now += 1
                                $0.most = max($0.most, $0.now)
                            }
                            Thread.sleep(forTimeInterval: 0.005)
                            running.withLock { $0.now -= 1 }
                            value = round + 1
                        }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        await withCheckedContinuation { done in finished.notify(queue: .global()) { done.resume() } }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(running.withLock { $0.most } == 2, "\(running.withLock { $0.most }) calls ran at once on 2 connections")
        for caller in 0..<8 { #expect(try await store.value(Int.self, forKey: "key\(caller)") == 5) }
    }

    @Test(arguments: Payload.allCases, KeyValueStoreContract.Check.allCases)
    func meetsTheContract(_ payload: Payload, _ check: KeyValueStoreContract.Check) async throws {
        let table = PostgresServer.freshTable()
        try await KeyValueStoreContract(
            try PostgresServer.store(table, codec: payload.codec),
            sameStorage: try PostgresServer.store(table, codec: payload.codec),
            otherCodec: try PostgresServer.store(table, codec: payload.otherCodec)
        ).run(check)
    }

    @Test func fourProcessesOfFourThreadsLoseNoIncrement() throws {
        let table = PostgresServer.freshTable()
        _ = try PostgresServer.store(table)
        let probes = try (0..<4).map { _ in try Probe(["increment", PostgresServer.probeArgument(table), "4", "250"]) }
        for probe in probes {
            let result = probe.finish()
            #expect(result.status == 0 && result.output.contains("incremented 1000"), "\(result.output)")
        }
        #expect(try PostgresServer.store(table).value(Int.self, forKey: "counter") == 4_000)
    }

    @Test func aWriterKilledMidTransactionLosesNothingAcknowledged() throws {
        let table = PostgresServer.freshTable()
        let store = try PostgresServer.store(table)
        var generator = SystemRandomNumberGenerator()
        for round in 0..<5 {
            let probe = try Probe(["increment", PostgresServer.probeArgument(table), "1", "1000000"])
            let start = Date()
            let before = try store.value(Int.self, forKey: "counter") ?? 0
            while try store.value(Int.self, forKey: "counter") ?? 0 <= before {
                try #require(Date().timeIntervalSince(start) < 60, "round \(round): the child never incremented")
                Thread.sleep(forTimeInterval: 0.001)
            }
            Thread.sleep(forTimeInterval: Double.random(in: 0.0...0.2, using: &generator))
            let acknowledged = try #require(try store.value(Int.self, forKey: "counter"))
            let ended = probe.kill()
            #expect(ended.reason == .uncaughtSignal, "round \(round): the child finished before the kill")
            // The killed transaction is rolled back and its locks released: the next update goes through.
            let after = try store.update(Int.self, forKey: "counter", defaultValue: 0) { value in
                value += 1
                return value
            }
            #expect(after > acknowledged, "round \(round): \(after) after \(acknowledged) was acknowledged")
        }
    }

    @Test(
        .enabled(
            if: PostgresServer.restartable != nil && PostgresServer.restartCommand != nil,
            Comment(
                rawValue: "RAWCODING_POSTGRES_RESTARTABLE or RAWCODING_POSTGRES_RESTART is not set: the "
                    + "restart check needs a server no other test uses")))
    func aServerRestartLosesNoAcknowledgedWriteAndObserversFollow() async throws {
        let table = PostgresServer.freshTable()
        let server = PostgresServer.restartable
        let writer = try PostgresServer.store(table, on: server)
        let observer = try PostgresServer.store(table, on: server)
        let seen = Locked<[Int]>([])
        let observation = observer.observe { change in
            guard change.affects("value") else { return }
            // Read on another thread: a handler must not block.
            DispatchQueue.global().async {
                do {
                    if let value = try observer.value(Int.self, forKey: "value") { seen.withLock { $0.append(value) } }
                } catch {
                    // The server may be restarting; the next notification reads again.
                }
            }
        }
        defer { observation.cancel() }
        var acknowledged: [Int] = []
        let restart = Task.detached { try PostgresServer.run(try #require(PostgresServer.restartCommand)) }
        for index in 0..<400 {
            do {
                try await writer.set(index, forKey: "value-\(index)")
                acknowledged.append(index)
            } catch {
                // A write during the restart may fail; it was not acknowledged.
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(try await restart.value == 0)
        // Writes go through again after the restart.
        try await writer.set(1_000, forKey: "value")
        let reader = try PostgresServer.store(table, on: server)
        for index in acknowledged {
            #expect(
                try await reader.value(Int.self, forKey: "value-\(index)") == index,
                "acknowledged write \(index) is lost")
        }
        #expect(acknowledged.count > 300, "only \(acknowledged.count) of 400 writes went through")
        let deadline = ContinuousClock.now + .seconds(10)
        while !seen.withLock({ $0.contains(1_000) }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(seen.withLock { $0.contains(1_000) }, "the observer did not see the write made after the restart")
    }

    @Test func aFailedUpdateEndsItsTransaction() throws {
        let table = PostgresServer.freshTable()
        try expectAFailedUpdateEndsItsTransaction(try PostgresServer.store(table), try PostgresServer.store(table))
    }

    @Test func jsonIsKeptExactlyAndSQLReadsIt() throws {
        let table = PostgresServer.freshTable()
        let store = try PostgresServer.store(table)
        // jsonb would write the first as 309 digits and refuse the second.
        let tree: StoredValue = ["largest": .double(.greatestFiniteMagnitude), "nul": "a\u{0}b", "theme": "dark"]
        try store.write(tree, forKey: "display")
        #expect(try PostgresServer.store(table).read(forKey: "display") == tree)
    }
}

@Suite("PostgresStore without a server")
struct PostgresStoreErrorTests {
    @Test func anUnreachableServerIsAStorageErrorWithoutThePassword() throws {
        let error = try #require(throws: RawCodingError.self) {
            try PostgresStore(
                connection: "host=/nonexistent/socket/dir user=app password=hunter2 dbname=app connect_timeout=2")
        }
        #expect(error.kind == .storageFailed)
        #expect(error.reason.contains("could not connect") && error.reason.contains("host=/nonexistent/socket/dir"))
        #expect(!"\(error)".contains("hunter2"), "\(error)")
        #expect(!error.reason.contains("hunter2"))
    }

    @Test func aBadConnectionStringNamesNoPassword() throws {
        let error = try #require(throws: RawCodingError.self) {
            try PostgresStore(connection: "host=/tmp password=hunter2 nonsense")
        }
        #expect(error.kind == .storageFailed)
        #expect(!"\(error)".contains("hunter2"), "\(error)")
    }
}
