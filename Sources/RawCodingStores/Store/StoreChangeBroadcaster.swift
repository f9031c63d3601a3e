import Foundation

/// Delivers changes to the observers of every store instance on one backing storage: the
/// helper a store author uses to implement ``KeyValueStore/observe(_:)``.
///
/// Keep one broadcaster per backing storage (``shared(for:)`` finds it by a name such as a
/// suite or a directory path), have each store instance register its observers with its own
/// `instance` identifier, and call ``send(forKey:from:)`` after each write: each observer is told
/// whether the change came from its own instance, another one, or (`from: nil`) from outside.
public final class StoreChangeBroadcaster: Sendable {
    private struct Registration {
        var id: UInt64
        /// Identifies the registration among every broadcaster's.
        var token: Token
        var instance: ObjectIdentifier
        var handler: @Sendable (StoreChange) -> Void
        /// A ``StoredProperty``'s: told before any other observer, so that every property is
        /// current when other observers run and read it.
        var isPropertyCache: Bool
    }

    /// Set while a ``StoredProperty`` registers its handler with its store, which passes it
    /// on to ``add(for:_:)``.
    @TaskLocal static var registeringPropertyCache = false

    /// The observers (of any broadcaster, by the identity of their registration) whose handler
    /// is running in this task or thread: a write one makes is not reported back to it.
    @TaskLocal private static var runningHandlers: [ObjectIdentifier] = []

    /// In the order they were added.
    private let registrations = Locked<[Registration]>([])
    private let nextID = Locked<UInt64>(0)

    /// Creates a broadcaster with no observers.
    public init() {}

    /// Registers `handler` for the store instance `instance`.
    /// - Parameters:
    ///   - instance: The observing store instance, to tell its own writes from others'.
    ///   - handler: Receives each change.
    /// - Returns: The observation; the handler is removed when it ends.
    public func add(
        for instance: AnyObject, _ handler: @escaping @Sendable (StoreChange) -> Void
    ) -> StoreObservation {
        let id = nextID.withLock { next in
            next += 1
            return next
        }
        let registration = Registration(
            id: id, token: Token(), instance: ObjectIdentifier(instance), handler: handler,
            isPropertyCache: Self.registeringPropertyCache)
        registrations.withLock { $0.append(registration) }
        return StoreObservation { [weak self] in
            // Released after the lock: the handler may hold the last reference to something
            // (a property, a key) whose deinit ends an observation of its own here.
            let removed = self?.registrations.withLock { registrations -> Registration? in
                guard let index = registrations.firstIndex(where: { $0.id == id }) else { return nil }
                return registrations.remove(at: index)
            }
            _ = removed
        }
    }

    /// Whether any observer is registered (a store can stop watching for external changes
    /// when none is).
    public var hasObservers: Bool { registrations.withLock { !$0.isEmpty } }

    /// Tells every observer that `key` changed: the handlers of ``StoredProperty`` instances
    /// first, so that an observer reading a property reads the new value, then the others in
    /// the order they were added. A change made by a handler while it runs is not reported to
    /// that handler (it is to every other observer), so an observer may write, even the key
    /// it observes, without being called again by its own write.
    /// - Parameters:
    ///   - key: The key, or `nil` for any key.
    ///   - instance: The store instance that made the change, or `nil` for a change from
    ///     outside the process.
    public func send(forKey key: String?, from instance: AnyObject?) {
        // A fresh array, not a copy sharing the buffer that `add` appends to in place once this
        // copy is gone: ThreadSanitizer cannot see the reference count order the two.
        let current = registrations.withLock { $0.map { $0 } }
        let writer = instance.map(ObjectIdentifier.init)
        func tell(properties: Bool) {
            for registration in current where registration.isPropertyCache == properties {
                let origin: StoreChange.Origin
                switch writer {
                case nil: origin = .external
                case registration.instance?: origin = .thisInstance
                default: origin = .otherInstance
                }
                let change = StoreChange(key: key, origin: origin)
                if properties {
                    // A property's handler never writes.
                    registration.handler(change)
                } else {
                    let running = Self.runningHandlers
                    let token = ObjectIdentifier(registration.token)
                    guard !running.contains(token) else { continue }
                    Self.$runningHandlers.withValue(running + [token]) { registration.handler(change) }
                }
            }
        }
        // Properties first, then the other observers in the order they registered.
        tell(properties: true)
        tell(properties: false)
    }

    /// An object whose identity names one registration.
    private final class Token: Sendable {}

    private static let registry = SharedInstances<StoreChangeBroadcaster>()

    /// The process's broadcaster for the backing storage named `name`, shared by every store
    /// instance that asks with the same name while any of them holds it.
    /// - Parameter name: Names the storage, such as `"defaults:<suite>"` or `"file:<path>"`.
    /// - Returns: The broadcaster.
    public static func shared(for name: String) -> StoreChangeBroadcaster {
        registry.object(for: name) { StoreChangeBroadcaster() }
    }
}
