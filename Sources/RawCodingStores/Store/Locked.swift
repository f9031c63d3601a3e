import Foundation

/// State behind an `NSLock`: `Mutex` needs macOS 15 / iOS 18, and this module runs on older
/// Apple systems too. Every access goes through ``withLock(_:)``, so lock and unlock are paired
/// in one place.
package final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    package init(_ state: State) { self.state = state }

    package func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

/// A lock with no state of its own, for work that must not overlap (a store's writes). Not
/// `Locked<()>`: an exclusive access to an empty state has no storage of its own, and the
/// thread sanitizer took the accesses at that address for races. `Lock()` is an `NSLock`;
/// `Lock(NSRecursiveLock())` may be taken again by the thread holding it (a ``StoredProperty``'s
/// writes, which an observer of one of them may make from inside it). Generic, not an
/// existential, so that taking it costs a direct call.
final class Lock<Underlying: NSLocking>: @unchecked Sendable {
    private let lock: Underlying

    init(_ lock: Underlying) { self.lock = lock }

    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

extension Lock where Underlying == NSLock {
    convenience init() { self.init(NSLock()) }
}
