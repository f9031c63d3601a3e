import Foundation
import RawCoding

/// A database store's connections: up to `size`, opened when every open one is busy, each used
/// by one call at a time. A call that finds all `size` busy waits for one to come back; the
/// store's statement or busy timeout bounds how long a connection stays out, so it bounds the
/// wait too.
package final class ConnectionPool<Connection: AnyObject>: @unchecked Sendable {
    /// The most connections open at once.
    package let size: Int
    private let condition = NSCondition()
    private var idle: [Connection]
    private var opened: Int
    private let open: () throws(RawCodingError) -> Connection
    private let closing: (Connection) -> Void

    /// - Parameters:
    ///   - first: A connection already open, if there is one.
    ///   - size: The most connections open at once (at least 1).
    ///   - open: Opens another connection.
    ///   - closing: Called with each connection when the pool goes away.
    package init(
        first: Connection?, size: Int, open: @escaping () throws(RawCodingError) -> Connection,
        closing: @escaping (Connection) -> Void = { _ in }
    ) {
        self.size = max(1, size)
        idle = first.map { [$0] } ?? []
        opened = idle.count
        self.open = open
        self.closing = closing
    }

    deinit {
        for connection in idle { closing(connection) }
    }

    /// Runs `body` with a connection no other call uses meanwhile, waiting for one if all are busy.
    package func withConnection<Result>(_ body: (Connection) throws(RawCodingError) -> Result)
        throws(RawCodingError) -> Result
    {
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    private func checkOut() throws(RawCodingError) -> Connection {
        condition.lock()
        while true {
            if let connection = idle.popLast() {
                condition.unlock()
                return connection
            }
            if opened < size {
                opened += 1
                condition.unlock()
                do throws(RawCodingError) {
                    return try open()
                } catch {
                    condition.lock()
                    opened -= 1
                    condition.signal()
                    condition.unlock()
                    throw error
                }
            }
            condition.wait()
        }
    }

    private func checkIn(_ connection: Connection) {
        condition.lock()
        idle.append(connection)
        condition.signal()
        condition.unlock()
    }
}
