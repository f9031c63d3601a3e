import CLibPQ
import Foundation
import RawCoding
import RawCodingStores

/// A parameter of a statement, sent in binary form.
enum PostgresParameter {
    case text(String)
    case json(Data)
    case bytes(Data)
    case integer(Int64)

    /// The type's object identifier, as `pg_type` numbers it.
    var type: Oid {
        switch self {
        case .text: 25
        case .json: 114
        case .bytes: 17
        case .integer: 20
        }
    }

    /// The binary form (text and JSON are their UTF-8 bytes; an integer is big-endian).
    var bytes: Data {
        switch self {
        case .text(let text): Data(text.utf8)
        case .json(let data), .bytes(let data): data
        case .integer(let value): withUnsafeBytes(of: value.bigEndian) { Data($0) }
        }
    }
}

/// The rows of a statement, each column's bytes in binary form (`nil` for NULL).
struct PostgresRows {
    var rows: [[Data?]]
    /// How many rows the statement changed (for INSERT, UPDATE, DELETE).
    var changed: Int

    func text(_ row: Int, _ column: Int) -> String {
        rows[row][column].map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    func integer(_ row: Int, _ column: Int) -> Int64 {
        guard let data = rows[row][column], data.count == 8 else { return 0 }
        return data.reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }
}

/// One libpq connection and its prepared statements. Not thread-safe: its owner uses it under
/// one lock. When the server goes away (a restart), the next statement that fails on the lost
/// connection resets it; statements that cannot apply twice are not run again (see
/// ``run(_:_:key:retrying:)``).
final class PostgresConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    private var prepared: [String: String] = [:]
    private let setUp: [String]
    /// Where the connection goes, without its password: for messages.
    let description: String

    /// Connects with the libpq connection string `connection`; `setUp` runs on the connection
    /// after it opens and after each reset (session settings).
    init(_ connection: String, setUp: [String]) throws(RawCodingError) {
        description = Self.describe(connection)
        guard let handle = PQconnectdb(connection) else {
            throw .storage("libpq could not allocate a connection to \(description)", in: PostgresStore.self, key: nil)
        }
        self.handle = handle
        self.setUp = setUp
        guard PQstatus(handle) == CONNECTION_OK else {
            throw .storage(
                "could not connect to PostgreSQL (\(description)): \(message(PQerrorMessage(handle)))",
                in: PostgresStore.self, key: nil)
        }
        try configure()
    }

    deinit { PQfinish(handle) }

    /// The server process serving this connection (a notification's sender says which it is).
    var backendPID: Int32 { PQbackendPID(handle) }

    /// The connection string's settings except the password, as `key=value` pairs.
    static func describe(_ connection: String) -> String {
        var failure: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(connection, &failure) else {
            if let failure { PQfreemem(failure) }
            return "a connection string libpq does not parse"
        }
        defer { PQconninfoFree(options) }
        var pairs: [String] = []
        var option = options
        while let keyword = option.pointee.keyword {
            let name = String(cString: keyword)
            if let value = option.pointee.val, name != "password" {
                pairs.append("\(name)=\(String(cString: value))")
            }
            option += 1
        }
        return pairs.joined(separator: " ")
    }

    private func configure() throws(RawCodingError) {
        prepared = [:]
        for statement in setUp { _ = try execute(statement, [], key: nil) }
    }

    /// Runs `sql` with `parameters`, prepared once per session. When it fails because the
    /// connection was lost, the connection is reset and, if `retrying`, the statement runs once
    /// more: only for statements that may apply twice (an upsert of the same value, a delete,
    /// a read, `BEGIN`).
    func run(
        _ sql: String, _ parameters: [PostgresParameter], key: String?, retrying: Bool = true
    ) throws(RawCodingError) -> PostgresRows {
        do throws(RawCodingError) {
            return try execute(sql, parameters, key: key)
        } catch {
            guard PQstatus(handle) == CONNECTION_BAD || error.reason.contains("terminating connection") else {
                throw error
            }
            PQreset(handle)
            guard PQstatus(handle) == CONNECTION_OK else {
                throw .storage(
                    "the connection to PostgreSQL (\(description)) was lost and could not be made again: "
                        + message(PQerrorMessage(handle)), in: PostgresStore.self, key: key, underlying: error)
            }
            try configure()
            guard retrying else { throw error }
            return try execute(sql, parameters, key: key)
        }
    }

    /// Runs `sql` once. For the `async` call of a cancelled task it does not start (but for a
    /// `ROLLBACK`, which must run), and while it runs a cancellation cancels it on the server:
    /// either way the call throws `.cancelled`, and the caller's transaction rolls back.
    private func execute(_ sql: String, _ parameters: [PostgresParameter], key: String?) throws(RawCodingError)
        -> PostgresRows
    {
        guard let job = StoreJob.current, sql != "ROLLBACK", let cancel = PQgetCancel(handle) else {
            return try executeNow(sql, parameters, key: key)
        }
        let request = CancelRequest(cancel)
        defer { PQfreeCancel(cancel) }
        do throws(RawCodingError) {
            if job.isCancelled { throw job.cancellation }
            return try job.whileRunning(interrupt: request.send) { () throws(RawCodingError) in
                try executeNow(sql, parameters, key: key)
            }
        } catch {
            guard job.isCancelled, error.kind != .cancelled, error.reason.contains("(SQLSTATE 57014)") else {
                throw error
            }
            throw job.cancellation
        }
    }

    /// A request to the server to cancel the statement this connection runs (libpq's
    /// `PQcancel`, which may be sent from any thread).
    private struct CancelRequest: @unchecked Sendable {
        let cancel: OpaquePointer

        init(_ cancel: OpaquePointer) { self.cancel = cancel }

        func send() {
            var buffer = [CChar](repeating: 0, count: 256)
            guard PQcancel(cancel, &buffer, Int32(buffer.count)) == 0 else { return }
            // The statement then runs on, to its end or its `statement_timeout`.
            RawCodingDiagnostics.report(
                .storage(
                    "could not ask PostgreSQL to cancel the statement of a cancelled task: "
                        + String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                    in: PostgresStore.self, key: nil), as: .writeFailed)
        }
    }

    /// Runs `sql` once: prepared by name if it has parameters, as a simple query otherwise.
    private func executeNow(_ sql: String, _ parameters: [PostgresParameter], key: String?) throws(RawCodingError)
        -> PostgresRows
    {
        let result: OpaquePointer?
        if parameters.isEmpty {
            result = PQexecParams(handle, sql, 0, nil, nil, nil, nil, 1)
        } else {
            let name = try statementName(sql, parameters, key: key)
            let values = parameters.map(\.bytes)
            result = Self.withPointers(values) { pointers, lengths in
                let formats = [Int32](repeating: 1, count: values.count)
                return PQexecPrepared(handle, name, Int32(values.count), pointers, lengths, formats, 1)
            }
        }
        return try rows(of: result, sql: sql, key: key)
    }

    private func statementName(_ sql: String, _ parameters: [PostgresParameter], key: String?) throws(RawCodingError)
        -> String
    {
        if let name = prepared[sql] { return name }
        let name = "raw_coding_\(prepared.count)"
        let types = parameters.map(\.type)
        let result = PQprepare(handle, name, sql, Int32(types.count), types)
        _ = try rows(of: result, sql: sql, key: key)
        prepared[sql] = name
        return name
    }

    /// Calls `body` with C pointers to each of `values` and their lengths.
    private static func withPointers<Result>(
        _ values: [Data], _ body: ([UnsafePointer<CChar>?], [Int32]) -> Result
    ) -> Result {
        var pointers: [UnsafePointer<CChar>?] = []
        var buffers: [UnsafeMutableRawBufferPointer] = []
        defer { for buffer in buffers { buffer.deallocate() } }
        for value in values {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(value.count, 1), alignment: 1)
            buffer.copyBytes(from: value)
            buffers.append(buffer)
            pointers.append(UnsafePointer(buffer.baseAddress?.assumingMemoryBound(to: CChar.self)))
        }
        return body(pointers, values.map { Int32($0.count) })
    }

    /// The rows of `result` (which it frees), or the server's error.
    private func rows(of result: OpaquePointer?, sql: String, key: String?) throws(RawCodingError) -> PostgresRows {
        guard let result else {
            throw .storage(
                "PostgreSQL (\(description)) did not answer: \(message(PQerrorMessage(handle)))",
                in: PostgresStore.self,
                key: key)
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            var rows: [[Data?]] = []
            for row in 0..<PQntuples(result) {
                rows.append(
                    (0..<PQnfields(result)).map { column in
                        guard PQgetisnull(result, row, column) == 0, let value = PQgetvalue(result, row, column) else {
                            return nil
                        }
                        return Data(bytes: value, count: Int(PQgetlength(result, row, column)))
                    })
            }
            let changed = Int(String(cString: PQcmdTuples(result))) ?? 0
            return PostgresRows(rows: rows, changed: changed)
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? "?"
            let firstWords = sql.split(separator: " ").prefix(3).joined(separator: " ")
            throw .storage(
                "PostgreSQL failed running \(firstWords) …: \(message(PQresultErrorMessage(result))) (SQLSTATE \(state))",
                in: PostgresStore.self, key: key)
        }
    }

    /// Runs `body` in a transaction; rolls back if it throws. `BEGIN` runs again after a reset;
    /// nothing after it does.
    func inTransaction<Result>(
        key: String?, _ body: () throws(RawCodingError) -> Result
    ) throws(RawCodingError) -> Result {
        _ = try run("BEGIN", [], key: key)
        do throws(RawCodingError) {
            let result = try body()
            _ = try run("COMMIT", [], key: key, retrying: false)
            return result
        } catch {
            // A lost connection has no transaction left: the server rolled it back.
            guard PQstatus(handle) == CONNECTION_OK, PQtransactionStatus(handle) != PQTRANS_IDLE else { throw error }
            do throws(RawCodingError) {
                _ = try run("ROLLBACK", [], key: key, retrying: false)
            } catch let rollback {
                throw RawCodingError.storage(
                    "\(error.reason); rolling back failed too: \(rollback.reason)", in: PostgresStore.self, key: key,
                    underlying: error)
            }
            throw error
        }
    }

    /// Takes in the notifications that arrived (for a listening connection); `false` when the
    /// connection is lost.
    func consumeInput() -> Bool { PQconsumeInput(handle) == 1 && PQstatus(handle) == CONNECTION_OK }

    /// The next notification that arrived: the channel's payload.
    func nextNotification() -> String? {
        guard let notification = PQnotifies(handle) else { return nil }
        defer { PQfreemem(notification) }
        return String(cString: notification.pointee.extra)
    }

    /// The connection's socket, to wait on for notifications.
    var socket: Int32 { PQsocket(handle) }
}

/// libpq's message on one line (its hints follow on indented lines).
private func message(_ text: UnsafePointer<CChar>?) -> String {
    guard let text else { return "no message" }
    return String(cString: text).split(whereSeparator: \.isNewline)
        .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
}
