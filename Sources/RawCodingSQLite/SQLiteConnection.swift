import Foundation
import RawCoding
import RawCodingStores

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// SQLite copies bound text and bytes at once (`SQLITE_TRANSIENT`, which Swift does not import).
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One SQLite connection and its prepared statements. Not thread-safe: its owner uses it under
/// one lock.
final class SQLiteConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (creating if needed) the database at `path` in WAL mode, waiting up to
    /// `busyTimeout` seconds for another connection's lock.
    init(path: String, busyTimeout: TimeInterval) throws(RawCodingError) {
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(opened)
            throw Self.failure("opening the database \(path)", code: code, message: message, key: nil)
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Int32(clamping: Int((busyTimeout * 1_000).rounded(.up))))
        try enableWAL(busyTimeout: busyTimeout)
        // Every commit reaches the disk before it returns, as a FileStore write does.
        try execute("PRAGMA synchronous = FULL", key: nil)
    }

    /// Switches the database to WAL mode (once per file; later it is a no-op). The switch needs
    /// the database to itself, and SQLite answers `SQLITE_BUSY` at once, without waiting, while
    /// another process opens the same new file: so it is tried again until `busyTimeout`.
    private func enableWAL(busyTimeout: TimeInterval) throws(RawCodingError) {
        let deadline = Date().addingTimeInterval(busyTimeout)
        while true {
            let code = sqlite3_exec(handle, "PRAGMA journal_mode = WAL", nil, nil, nil)
            if code == SQLITE_OK { return }
            guard code & 0xFF == SQLITE_BUSY, Date() < deadline else {
                throw failure("switching to WAL mode", code: code, key: nil)
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    static func failure(_ what: String, code: Int32, message: String, key: String?) -> RawCodingError {
        .storage("SQLite failed \(what): \(message) (code \(code))", in: SQLiteStore.self, key: key)
    }

    /// The error SQLite reports for the last call on this connection.
    func failure(_ what: String, code: Int32, key: String?) -> RawCodingError {
        Self.failure(what, code: code, message: String(cString: sqlite3_errmsg(handle)), key: key)
    }

    /// Runs `sql` (statements without parameters), stepping through any rows it returns.
    func execute(_ sql: String, key: String?) throws(RawCodingError) {
        try run(sql, key: key) { statement throws(RawCodingError) in
            while try statement.step() {}
        }
    }

    /// Runs `body` with the prepared statement for `sql` (made once per connection), then
    /// resets it: a statement left on a row would hold a read transaction open.
    func run<Result>(
        _ sql: String, key: String?, _ body: (Statement) throws(RawCodingError) -> Result
    ) throws(RawCodingError) -> Result {
        let handle: OpaquePointer
        if let cached = statements[sql] {
            handle = cached
        } else {
            var made: OpaquePointer?
            let code = sqlite3_prepare_v3(self.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &made, nil)
            guard code == SQLITE_OK, let made else { throw failure("preparing \(sql)", code: code, key: key) }
            statements[sql] = made
            handle = made
        }
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        return try body(Statement(connection: self, handle: handle, key: key))
    }

    /// How many rows the last statement changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` in a transaction that takes the write lock at once (`BEGIN IMMEDIATE`), so
    /// that no other connection writes between its read and its write; rolls back if it throws.
    func inWriteTransaction<Result>(
        key: String?, _ body: () throws(RawCodingError) -> Result
    ) throws(RawCodingError) -> Result {
        try execute("BEGIN IMMEDIATE", key: key)
        let result: Result
        do throws(RawCodingError) {
            result = try body()
            try execute("COMMIT", key: key)
        } catch {
            if sqlite3_get_autocommit(handle) == 0 {
                do throws(RawCodingError) {
                    try execute("ROLLBACK", key: key)
                } catch let rollback {
                    throw RawCodingError.storage(
                        "\(error.reason); rolling back failed too: \(rollback.reason)", in: SQLiteStore.self, key: key,
                        underlying: error)
                }
            }
            throw error
        }
        return result
    }

    /// A prepared statement being bound and stepped.
    struct Statement {
        let connection: SQLiteConnection
        let handle: OpaquePointer
        let key: String?

        func bind(_ text: String, at index: Int32) throws(RawCodingError) {
            var text = text
            let code = text.withUTF8 { bytes in
                // An empty buffer may have no address, which SQLite would bind as NULL.
                guard let base = bytes.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, transient) }
                return sqlite3_bind_text(
                    handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                    transient)
            }
            try check(code, binding: index)
        }

        func bind(_ value: Int64, at index: Int32) throws(RawCodingError) {
            try check(sqlite3_bind_int64(handle, index, value), binding: index)
        }

        /// Binds `data` as text when `asText`, so SQL's JSON functions read it, or as a blob.
        func bind(_ data: Data, asText: Bool, at index: Int32) throws(RawCodingError) {
            let code = data.withUnsafeBytes { bytes -> Int32 in
                // A zero-length buffer may have no address, which SQLite would bind as NULL.
                guard let base = bytes.baseAddress else {
                    return asText
                        ? sqlite3_bind_text(handle, index, "", 0, transient) : sqlite3_bind_zeroblob(handle, index, 0)
                }
                return asText
                    ? sqlite3_bind_text(
                        handle, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), transient)
                    : sqlite3_bind_blob(handle, index, base, Int32(bytes.count), transient)
            }
            try check(code, binding: index)
        }

        private func check(_ code: Int32, binding index: Int32) throws(RawCodingError) {
            guard code == SQLITE_OK else {
                throw connection.failure("binding parameter \(index)", code: code, key: key)
            }
        }

        /// Steps once: `true` when a row is ready, `false` when the statement is done.
        func step() throws(RawCodingError) -> Bool {
            switch sqlite3_step(handle) {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            case let code:
                let sql = sqlite3_sql(handle).map { String(cString: $0) } ?? "a statement"
                sqlite3_reset(handle)
                throw connection.failure("running \(sql)", code: code, key: key)
            }
        }

        /// The column's text (all of it: a key may hold a NUL character).
        func text(at column: Int32) -> String {
            guard let text = sqlite3_column_text(handle, column) else { return "" }
            let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column)))
            return String(decoding: bytes, as: UTF8.self)
        }

        func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

        /// The column's bytes, exactly as stored, whether text or blob.
        func data(at column: Int32) -> Data {
            guard let bytes = sqlite3_column_blob(handle, column) else { return Data() }
            return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, column)))
        }
    }
}
