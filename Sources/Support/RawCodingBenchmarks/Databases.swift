import Foundation
import RawCoding
import RawCodingSQLite
import RawCodingStores

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// The same upsert and select `SQLiteStore` prepares, issued directly through SQLite's C
/// library on a connection set up the same way: the database's own cost, to which the store's
/// (encoding, decoding, locking, notifying) is compared.
final class DirectSQLite {
    private let database: OpaquePointer
    private let upsert: OpaquePointer
    private let select: OpaquePointer
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(path: String, table: String) {
        var database: OpaquePointer?
        guard sqlite3_open(path, &database) == SQLITE_OK, let database else { fail("cannot open \(path)") }
        self.database = database
        for pragma in ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL"] {
            guard sqlite3_exec(database, pragma, nil, nil, nil) == SQLITE_OK else { fail("\(pragma) failed") }
        }
        upsert = Self.prepare(
            database,
            #"INSERT INTO "\#(table)" ("key", "format", "value", "change") VALUES (?1, ?2, ?3, ?4) "#
                + #"ON CONFLICT ("key", "format") DO UPDATE SET "value" = excluded."value", "change" = excluded."change""#
        )
        select = Self.prepare(database, #"SELECT "value" FROM "\#(table)" WHERE "key" = ?1 AND "format" = ?2"#)
    }

    private static func prepare(_ database: OpaquePointer, _ sql: String) -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            fail("cannot prepare \(sql): \(String(cString: sqlite3_errmsg(database)))")
        }
        return statement
    }

    deinit {
        sqlite3_finalize(upsert)
        sqlite3_finalize(select)
        sqlite3_close_v2(database)
    }

    func write(_ payload: Data, forKey key: String) {
        sqlite3_bind_text(upsert, 1, key, -1, Self.transient)
        sqlite3_bind_text(upsert, 2, "json", -1, Self.transient)
        _ = payload.withUnsafeBytes { bytes in
            sqlite3_bind_text(
                upsert, 3, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), Self.transient)
        }
        sqlite3_bind_int64(upsert, 4, Int64.random(in: .min ... .max))
        guard sqlite3_step(upsert) == SQLITE_DONE else { fail("upsert: \(String(cString: sqlite3_errmsg(database)))") }
        sqlite3_reset(upsert)
    }

    func read(forKey key: String) -> Data {
        sqlite3_bind_text(select, 1, key, -1, Self.transient)
        sqlite3_bind_text(select, 2, "json", -1, Self.transient)
        guard sqlite3_step(select) == SQLITE_ROW, let bytes = sqlite3_column_blob(select, 0) else {
            fail("select: no row for \(key)")
        }
        let data = Data(bytes: bytes, count: Int(sqlite3_column_bytes(select, 0)))
        sqlite3_reset(select)
        return data
    }
}

/// The database stores against the others and against their database's own statements:
/// 10,000 writes and 10,000 reads each.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
func databaseRows() throws -> [Comparison] {
    try withTemporaryDirectory { directory in try databaseRows(in: directory) }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
private func databaseRows(in directory: URL) throws -> [Comparison] {
    let suite = "RawCodingBenchmarks.databases.\(ProcessInfo.processInfo.processIdentifier)"
    defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
    let path = directory.appendingPathComponent("settings.sqlite").path
    let sqlite = try SQLiteStore(path: path, table: "settings")
    var stores: [(name: String, store: any KeyValueStore)] = [
        ("SQLite", sqlite),
        ("files", try FileStore(directory: directory.appendingPathComponent("files"))),
        ("UserDefaults", UserDefaultsStore(suiteName: suite)),
    ]
    let (postgres, directPostgres) = try benchmarkPostgres().map { ($0.store, $0.direct) } ?? (nil, nil)
    if let postgres { stores.append(("PostgreSQL", postgres)) }
    let direct = DirectSQLite(path: path, table: "settings")
    let properties = stores.map { StoredSettings($0.store) }
    // A debug build (CI's smoke run) checks that the rows run and round-trip: fewer calls.
    #if DEBUG
        let calls = 500
    #else
        let calls = 10_000
    #endif
    let times = "×" + grouped(calls)
    var settings = BenchmarkSettings()
    let payload = try JSONCodec.json.encode(settings)
    let tree = try sqlite.codec.encodeTree(settings)
    try sqlite.write(tree, forKey: "direct")
    try postgres?.write(tree, forKey: "direct")
    // Every store reads back what it was given before anything is timed.
    for (index, property) in properties.enumerated() {
        settings.launches = index
        property.settings = settings
        guard try stores[index].store.value(BenchmarkSettings.self, forKey: "stored") == settings,
            try sqlite.read(forKey: "direct") == tree, direct.read(forKey: "direct") == payload,
            try postgres?.read(forKey: "direct") ?? tree == tree,
            directPostgres?.read(forKey: "direct") ?? payload == payload
        else { fail("a database round trip lost data; timings would mean nothing") }
    }
    var operations: [(label: String, body: () throws -> Void)] = []
    for (index, property) in properties.enumerated() {
        operations.append(
            ("\(stores[index].name) @Stored write", { for call in 0..<calls { property.settings.launches = call } }))
        operations.append(
            (
                "\(stores[index].name) read",
                {
                    for _ in 0..<calls {
                        _ = try stores[index].store.value(BenchmarkSettings.self, forKey: "stored")
                    }
                }
            ))
    }
    operations += [
        ("SQLiteStore write", { for _ in 0..<calls { try sqlite.write(tree, forKey: "direct") } }),
        ("direct upsert", { for _ in 0..<calls { direct.write(payload, forKey: "direct") } }),
        ("SQLiteStore read", { for _ in 0..<calls { _ = try sqlite.read(forKey: "direct") } }),
        ("direct select", { for _ in 0..<calls { _ = direct.read(forKey: "direct") } }),
    ]
    if let postgres, let directPostgres {
        operations += [
            ("PostgresStore write", { for _ in 0..<calls { try postgres.write(tree, forKey: "direct") } }),
            ("direct libpq upsert", { for _ in 0..<calls { directPostgres.write(payload, forKey: "direct") } }),
            ("PostgresStore read", { for _ in 0..<calls { _ = try postgres.read(forKey: "direct") } }),
            ("direct libpq select", { for _ in 0..<calls { _ = directPostgres.read(forKey: "direct") } }),
        ]
    }
    let measured = try Measurement.interleaved(operations, runs: min(runs, 5), warmup: 1)
    let time = Dictionary(uniqueKeysWithValues: zip(operations.map(\.label), measured))
    func row(_ title: String, _ ours: String, _ theirs: String, target: Double? = nil) -> Comparison {
        Comparison(title: title, ours: time[ours]!, theirs: time[theirs]!, target: target)
    }
    var rows = [
        row("@Stored write \(times): SQLite vs files", "SQLite @Stored write", "files @Stored write"),
        row("@Stored write \(times): SQLite vs UserDefaults", "SQLite @Stored write", "UserDefaults @Stored write"),
        row("read + decode \(times): SQLite vs files", "SQLite read", "files read"),
        row("read + decode \(times): SQLite vs UserDefaults", "SQLite read", "UserDefaults read"),
        row(
            "SQLiteStore write vs the same upsert in C \(times)", "SQLiteStore write", "direct upsert", target: 1 / 1.5),
        row("SQLiteStore read vs the same select in C \(times)", "SQLiteStore read", "direct select", target: 1 / 1.5),
    ]
    guard postgres != nil else {
        print("PostgreSQL rows: skipped (\(postgresAbsence))")
        return rows
    }
    rows += [
        row("@Stored write \(times): SQLite vs PostgreSQL", "SQLite @Stored write", "PostgreSQL @Stored write"),
        row("read + decode \(times): SQLite vs PostgreSQL", "SQLite read", "PostgreSQL read"),
        row(
            "PostgresStore write vs the same upsert in libpq \(times)", "PostgresStore write", "direct libpq upsert",
            target: 1 / 1.5),
        row(
            "PostgresStore read vs the same select in libpq \(times)", "PostgresStore read", "direct libpq select",
            target: 1 / 1.5),
    ]
    return rows
}

/// Runs `body` with a new directory of its own, removed afterwards.
func withTemporaryDirectory<Result>(_ body: (URL) throws -> Result) throws -> Result {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("RawCodingBenchmarks-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer {
        do { try FileManager.default.removeItem(at: directory) } catch {
            fail("cannot remove \(directory.path): \(error)")
        }
    }
    return try body(directory)
}

/// `number` with its thousands grouped by commas, as the table writes counts (10,000).
private func grouped(_ number: Int) -> String {
    number < 1_000 ? "\(number)" : grouped(number / 1_000) + "," + String(String(number % 1_000 + 1_000).dropFirst())
}
