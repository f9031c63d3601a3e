import Foundation
import RawCoding
import RawCodingStores

/// A store in one SQLite database file: one row per key, atomic commits, safe across threads
/// and processes.
///
/// ```swift
/// let store = try SQLiteStore(path: appSupport.appendingPathComponent("settings.sqlite").path)
/// try store.update(Int.self, forKey: "launches", defaultValue: 0) { $0 += 1 }
/// ```
///
/// - Each key is a row of `table`: the key (in its composed Unicode form, so keys Swift finds
///   equal are one row), the codec's format, the payload the codec writes
///   (JSON as text, so SQL's JSON functions read it, as in
///   `SELECT json_extract(value, '$.theme') FROM settings WHERE key = 'display'`; a property
///   list as a blob), and a change tag, a random number each write gives the row. Stores with
///   different codecs on one table each see only their own rows, as `FileStore`s with two
///   codecs in one directory do.
/// - The database runs in WAL mode, with `synchronous = FULL`: a write that returned is on the
///   disk, and a process killed at any moment leaves the value before or after its write.
///   ``update(forKey:_:)`` reads and writes inside `BEGIN IMMEDIATE`, so no other connection
///   (another instance, another process) writes between; a connection waits up to
///   `busyTimeout` for another's lock, then fails with `.storageFailed`.
/// - Payloads set aside go to the table `<table>_set_aside`, byte for byte.
/// - Observers are told of writes through any instance in this process at once, and of other
///   processes' commits within ``pollInterval``: while someone observes, a thread of the store's
///   own asks SQLite's `PRAGMA data_version` whether another connection committed, and then
///   which rows' change tags differ from those it saw.
///
/// - Reads run on a pool of up to `readers` connections of their own, so they go on while a
///   write transaction is open (WAL lets readers read the last committed value meanwhile);
///   writes go through one connection.
/// - In `async` code, every call (`try await store.update(…)`) runs on threads of the store's
///   own and never blocks the Swift concurrency pool; one cancelled while it waits for the write
///   lock writes nothing. The synchronous calls block the calling thread while SQLite works (and
///   while it waits for a lock).
/// - A new database file is owner-only (`0600`) unless `permissions` says otherwise; SQLite gives
///   its `-wal` and `-shm` files the database file's mode.
///
/// Every SQLite error is a `RawCodingError` of kind `.storageFailed` with SQLite's message and
/// the key.
public final class SQLiteStore: KeyValueStore {
    /// How often, in seconds, the watcher looks for other processes' commits while someone
    /// observes.
    public static let pollInterval: TimeInterval = 0.2

    /// The database file.
    public let path: String
    /// The table holding the values.
    public let table: String
    public let codec: any Codec

    let names: SQLiteTableNames
    private let format: String
    private let storesText: Bool
    private let connection: Locked<SQLiteConnection>
    private let readers: ConnectionPool<SQLiteConnection>
    private let threads: StoreThreads
    private let watcher: SQLiteWatcher

    /// Opens (creating if needed) the database at `path` and the store's tables in it.
    /// - Parameters:
    ///   - path: The database file; its folder must exist.
    ///   - table: The table of values; created if missing, with `<table>_set_aside` beside it.
    ///   - codec: The payloads' format; canonical JSON by default, stored as text.
    ///   - busyTimeout: How long, in seconds, a call waits for another connection's write lock
    ///     before it fails; 10 seconds by default.
    ///   - readers: The most connections reading at once; 4 by default. They are opened as
    ///     reads need them.
    ///   - permissions: The mode of the database file if the store creates it; owner-only by
    ///     default.
    /// - Throws: `RawCodingError` of kind `.storageFailed` when the database cannot be opened
    ///   or its tables made.
    public init(
        path: String, table: String = "raw_coding_values", codec: any Codec = .json, busyTimeout: TimeInterval = 10,
        readers: Int = 4, permissions: StoreFilePermissions = .ownerOnly
    ) throws(RawCodingError) {
        try StoreTable.check(table, in: SQLiteStore.self)
        self.path = path
        self.table = table
        self.codec = codec
        names = SQLiteTableNames(table: table)
        format = codec.fileExtension
        storesText = codec is JSONCodec
        if let descriptor = try permissions.createFile(path, in: SQLiteStore.self, key: nil) {
            close(descriptor)
        }
        let connection = try SQLiteConnection(path: path, busyTimeout: busyTimeout)
        try connection.execute(names.createValues, key: nil)
        try connection.execute(names.createSetAside, key: nil)
        self.connection = Locked(connection)
        self.readers = ConnectionPool(first: nil, size: readers) { () throws(RawCodingError) in
            try SQLiteConnection(path: path, busyTimeout: busyTimeout)
        }
        threads = StoreThreads(name: "SQLiteStore", width: self.readers.size + 1)
        let resolved = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        watcher = SQLiteWatcher.shared(path: resolved, names: names, busyTimeout: busyTimeout)
    }

    /// Runs `work` on the store's own threads.
    /// - Parameters:
    ///   - key: The key the work is about.
    ///   - work: The work.
    /// - Returns: What `work` returns.
    /// - Throws: `RawCodingError`: what `work` throws, or of kind `.cancelled`.
    public func perform<Result: Sendable>(
        forKey key: String?, _ work: @escaping @Sendable () throws(RawCodingError) -> Result
    ) async throws(RawCodingError) -> Result {
        try await threads.run(in: SQLiteStore.self, key: key, work)
    }

    // MARK: Reading

    public func read(forKey key: String) throws(RawCodingError) -> StoredValue? {
        guard
            let data = try readers.withConnection({ connection throws(RawCodingError) in try payload(key, connection) })
        else { return nil }
        return try codec.tree(ofPayload: data, forKey: key)
    }

    /// The payload under `key`, as stored; the caller has the connection to itself.
    private func payload(_ key: String, _ connection: SQLiteConnection) throws(RawCodingError) -> Data? {
        try connection.run(names.selectValue, key: key) { statement throws(RawCodingError) in
            try statement.bind(StoreKey.composed(key), at: 1)
            try statement.bind(format, at: 2)
            return try statement.step() ? statement.data(at: 0) : nil
        }
    }

    public func keys() throws(RawCodingError) -> [String] {
        try readers.withConnection { connection throws(RawCodingError) in
            try connection.run(names.selectKeys, key: nil) { statement throws(RawCodingError) in
                try statement.bind(format, at: 1)
                var keys: [String] = []
                while try statement.step() { keys.append(statement.text(at: 0)) }
                return keys.sorted()
            }
        }
    }

    // MARK: Writing

    /// The bytes stored for `value`.
    private func encoded(_ value: StoredValue, key: String) throws(RawCodingError) -> Data {
        try codec.payload(of: value, forKey: key, in: SQLiteStore.self)
    }

    /// Stores `data` under `key` with a new change tag; the caller holds the connection's lock.
    private func store(_ data: Data, key: String, _ connection: SQLiteConnection) throws(RawCodingError) {
        let change = Int64.random(in: .min ... .max)
        let row = SQLiteWatcher.Row(key: StoreKey.composed(key), format: format)
        try connection.run(names.upsertValue, key: key) { statement throws(RawCodingError) in
            try statement.bind(row.key, at: 1)
            try statement.bind(format, at: 2)
            try statement.bind(data, asText: storesText, at: 3)
            try statement.bind(change, at: 4)
            _ = try statement.step()
        }
        watcher.noteOwnChange(row, tag: change)
    }

    /// Deletes the row of `key`; whether there was one. The caller holds the connection's lock.
    private func delete(_ key: String, _ connection: SQLiteConnection) throws(RawCodingError) -> Bool {
        let row = SQLiteWatcher.Row(key: StoreKey.composed(key), format: format)
        try connection.run(names.deleteValue, key: key) { statement throws(RawCodingError) in
            try statement.bind(row.key, at: 1)
            try statement.bind(format, at: 2)
            _ = try statement.step()
        }
        guard connection.changes > 0 else { return false }
        watcher.noteOwnChange(row, tag: nil)
        return true
    }

    /// The one path of every change: `body` runs under the connection's lock and returns
    /// whether it changed `key`; observers are told after the commit.
    private func mutate<Result>(
        forKey key: String, _ body: (SQLiteConnection) throws(RawCodingError) -> (result: Result, changed: Bool)
    ) throws(RawCodingError) -> Result {
        let (result, changed) = try connection.withLock { connection throws(RawCodingError) in
            // An `async` call cancelled while it waited for the lock writes nothing.
            try StoreJob.checkCancellation()
            return try body(connection)
        }
        if changed { watcher.broadcaster.send(forKey: key, from: self) }
        return result
    }

    public func write(_ value: StoredValue, forKey key: String) throws(RawCodingError) {
        // One statement, its own transaction: no need to read the old value to replace it.
        let data = try encoded(value, key: key)
        try mutate(forKey: key) { connection throws(RawCodingError) in
            try store(data, key: key, connection)
            return ((), true)
        }
    }

    public func remove(forKey key: String) throws(RawCodingError) {
        try mutate(forKey: key) { connection throws(RawCodingError) in ((), try delete(key, connection)) }
    }

    public func update<Result>(
        forKey key: String, _ body: (inout StoredValue?) throws(RawCodingError) -> Result
    ) throws(RawCodingError) -> Result {
        try mutate(forKey: key) { connection throws(RawCodingError) -> (result: Result, changed: Bool) in
            try connection.inWriteTransaction(key: key) {
                () throws(RawCodingError) -> (result: Result, changed: Bool) in
                let old = try payload(key, connection).map { data throws(RawCodingError) in
                    try codec.tree(ofPayload: data, forKey: key)
                }
                var value = old
                let result = try body(&value)
                guard value != old else { return (result, false) }
                if let value {
                    try store(try encoded(value, key: key), key: key, connection)
                } else {
                    _ = try delete(key, connection)
                }
                return (result, true)
            }
        }
    }

    public func observe(_ handler: @escaping @Sendable (StoreChange) -> Void) -> StoreObservation {
        let observation = watcher.broadcaster.add(for: self, handler)
        watcher.startWatching()
        return observation
    }

    // MARK: Setting payloads aside

    public func setAside(forKey key: String) throws(RawCodingError) -> SetAsidePayload? {
        try mutate(forKey: key) { connection throws(RawCodingError) -> (result: SetAsidePayload?, changed: Bool) in
            let payload = try connection.inWriteTransaction(key: key) { () throws(RawCodingError) in
                try setAsideLocked(key, connection)
            }
            return (payload, payload != nil)
        }
    }

    /// Moves the row of `key` to the set-aside table; the caller holds the lock, in a
    /// transaction.
    private func setAsideLocked(_ key: String, _ connection: SQLiteConnection) throws(RawCodingError)
        -> SetAsidePayload?
    {
        guard let data = try payload(key, connection) else { return nil }
        let (id, milliseconds) = SetAsidePayload.newIdentifier()
        try connection.run(names.insertSetAside, key: key) { statement throws(RawCodingError) in
            try statement.bind(id, at: 1)
            try statement.bind(StoreKey.composed(key), at: 2)
            try statement.bind(format, at: 3)
            try statement.bind(milliseconds, at: 4)
            try statement.bind(data, asText: storesText, at: 5)
            _ = try statement.step()
        }
        _ = try delete(key, connection)
        return SetAsidePayload(
            id: id, key: key, date: SetAsidePayload.date(milliseconds: milliseconds), content: .bytes(data))
    }

    public func replace(_ value: StoredValue?, forKey key: String, settingAside: Bool) throws(RawCodingError)
        -> SetAsidePayload?
    {
        // Encoded before anything moves: a value that cannot be written leaves the old payload.
        let data = try value.map { value throws(RawCodingError) in try encoded(value, key: key) }
        return try mutate(forKey: key) {
            connection throws(RawCodingError) -> (result: SetAsidePayload?, changed: Bool) in
            try connection.inWriteTransaction(key: key) {
                () throws(RawCodingError) -> (result: SetAsidePayload?, changed: Bool) in
                let payload = settingAside ? try setAsideLocked(key, connection) : nil
                if let data {
                    try store(data, key: key, connection)
                    return (payload, true)
                }
                let removed = try delete(key, connection)
                return (payload, payload != nil || removed)
            }
        }
    }

    public func setAsidePayloads() throws(RawCodingError) -> [SetAsidePayload] {
        try readers.withConnection { connection throws(RawCodingError) in
            try connection.run(names.selectSetAside, key: nil) { statement throws(RawCodingError) in
                try statement.bind(format, at: 1)
                var payloads: [SetAsidePayload] = []
                while try statement.step() {
                    payloads.append(
                        SetAsidePayload(
                            id: statement.text(at: 0), key: statement.text(at: 1),
                            date: SetAsidePayload.date(milliseconds: statement.int64(at: 2)),
                            content: .bytes(statement.data(at: 3))))
                }
                return payloads
            }
        }
    }

    public func discardSetAside(_ id: String) throws(RawCodingError) {
        try connection.withLock { connection throws(RawCodingError) in
            try connection.run(names.deleteSetAside, key: nil) { statement throws(RawCodingError) in
                try statement.bind(id, at: 1)
                try statement.bind(format, at: 2)
                _ = try statement.step()
            }
        }
    }
}

/// The SQL of a store's tables, with their names quoted; made once, since a statement is
/// looked up by its text.
struct SQLiteTableNames: Sendable {
    let values: String
    let createValues: String
    let createSetAside: String
    let selectValue: String
    let selectKeys: String
    let selectChanges: String
    let upsertValue: String
    let deleteValue: String
    let insertSetAside: String
    let selectSetAside: String
    let deleteSetAside: String

    init(table: String) {
        let values = StoreTable.quoted(table)
        let setAside = StoreTable.quoted(table + "_set_aside")
        self.values = values
        createValues = """
            CREATE TABLE IF NOT EXISTS \(values) ("key" TEXT NOT NULL, "format" TEXT NOT NULL, "value" NOT NULL, \
            "change" INTEGER NOT NULL, PRIMARY KEY ("key", "format")) WITHOUT ROWID
            """
        createSetAside = """
            CREATE TABLE IF NOT EXISTS \(setAside) ("id" TEXT PRIMARY KEY NOT NULL, "key" TEXT NOT NULL, \
            "format" TEXT NOT NULL, "milliseconds" INTEGER NOT NULL, "value" NOT NULL)
            """
        selectValue = #"SELECT "value" FROM \#(values) WHERE "key" = ?1 AND "format" = ?2"#
        selectKeys = #"SELECT "key" FROM \#(values) WHERE "format" = ?1"#
        selectChanges = #"SELECT "key", "format", "change" FROM \#(values)"#
        upsertValue = #"""
            INSERT INTO \#(values) ("key", "format", "value", "change") VALUES (?1, ?2, ?3, ?4) \#
            ON CONFLICT ("key", "format") DO UPDATE SET "value" = excluded."value", "change" = excluded."change"
            """#
        deleteValue = #"DELETE FROM \#(values) WHERE "key" = ?1 AND "format" = ?2"#
        insertSetAside =
            #"INSERT INTO \#(setAside) ("id", "key", "format", "milliseconds", "value") VALUES (?1, ?2, ?3, ?4, ?5)"#
        selectSetAside =
            #"SELECT "id", "key", "milliseconds", "value" FROM \#(setAside) WHERE "format" = ?1 ORDER BY "milliseconds", "id""#
        deleteSetAside = #"DELETE FROM \#(setAside) WHERE "id" = ?1 AND "format" = ?2"#
    }
}
