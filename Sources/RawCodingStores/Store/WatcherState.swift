/// The state of a store's watcher: whether its thread runs. A watcher's thread runs while
/// someone observes: the first observer starts it (``Locked/startWatcher(_:)``), and it ends
/// itself once its broadcaster has no observers (``Locked/watcherContinues(for:)``).
package protocol WatcherState {
    var running: Bool { get set }
}

extension Locked where State: WatcherState {
    /// Marks the watcher running and returns what `begin` makes under the lock (the thread's
    /// first look), or `nil` when its thread already runs.
    package func startWatcher<Started>(_ begin: (inout State) -> Started) -> Started? {
        withLock { state in
            guard !state.running else { return nil }
            state.running = true
            return begin(&state)
        }
    }

    /// Whether the watcher's thread goes on: `false`, and no longer running, once
    /// `broadcaster` has no observers. Checked under the state lock: an observer added after
    /// this check finds the watcher not running and starts a new thread, so an observer is
    /// never left without one.
    package func watcherContinues(for broadcaster: StoreChangeBroadcaster) -> Bool {
        withLock { state in
            if !broadcaster.hasObservers { state.running = false }
            return state.running
        }
    }
}
