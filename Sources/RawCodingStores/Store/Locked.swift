import Foundation

/// State behind an `NSLock`: `Mutex` needs macOS 15 / iOS 18, and this module runs on older
/// Apple systems too. Every access goes through ``withLock(_:)``, so lock and unlock are paired
/// in one place.
final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    init(_ state: State) { self.state = state }

    func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
