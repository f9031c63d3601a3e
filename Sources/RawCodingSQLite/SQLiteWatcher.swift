import Foundation
import RawCoding
import RawCodingStores

/// What the ``SQLiteStore`` instances on one table of one database share in a process: the
/// observers, and the watcher that notices other processes' commits.
///
/// While someone observes, a thread of its own polls `PRAGMA data_version` on a connection of
/// its own, which changes only when another connection commits. Then it reads every row's
/// change tag and reports the rows whose tag differs from the one it saw last (a new or removed
/// row too). Writes through this process's instances note their tags here first, so they are
/// not reported a second time as outside changes.
final class SQLiteWatcher: Sendable {
    /// A row: its key and the format of the codec that wrote it.
    struct Row: Hashable, Sendable {
        var key: String
        var format: String
    }

    let broadcaster = StoreChangeBroadcaster()
    private let path: String
    private let names: SQLiteTableNames
    private let busyTimeout: TimeInterval

    private struct State: WatcherState {
        var running = false
        var tags: [Row: Int64] = [:]
    }

    private let state = Locked(State())

    private init(path: String, names: SQLiteTableNames, busyTimeout: TimeInterval) {
        self.path = path
        self.names = names
        self.busyTimeout = busyTimeout
    }

    private static let registry = SharedInstances<SQLiteWatcher>()

    /// The process's watcher for the table `names` in the database at `path` (a resolved path).
    static func shared(path: String, names: SQLiteTableNames, busyTimeout: TimeInterval) -> SQLiteWatcher {
        registry.object(for: path + "\u{0}" + names.values) {
            SQLiteWatcher(path: path, names: names, busyTimeout: busyTimeout)
        }
    }

    /// Records a write this process made (`tag` nil for a removal).
    func noteOwnChange(_ row: Row, tag: Int64?) {
        state.withLock { state in
            guard state.running else { return }
            state.tags[row] = tag
        }
    }

    /// Starts the polling thread if it is not running; it stops by itself once nobody observes.
    /// The rows' tags are taken first, on the caller's thread: a commit made after this returns
    /// is reported.
    func startWatching() {
        let started: Look? = state.startWatcher { state in
            var look = Look()
            state.tags = changedTags(&look) ?? [:]
            return look
        }
        guard let started else { return }
        Thread.detachNewThread { [self] in
            var look = started
            while true {
                Thread.sleep(forTimeInterval: SQLiteStore.pollInterval)
                guard poll(&look) else { return }
            }
        }
    }

    /// The polling thread's own connection, and the data version it last saw.
    private struct Look: Sendable {
        var connection: SQLiteConnection?
        var dataVersion: Int64?
    }

    /// Every row's tag when another connection committed since the last look (or at the first
    /// look); `nil` when nothing was committed, or when the look failed (reported, since the
    /// observers cannot see this failure otherwise; the next look compares with the same tags,
    /// so nothing is lost).
    private func changedTags(_ look: inout Look) -> [Row: Int64]? {
        do throws(RawCodingError) {
            let connection: SQLiteConnection
            if let open = look.connection {
                connection = open
            } else {
                connection = try SQLiteConnection(path: path, busyTimeout: busyTimeout)
                look.connection = connection
            }
            let dataVersion = try connection.run("PRAGMA data_version", key: nil) {
                statement throws(RawCodingError) in try statement.step() ? statement.int64(at: 0) : nil
            }
            guard look.dataVersion == nil || dataVersion != look.dataVersion else { return nil }
            let tags = try connection.run(names.selectChanges, key: nil) { rows throws(RawCodingError) in
                var tags: [Row: Int64] = [:]
                while try rows.step() { tags[Row(key: rows.text(at: 0), format: rows.text(at: 1))] = rows.int64(at: 2) }
                return tags
            }
            look.dataVersion = dataVersion
            return tags
        } catch {
            RawCodingDiagnostics.report(error, as: .readFailed)
            look.connection = nil
            return nil
        }
    }

    /// One look at the database; `false` once nobody observes, which ends the thread.
    private func poll(_ look: inout Look) -> Bool {
        guard state.watcherContinues(for: broadcaster) else { return false }
        guard let current = changedTags(&look) else { return true }
        let changed: [String] = state.withLock { state in
            let rows = Set(current.keys).union(state.tags.keys)
            let changed = Set(rows.filter { current[$0] != state.tags[$0] }.map(\.key))
            state.tags = current
            return changed.sorted()
        }
        for key in changed { broadcaster.send(forKey: key, from: nil) }
        return true
    }
}
