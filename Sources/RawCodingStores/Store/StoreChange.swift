/// One change to a store's backing storage, as ``KeyValueStore/observe(_:)`` reports it.
public struct StoreChange: Sendable, Hashable, CustomStringConvertible {
    /// Who made a change, seen from the observing store instance.
    public enum Origin: Sendable, Hashable {
        /// A write through the observing instance.
        case thisInstance
        /// A write through another instance on the same storage, in this process.
        case otherInstance
        /// A change from outside the process: another process, a sync service, a simulated
        /// external change.
        case external
    }

    /// The key that changed; `nil` when the store only knows that something changed, so
    /// observers should re-read every key they show.
    public var key: String?
    /// Who made the change.
    public var origin: Origin

    /// Creates a change.
    /// - Parameters:
    ///   - key: The key that changed, or `nil` for any key.
    ///   - origin: Who made the change.
    public init(key: String?, origin: Origin) {
        self.key = key
        self.origin = origin
    }

    /// Whether an observer of `key` should re-read it.
    /// - Parameter key: The key the observer shows.
    /// - Returns: `true` if this change is about `key` or about every key.
    public func affects(_ key: String) -> Bool { self.key == nil || self.key == key }

    public var description: String { "\(key.map { "\"\($0)\"" } ?? "any key") (\(origin))" }

    /// The changes an external-change notification reports, such as the iCloud key-value
    /// store's `NSUbiquitousKeyValueStoreChangedKeysKey` list: one per key, or one for any key
    /// when the list is missing (an account change, an initial sync).
    /// - Parameter changedKeys: The keys the notification names, if it names any.
    /// - Returns: The changes, each of origin ``Origin/external``.
    public static func externalChanges(changedKeys: [String]?) -> [StoreChange] {
        guard let changedKeys else { return [StoreChange(key: nil, origin: .external)] }
        return changedKeys.sorted().map { StoreChange(key: $0, origin: .external) }
    }
}
