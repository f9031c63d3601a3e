import Foundation
import RawCoding
import RawCodingStores

/// A store in a PostgreSQL table, shared by every process and host that reaches the server:
/// one row per key, transactions that lose no update, and changes followed across hosts.
///
/// ```swift
/// let store = try PostgresStore(connection: "host=db.internal dbname=app user=app", table: "settings")
/// try store.update(Int.self, forKey: "launches", defaultValue: 0) { $0 += 1 }
/// ```
///
/// - Each key is a row of `table`: the key (in its composed Unicode form), the codec's format,
///   and the payload: with the JSON codec in a `json` column, which keeps the text exactly as
///   written (`jsonb` would round long numbers and refuse `\u0000`) and which SQL reads
///   (`value->>'theme'`, `value::jsonb`); with other codecs in a `bytea` column. Stores with
///   different codecs on one table each see only their own rows. The tables, and a trigger
///   that notifies writes, are created when missing.
/// - ``update(forKey:_:)`` runs in a transaction that first takes a transaction-scoped advisory
///   lock on the key, then reads the row `FOR UPDATE`: no increment is lost, even when the row
///   does not exist yet.
/// - When the server restarts, the next call that finds the connection lost resets it, and runs
///   again when running twice cannot change the outcome (a read, an upsert of the same value, a
///   delete, the start of a transaction).
/// - Observers are told of writes through any instance in this process at once, and of writes
///   from other processes and hosts through `LISTEN`: while someone observes, a thread of the
///   store's own waits on a connection of its own for the trigger's notifications. After that
///   connection is lost and made again, observers are told that any key may have changed, so
///   they read again and miss nothing.
/// - The store keeps a pool of up to `connections` connections, opened as calls need them, so
///   that many calls run their round trips at once; `lock_timeout` and `statement_timeout` are
///   set to `timeout` on each.
/// - In `async` code, every call (`try await store.update(…)`) runs on threads of the store's
///   own, one per connection, and never blocks the Swift concurrency pool; cancelling the
///   calling task cancels the statement it waits on (a lock, a slow query), the transaction
///   rolls back, and the call throws `.cancelled` having written nothing. The synchronous calls
///   block the calling thread for their round trips.
///
/// Every failure is a `RawCodingError` of kind `.storageFailed` naming the key and the server's
/// message; the connection string's password never appears in one.
public final class PostgresStore: KeyValueStore {
    /// The table holding the values.
    public let table: String
    public let codec: any Codec

    private let sql: PostgresTableNames
    private let format: String
    private let isJSON: Bool
    private let pool: ConnectionPool<PostgresConnection>
    private let threads: StoreThreads
    private let watcher: PostgresWatcher

    /// Connects to the server and creates the store's tables and trigger if they are missing.
    /// - Parameters:
    ///   - connection: A libpq connection string (`"host=/run/postgresql dbname=app"`) or URI
    ///     (`"postgresql://app@db.internal/app"`).
    ///   - table: The table of values; `<table>_set_aside` holds payloads set aside.
    ///   - codec: The payloads' format; canonical JSON (a `json` column) by default.
    ///   - timeout: The longest, in seconds, a statement runs or waits for a lock; 10 by default.
    ///   - connections: The most connections the store opens to the server, and so the most calls
    ///     running at once; 4 by default. One is opened here, the others when calls need them.
    /// - Throws: `RawCodingError` of kind `.storageFailed` when the server cannot be reached or
    ///   the tables cannot be made.
    public init(
        connection: String, table: String = "raw_coding_values", codec: any Codec = .json, timeout: TimeInterval = 10,
        connections: Int = 4
    )
        throws(RawCodingError)
    {
        try StoreTable.check(table, in: PostgresStore.self)
        self.table = table
        self.codec = codec
        sql = PostgresTableNames(table: table)
        format = codec.fileExtension
        isJSON = codec is JSONCodec
        let milliseconds = Int((timeout * 1_000).rounded(.up))
        let setUp = [
            "SET lock_timeout = \(milliseconds)", "SET statement_timeout = \(milliseconds)",
            // libpq prints notices (`… already exists, skipping`) on standard error.
            "SET client_min_messages = warning",
        ]
        let session = try PostgresConnection(connection, setUp: setUp)
        try Self.createTables(sql, session)
        watcher = PostgresWatcher.shared(connection: connection, description: session.description, names: sql)
        let watcher = self.watcher
        watcher.noteOwnBackend(session.backendPID)
        pool = ConnectionPool(first: session, size: connections) { () throws(RawCodingError) in
            let opened = try PostgresConnection(connection, setUp: setUp)
            watcher.noteOwnBackend(opened.backendPID)
            return opened
        } closing: {
            watcher.forgetOwnBackend($0.backendPID)
        }
        threads = StoreThreads(name: "PostgresStore", width: pool.size)
    }

    /// The most connections the store opens.
    public var connections: Int { pool.size }

    /// Runs `work` on the store's own threads, one per connection; a statement running when the
    /// calling task is cancelled is cancelled on the server.
    /// - Parameters:
    ///   - key: The key the work is about.
    ///   - work: The work.
    /// - Returns: What `work` returns.
    /// - Throws: `RawCodingError`: what `work` throws, or of kind `.cancelled`.
    public func perform<Result: Sendable>(
        forKey key: String?, _ work: @escaping @Sendable () throws(RawCodingError) -> Result
    ) async throws(RawCodingError) -> Result {
        try await threads.run(in: PostgresStore.self, key: key, work)
    }

    /// Creates the tables and the trigger, one store at a time (concurrent `CREATE … IF NOT
    /// EXISTS` statements can collide in PostgreSQL's catalog).
    private static func createTables(_ sql: PostgresTableNames, _ connection: PostgresConnection) throws(RawCodingError)
    {
        try connection.inTransaction(key: nil) { () throws(RawCodingError) in
            for statement in [
                sql.lockSchema, sql.createValues, sql.createSetAside, sql.createNotify, sql.createTrigger,
            ] {
                _ = try connection.run(statement, [], key: nil, retrying: false)
            }
        }
    }

    // MARK: Reading

    public func read(forKey key: String) throws(RawCodingError) -> StoredValue? {
        guard let data = try withConnection({ connection throws(RawCodingError) in try payload(key, connection) })
        else { return nil }
        return try decoded(data, key: key)
    }

    private func decoded(_ data: Data, key: String) throws(RawCodingError) -> StoredValue {
        try codec.tree(ofPayload: data, forKey: key)
    }

    /// The payload under `key`, as stored; the caller holds the connection's lock.
    private func payload(_ key: String, _ connection: PostgresConnection, locking: Bool = false) throws(RawCodingError)
        -> Data?
    {
        let rows = try connection.run(
            locking ? sql.selectForUpdate : sql.selectValue, [.text(StoreKey.composed(key)), .text(format)], key: key,
            retrying: !locking)
        guard let row = rows.rows.first else { return nil }
        return row[isJSON ? 0 : 1] ?? Data()
    }

    public func keys() throws(RawCodingError) -> [String] {
        try withConnection { connection throws(RawCodingError) in
            let rows = try connection.run(sql.selectKeys, [.text(format)], key: nil)
            return rows.rows.indices.map { rows.text($0, 0) }.sorted()
        }
    }

    // MARK: Writing

    /// The bytes stored for `value`.
    private func encoded(_ value: StoredValue, key: String) throws(RawCodingError) -> Data {
        try codec.payload(of: value, forKey: key, in: PostgresStore.self)
    }

    /// The payload as a parameter of the column it goes to.
    private func parameter(_ data: Data) -> PostgresParameter { isJSON ? .json(data) : .bytes(data) }

    private func store(_ data: Data, key: String, _ connection: PostgresConnection, retrying: Bool)
        throws(RawCodingError)
    {
        _ = try connection.run(
            isJSON ? sql.upsertJSON : sql.upsertBytes, [.text(StoreKey.composed(key)), .text(format), parameter(data)],
            key: key,
            retrying: retrying)
    }

    private func delete(_ key: String, _ connection: PostgresConnection, retrying: Bool) throws(RawCodingError) -> Bool
    {
        try connection.run(
            sql.deleteValue, [.text(StoreKey.composed(key)), .text(format)], key: key, retrying: retrying
        )
        .changed > 0
    }

    /// The one path of every change: `body` runs with a connection of the pool and returns
    /// whether it changed `key`; observers are told after the commit. A call cancelled before it
    /// has a connection changes nothing.
    private func mutate<Result>(
        forKey key: String, _ body: (PostgresConnection) throws(RawCodingError) -> (result: Result, changed: Bool)
    ) throws(RawCodingError) -> Result {
        let (result, changed) = try withConnection { connection throws(RawCodingError) in
            try StoreJob.checkCancellation()
            return try body(connection)
        }
        if changed { watcher.broadcaster.send(forKey: key, from: self) }
        return result
    }

    /// Runs `body` with a connection of the pool; when the connection was reset meanwhile (a
    /// server restart), the watcher learns which server process serves it now.
    private func withConnection<Result>(_ body: (PostgresConnection) throws(RawCodingError) -> Result)
        throws(RawCodingError) -> Result
    {
        try pool.withConnection { connection throws(RawCodingError) in
            let before = connection.backendPID
            defer {
                if connection.backendPID != before { watcher.replaceOwnBackend(before, with: connection.backendPID) }
            }
            return try body(connection)
        }
    }

    /// Runs `body` in a transaction holding the key's advisory lock; rolls back if it throws.
    private func inTransaction<Result>(
        key: String, _ connection: PostgresConnection, _ body: () throws(RawCodingError) -> Result
    ) throws(RawCodingError) -> Result {
        try connection.inTransaction(key: key) { () throws(RawCodingError) -> Result in
            // A format holds no colon, so the text is the row's alone (PostgreSQL's text holds no NUL).
            _ = try connection.run(
                sql.lockKey, [.text(format + ":" + StoreKey.composed(key))], key: key, retrying: false)
            // Cancelled while it waited for the lock: roll back, having written nothing.
            try StoreJob.checkCancellation()
            return try body()
        }
    }

    public func write(_ value: StoredValue, forKey key: String) throws(RawCodingError) {
        let data = try encoded(value, key: key)
        try mutate(forKey: key) { connection throws(RawCodingError) in
            try store(data, key: key, connection, retrying: true)
            return ((), true)
        }
    }

    public func remove(forKey key: String) throws(RawCodingError) {
        try mutate(forKey: key) { connection throws(RawCodingError) in
            ((), try delete(key, connection, retrying: true))
        }
    }

    public func update<Result>(
        forKey key: String, _ body: (inout StoredValue?) throws(RawCodingError) -> Result
    ) throws(RawCodingError) -> Result {
        try mutate(forKey: key) { connection throws(RawCodingError) -> (result: Result, changed: Bool) in
            try inTransaction(key: key, connection) { () throws(RawCodingError) -> (result: Result, changed: Bool) in
                let old = try payload(key, connection, locking: true).map { data throws(RawCodingError) in
                    try decoded(data, key: key)
                }
                var value = old
                let result = try body(&value)
                guard value != old else { return (result, false) }
                if let value {
                    try store(try encoded(value, key: key), key: key, connection, retrying: false)
                } else {
                    _ = try delete(key, connection, retrying: false)
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
            let payload = try inTransaction(key: key, connection) { () throws(RawCodingError) in
                try setAsideLocked(key, connection)
            }
            return (payload, payload != nil)
        }
    }

    /// Moves the row of `key` to the set-aside table, inside the caller's transaction.
    private func setAsideLocked(_ key: String, _ connection: PostgresConnection) throws(RawCodingError)
        -> SetAsidePayload?
    {
        guard let data = try payload(key, connection, locking: true) else { return nil }
        let (id, milliseconds) = SetAsidePayload.newIdentifier()
        _ = try connection.run(
            isJSON ? sql.insertSetAsideJSON : sql.insertSetAsideBytes,
            [.text(id), .text(StoreKey.composed(key)), .text(format), .integer(milliseconds), parameter(data)],
            key: key,
            retrying: false)
        _ = try delete(key, connection, retrying: false)
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
            try inTransaction(key: key, connection) {
                () throws(RawCodingError) -> (result: SetAsidePayload?, changed: Bool) in
                let payload = settingAside ? try setAsideLocked(key, connection) : nil
                if let data {
                    try store(data, key: key, connection, retrying: false)
                    return (payload, true)
                }
                let removed = try delete(key, connection, retrying: false)
                return (payload, payload != nil || removed)
            }
        }
    }

    public func setAsidePayloads() throws(RawCodingError) -> [SetAsidePayload] {
        try withConnection { connection throws(RawCodingError) in
            let rows = try connection.run(sql.selectSetAside, [.text(format)], key: nil)
            return rows.rows.indices.map { row in
                SetAsidePayload(
                    id: rows.text(row, 0), key: rows.text(row, 1),
                    date: SetAsidePayload.date(milliseconds: rows.integer(row, 2)),
                    content: .bytes(rows.rows[row][isJSON ? 3 : 4] ?? Data()))
            }
        }
    }

    public func discardSetAside(_ id: String) throws(RawCodingError) {
        try withConnection { connection throws(RawCodingError) in
            _ = try connection.run(sql.deleteSetAside, [.text(id), .text(format)], key: nil)
        }
    }
}
