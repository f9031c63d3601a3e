import Foundation
import RawCoding
import RawCodingStores

#if canImport(RawCodingPostgres)
    import CLibPQ
    import RawCodingPostgres
#endif

/// A database's own write and read of one key, without a store: what a store's cost is
/// measured against.
protocol DirectStatements {
    func write(_ payload: Data, forKey key: String)
    func read(forKey key: String) -> Data
}

extension DirectSQLite: DirectStatements {}

/// Why the PostgreSQL rows are not in a run, when they are not.
var postgresAbsence: String {
    #if canImport(RawCodingPostgres)
        "set RAWCODING_POSTGRES to a libpq connection string to add them"
    #else
        "RawCodingPostgres is not built for this platform"
    #endif
}

/// A `PostgresStore` on a table of its own and the same statements issued through libpq, where
/// `RAWCODING_POSTGRES` names a server (as `.ci/run` and the tests take it).
func benchmarkPostgres() throws -> (store: any KeyValueStore, direct: any DirectStatements)? {
    #if canImport(RawCodingPostgres)
        guard let connection = ProcessInfo.processInfo.environment["RAWCODING_POSTGRES"] else { return nil }
        let table = "benchmark_\(ProcessInfo.processInfo.processIdentifier)"
        let store = try PostgresStore(connection: connection, table: table)
        return (store, DirectPostgres(connection, table: table))
    #else
        return nil
    #endif
}

#if canImport(RawCodingPostgres)
    /// The same upsert and select `PostgresStore` prepares (binary parameters and results), issued
    /// directly through libpq on a connection of its own.
    final class DirectPostgres: DirectStatements, @unchecked Sendable {
        private let connection: OpaquePointer
        private let format = "json"
        private let table: String
        private let dropsTables: Bool

        /// - Parameter dropsTables: Whether the tables go when this goes (one of several
        ///   connections on a table leaves them to the first).
        init(_ connection: String, table: String, dropsTables: Bool = true) {
            guard let opened = PQconnectdb(connection), PQstatus(opened) == CONNECTION_OK else {
                fail("cannot connect to PostgreSQL for the direct statements")
            }
            self.connection = opened
            self.table = table
            self.dropsTables = dropsTables
            let values = "\"\(table)\""
            prepare(
                "upsert",
                #"INSERT INTO \#(values) ("key", "format", "value") VALUES ($1, $2, $3) "#
                    + #"ON CONFLICT ("key", "format") DO UPDATE SET "value" = excluded."value", "data" = NULL"#,
                types: [25, 25, 114])
            prepare(
                "select", #"SELECT "value", "data" FROM \#(values) WHERE "key" = $1 AND "format" = $2"#,
                types: [25, 25])
        }

        /// Drops the benchmark's tables (their trigger goes with them; its small function stays).
        deinit {
            for table in [table, table + "_set_aside"] where dropsTables {
                let result = PQexec(connection, "DROP TABLE IF EXISTS \"\(table)\"")
                if PQresultStatus(result) != PGRES_COMMAND_OK {
                    print(
                        "PostgreSQL: the benchmark table \(table) was not dropped: \(String(cString: PQerrorMessage(connection)))"
                    )
                }
                PQclear(result)
            }
            PQfinish(connection)
        }

        private func prepare(_ name: String, _ sql: String, types: [Oid]) {
            let result = PQprepare(connection, name, sql, Int32(types.count), types)
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_COMMAND_OK else {
                fail("cannot prepare \(name): \(String(cString: PQerrorMessage(connection)))")
            }
        }

        /// Runs the prepared statement `name` with `values` as binary parameters.
        private func run(_ name: String, _ values: [Data], _ body: (OpaquePointer) -> Void) {
            let copies = values.map { [UInt8]($0) }
            let lengths = copies.map { Int32($0.count) }
            let formats = [Int32](repeating: 1, count: copies.count)
            var pointers: [UnsafeMutablePointer<CChar>?] = copies.map { bytes in
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
                buffer.copyBytes(from: bytes)
                return buffer.baseAddress?.assumingMemoryBound(to: CChar.self)
            }
            defer { for pointer in pointers { pointer?.deallocate() } }
            let result = pointers.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { constant in
                    PQexecPrepared(connection, name, Int32(copies.count), constant.baseAddress, lengths, formats, 1)
                }
            }
            guard let result else { fail("no result from \(name)") }
            defer { PQclear(result) }
            let status = PQresultStatus(result)
            guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
                fail("\(name): \(String(cString: PQresultErrorMessage(result)))")
            }
            body(result)
        }

        func write(_ payload: Data, forKey key: String) {
            run("upsert", [Data(key.utf8), Data(format.utf8), payload]) { _ in }
        }

        func read(forKey key: String) -> Data {
            var data = Data()
            run("select", [Data(key.utf8), Data(format.utf8)]) { result in
                guard PQntuples(result) == 1, let value = PQgetvalue(result, 0, 0) else {
                    fail("select: no row for \(key)")
                }
                data = Data(bytes: value, count: Int(PQgetlength(result, 0, 0)))
            }
            return data
        }
    }
#endif
