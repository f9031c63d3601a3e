import Foundation

/// Keeps a ``KeyValueStore/observe(_:)`` registration alive; releasing it, or calling
/// ``cancel()``, ends it.
public final class StoreObservation: Sendable {
    private let onCancel: Locked<(@Sendable () -> Void)?>

    /// Creates an observation that calls `onCancel` once, when cancelled or released.
    /// - Parameter onCancel: Removes the registration.
    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Locked(onCancel)
    }

    /// Ends the observation: the handler is not called again once this returns.
    public func cancel() {
        let action = onCancel.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit { cancel() }
}
