import Foundation
import RawCoding

/// The open streams of a ``StoredProperty``'s ``StoredProperty/values()``, each with the tree it
/// was last given, so a delivery skips the streams that already have the current value.
///
/// Its lock is taken alone, never while another lock of the property is held, and never
/// while a continuation runs.
final class ValueStreams<Value: Sendable>: Sendable {
    private struct Stream {
        var continuation: AsyncStream<Value>.Continuation
        var lastDelivered: StoredValue?
    }

    private struct State {
        var streams: [UInt64: Stream] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())

    /// Whether any stream is open.
    var isEmpty: Bool { state.withLock { $0.streams.isEmpty } }

    /// Registers `continuation`, which has been given `tree`'s value, and removes it when its
    /// stream ends; until then the stream keeps `owner` (the property that delivers to it)
    /// alive.
    func add(
        _ continuation: AsyncStream<Value>.Continuation, given tree: StoredValue?, keepingAlive owner: some Sendable
    ) {
        let id = state.withLock { state in
            state.nextID += 1
            state.streams[state.nextID] = Stream(continuation: continuation, lastDelivered: tree)
            return state.nextID
        }
        continuation.onTermination = { [self] _ in
            withExtendedLifetime(owner) {
                state.withLock { _ = $0.streams.removeValue(forKey: id) }
            }
        }
    }

    /// The continuations that have not been given `tree`'s value, marked as given it.
    func due(for tree: StoredValue?) -> [AsyncStream<Value>.Continuation] {
        state.withLock { state in
            var due: [AsyncStream<Value>.Continuation] = []
            for (id, stream) in state.streams where stream.lastDelivered != tree {
                state.streams[id]?.lastDelivered = tree
                due.append(stream.continuation)
            }
            return due
        }
    }
}

/// Which ``StoredProperty`` is writing on this thread or task, so that the change its own
/// write causes, reported back synchronously by the store, is not taken for another writer's.
enum StoredPropertyWriter {
    @TaskLocal static var current: ObjectIdentifier?
}
