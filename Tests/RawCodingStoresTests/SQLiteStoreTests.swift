import Foundation
import RawCoding
import RawCodingSQLite
import RawCodingStores
import Testing

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// What `SQLiteStore` promises beyond the store contract: rows SQL can read, errors that name
/// SQLite's reason and the key, locks released after a failure.
@Suite("SQLiteStore")
struct SQLiteStoreTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.url.appendingPathComponent("store.sqlite").path
    }

    /// The rows of `sql` run directly through SQLite, each column as text.
    func rows(_ sql: String) throws -> [[String]] {
        var database: OpaquePointer?
        defer { sqlite3_close_v2(database) }
        try #require(sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK)
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        try #require(
            sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK,
            "\(String(cString: sqlite3_errmsg(database)))")
        var rows: [[String]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append(
                (0..<sqlite3_column_count(statement)).map { column in
                    sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "NULL"
                })
        }
        return rows
    }

    @Test func jsonRowsAreTextThatSQLReads() throws {
        let store = try SQLiteStore(path: path, table: "settings")
        try store.write(["theme": "dark", "size": 14], forKey: "display")
        #expect(
            try rows(#"SELECT json_extract("value", '$.theme'), typeof("value"), "format" FROM settings"#)
                == [["dark", "text", "json"]])
        // Canonical JSON: keys sorted, no whitespace.
        #expect(
            try rows(#"SELECT "value" FROM settings WHERE "key" = 'display'"#) == [[#"{"size":14,"theme":"dark"}"#]])
    }

    @Test func propertyListRowsAreBlobs() throws {
        let store = try SQLiteStore(path: path, codec: .propertyList(.binary))
        try store.write(["data": .data(Data([0, 1, 2]))], forKey: "blob")
        #expect(try rows(#"SELECT typeof("value"), "format" FROM raw_coding_values"#) == [["blob", "binary.plist"]])
        #expect(try store.read(forKey: "blob") == ["data": .data(Data([0, 1, 2]))])
    }

    @Test func aFailedUpdateReleasesTheWriteLock() throws {
        try expectAFailedUpdateEndsItsTransaction(
            try SQLiteStore(path: path, busyTimeout: 0.2), try SQLiteStore(path: path, busyTimeout: 0.2))
    }

    @Test func aLockHeldTooLongIsAStorageErrorNamingTheKey() throws {
        let store = try SQLiteStore(path: path, busyTimeout: 0.1)
        let other = try SQLiteStore(path: path, busyTimeout: 0.1)
        let error = try #require(throws: RawCodingError.self) {
            try store.update(forKey: "count") { (_: inout StoredValue?) throws(RawCodingError) in
                // Inside the update the store holds the write lock; the other connection waits, then fails.
                try other.write(1, forKey: "count")
            }
        }
        #expect(error.kind == .storageFailed)
        #expect(error.codingPath.map(\.stringValue) == ["count"])
        #expect(error.reason.contains("database is locked"), "\(error.reason)")
        #expect(try store.read(forKey: "count") == nil)
    }

    @Test func aDatabaseThatCannotOpenIsAStorageError() throws {
        let missing = directory.url.appendingPathComponent("no such folder/store.sqlite").path
        let error = try #require(throws: RawCodingError.self) { try SQLiteStore(path: missing) }
        #expect(error.kind == .storageFailed)
        #expect(error.reason.contains(missing) && error.reason.contains("No such file or directory"), "\(error.reason)")
        let notADatabase = directory.url.appendingPathComponent("text.sqlite")
        try Data("not a database, but long enough to have a header of sorts".utf8).write(to: notADatabase)
        let refused = try #require(throws: RawCodingError.self) { try SQLiteStore(path: notADatabase.path) }
        #expect(refused.kind == .storageFailed)
        #expect(refused.reason.contains("not a database"), "\(refused.reason)")
    }

    @Test func aPayloadThatDoesNotReadNamesItsKeyAndStaysAsItIs() throws {
        let store = try SQLiteStore(path: path, table: "settings")
        try store.write(["theme": "dark"], forKey: "display")
        var database: OpaquePointer?
        try #require(sqlite3_open(path, &database) == SQLITE_OK)
        #expect(sqlite3_exec(database, #"UPDATE settings SET "value" = '{"theme": ' "#, nil, nil, nil) == SQLITE_OK)
        sqlite3_close_v2(database)
        let error = try #require(throws: RawCodingError.self) { try store.read(forKey: "display") }
        #expect(error.kind == .decodingFailed)
        #expect(error.codingPath.first?.stringValue == "display")
        let payload = try #require(try store.setAside(forKey: "display"))
        #expect(payload.content == .bytes(Data(#"{"theme": "#.utf8)))
        #expect(try rows(#"SELECT "key", "value" FROM settings_set_aside"#) == [["display", #"{"theme": "#]])
    }

    @Test func tableNamesAreQuoted() throws {
        let store = try SQLiteStore(path: path, table: #"odd "name"; DROP TABLE x"#)
        try store.write(1, forKey: "one")
        #expect(try SQLiteStore(path: path, table: #"odd "name"; DROP TABLE x"#).read(forKey: "one") == 1)
        #expect(try SQLiteStore(path: path, table: "other").keys().isEmpty)
        #expect(throws: RawCodingError.self) { try SQLiteStore(path: path, table: "") }
    }
}
