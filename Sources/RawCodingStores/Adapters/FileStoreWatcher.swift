import Foundation

/// What the ``FileStore`` instances on one directory share in a process: the observers, and
/// the watcher that notices other processes' changes by polling each file's signature.
final class FileStoreWatcher: Sendable {
    let broadcaster = StoreChangeBroadcaster()
    private let directory: String

    private struct State: WatcherState {
        var running = false
        var snapshot: [String: POSIXFiles.Signature] = [:]
    }

    private let state = Locked(State())

    private init(directory: String) { self.directory = directory }

    private static let registry = SharedInstances<FileStoreWatcher>()

    /// The process's watcher for `directory` (a resolved path).
    static func shared(for directory: String) -> FileStoreWatcher {
        registry.object(for: directory) { FileStoreWatcher(directory: directory) }
    }

    /// Records a change this process made, so the watcher does not report it again as an
    /// outside one.
    func noteOwnChange(_ path: String) {
        let name = String(path.split(separator: "/").last ?? "")
        let signature = POSIXFiles.signature(path)
        state.withLock { state in
            guard state.running else { return }
            state.snapshot[name] = signature
        }
    }

    /// Starts the polling thread if it is not running; it stops by itself once nobody observes.
    func startWatching() {
        let started: Void? = state.startWatcher { state in state.snapshot = takeSnapshot() ?? [:] }
        guard started != nil else { return }
        Thread.detachNewThread { [weak self] in
            while true {
                Thread.sleep(forTimeInterval: FileStore.pollInterval)
                guard let self, self.poll() else { return }
            }
        }
    }

    /// One look at the directory; `false` once nobody observes, which ends the thread.
    private func poll() -> Bool {
        guard state.watcherContinues(for: broadcaster) else { return false }
        guard let current = takeSnapshot() else { return true }
        let changed: [String] = state.withLock { state in
            let names = Set(current.keys).union(state.snapshot.keys)
            let changed = names.filter { current[$0] != state.snapshot[$0] }
            state.snapshot = current
            return changed.sorted()
        }
        for name in changed {
            broadcaster.send(forKey: FileStoreNames.key(forAnyStoreFile: name), from: nil)
        }
        return true
    }

    /// Signatures of the store's files (names not starting with `.`); `nil` when the directory
    /// cannot be listed, and this look is skipped (the observers' next read reports why). A
    /// file that cannot be inspected counts as absent: at worst one change too many is reported.
    private func takeSnapshot() -> [String: POSIXFiles.Signature]? {
        let names: [String]
        do {
            names = try POSIXFiles.names(in: directory, key: nil)
        } catch {
            return nil
        }
        var snapshot: [String: POSIXFiles.Signature] = [:]
        for name in names where !name.hasPrefix(".") {
            snapshot[name] = POSIXFiles.signature(directory + "/" + name)
        }
        return snapshot
    }
}
