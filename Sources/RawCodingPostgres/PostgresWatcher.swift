import Foundation
import RawCoding
import RawCodingStores

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the ``PostgresStore`` instances on one table of one server share in a process: the
/// observers, and the thread that listens for the table's notifications.
///
/// While someone observes, a thread of its own waits (`poll`) on a connection of its own that
/// `LISTEN`s on the table's channel, and reports each key another process or host wrote. Writes
/// through this process's instances are reported at once by the instance itself; their
/// notifications, which name the server process of the writing connection, are skipped. When
/// the listening connection is lost (a server restart), it is made again and observers are told
/// that any key may have changed: notifications sent meanwhile are lost, so they read again.
final class PostgresWatcher: Sendable {
    let broadcaster = StoreChangeBroadcaster()
    private let connection: String
    private let names: PostgresTableNames

    private struct State: WatcherState {
        var running = false
        /// The server processes of this process's store connections.
        var ownBackends: [Int32: Int] = [:]
    }

    private let state = Locked(State())

    private init(connection: String, names: PostgresTableNames) {
        self.connection = connection
        self.names = names
    }

    private static let registry = SharedInstances<PostgresWatcher>()

    /// The process's watcher for the table `names` on the server `connection` reaches.
    static func shared(connection: String, description: String, names: PostgresTableNames) -> PostgresWatcher {
        registry.object(for: description + "\u{0}" + names.table) {
            PostgresWatcher(connection: connection, names: names)
        }
    }

    func noteOwnBackend(_ pid: Int32) { state.withLock { $0.ownBackends[pid, default: 0] += 1 } }

    func forgetOwnBackend(_ pid: Int32) {
        state.withLock { state in
            guard let count = state.ownBackends[pid] else { return }
            state.ownBackends[pid] = count > 1 ? count - 1 : nil
        }
    }

    /// A store's connection was reset and is served by another server process.
    func replaceOwnBackend(_ old: Int32, with new: Int32) {
        forgetOwnBackend(old)
        noteOwnBackend(new)
    }

    /// Starts the listening thread if it is not running; it stops by itself once nobody
    /// observes. The channel is listened to before this returns, so a write made after it is
    /// reported.
    func startWatching() {
        let started: Listener? = state.startWatcher { _ in Listener(listening: listen()) }
        guard let started else { return }
        Thread.detachNewThread { [self] in
            var listener = started
            while wait(&listener) {}
        }
    }

    /// The listening thread's connection (`nil` while it is lost).
    private struct Listener: Sendable {
        var listening: PostgresConnection?
    }

    /// A connection that listens on the table's channel; `nil` when the server cannot be
    /// reached (reported; the thread tries again).
    private func listen() -> PostgresConnection? {
        do throws(RawCodingError) {
            let listening = try PostgresConnection(connection, setUp: [])
            _ = try listening.run("LISTEN " + StoreTable.quoted(names.channel), [], key: nil, retrying: false)
            return listening
        } catch {
            RawCodingDiagnostics.report(error, as: .readFailed)
            return nil
        }
    }

    /// Waits up to a fifth of a second for notifications and reports them; `false` once nobody
    /// observes, which ends the thread.
    private func wait(_ listener: inout Listener) -> Bool {
        guard state.watcherContinues(for: broadcaster) else { return false }
        guard let listening = listener.listening else {
            Thread.sleep(forTimeInterval: 0.2)
            listener.listening = listen()
            // Whatever was written while nobody listened is not known: observers read again.
            if listener.listening != nil { broadcaster.send(forKey: nil, from: nil) }
            return true
        }
        var descriptor = pollfd(fd: listening.socket, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 200) > 0 else { return true }
        guard listening.consumeInput() else {
            RawCodingDiagnostics.report(
                .storage(
                    "the connection listening for changes to \(names.table) was lost; making it again",
                    in: PostgresStore.self, key: nil), as: .readFailed)
            listener.listening = nil
            return true
        }
        let own = state.withLock { $0.ownBackends }
        while let payload = listening.nextNotification() {
            // `<pid>:k:<key>`, or `<pid>:*` for any key.
            guard let colon = payload.firstIndex(of: ":"), let pid = Int32(payload[..<colon]) else { continue }
            if own[pid] != nil { continue }
            let rest = payload[payload.index(after: colon)...]
            broadcaster.send(forKey: rest.hasPrefix("k:") ? String(rest.dropFirst(2)) : nil, from: nil)
        }
        return true
    }
}
