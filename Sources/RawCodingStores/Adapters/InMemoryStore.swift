import Foundation
import RawCoding

/// A store in memory, for tests, previews and examples, optionally with another store's
/// quotas (``KeyValueStoreLimits/ubiquitousKeyValueStore``).
///
/// Instances made with ``init(sharingStorageWith:)`` share one storage, as two
/// `UserDefaults` objects share a suite: a write through one is read and observed through
/// the other. ``simulateExternalChange(_:forKey:)`` changes a value as a sync service or
/// another process would, so code that must react to such changes can be tested.
///
/// ```swift
/// let cloud = InMemoryStore(limits: .ubiquitousKeyValueStore)
/// try cloud.write("dark", forKey: "theme")
/// try cloud.simulateExternalChange("light", forKey: "theme")
/// ```
public final class InMemoryStore: KeyValueStore {
    final class Storage: Sendable {
        struct State {
            var values: [String: StoredValue] = [:]
            /// The payloads' sizes, kept only when the store has quotas to check.
            var sizes: [String: Int] = [:]
            var setAside: [SetAsidePayload] = []
            var nextSetAside = 0

            /// Keeps `size` as the size of `key`'s payload (`nil`: none, or no quotas); an
            /// unlimited store never hashes a key for it.
            mutating func setSize(_ size: Int?, forKey key: String) {
                guard size != nil || !sizes.isEmpty else { return }
                sizes[key] = size
            }
        }

        let state = Locked(State())
        let broadcaster = StoreChangeBroadcaster()
        let limits: KeyValueStoreLimits
        let codec: any Codec

        init(limits: KeyValueStoreLimits, codec: any Codec) {
            self.limits = limits
            self.codec = codec
        }
    }

    private let storage: Storage

    public var codec: any Codec { storage.codec }

    /// The quotas this store enforces.
    public var limits: KeyValueStoreLimits { storage.limits }

    /// Creates an empty store.
    /// - Parameters:
    ///   - limits: Quotas checked before each write; ``KeyValueStoreLimits/unlimited`` by default.
    ///   - codec: The tree representation values are encoded in; a binary property list by
    ///     default, as the tree stores this one stands in for keep.
    public init(limits: KeyValueStoreLimits = .unlimited, codec: any Codec = .propertyList(.binary)) {
        storage = Storage(limits: limits, codec: codec)
    }

    /// Creates another instance on the same storage as `other`.
    /// - Parameter other: The store whose storage to share.
    public init(sharingStorageWith other: InMemoryStore) {
        storage = other.storage
    }

    /// Runs `work` at once, on the calling task: an in-memory store never blocks for long.
    /// - Parameters:
    ///   - key: The key the work is about, for the error of a cancelled call.
    ///   - work: The work.
    /// - Returns: What `work` returns.
    /// - Throws: `RawCodingError`: what `work` throws, or of kind `.cancelled` when the task was
    ///   cancelled before it started.
    public func perform<Result: Sendable>(
        forKey key: String?, _ work: @escaping @Sendable () throws(RawCodingError) -> Result
    ) async throws(RawCodingError) -> Result {
        if Task.isCancelled { throw .cancelled(in: InMemoryStore.self, key: key) }
        return try work()
    }

    public func read(forKey key: String) throws(RawCodingError) -> StoredValue? {
        storage.state.withLock { $0.values[key] }
    }

    public func update<Result>(
        forKey key: String, _ body: (inout StoredValue?) throws(RawCodingError) -> Result
    ) throws(RawCodingError) -> Result {
        let (result, changed) = try storage.state.withLock { state throws(RawCodingError) in
            let old = state.values[key]
            var value = old
            let result = try body(&value)
            guard value != old else { return (result, false) }
            if let value {
                let size = try checked(value, key: key, sizes: state.sizes)
                state.values[key] = value
                state.setSize(size, forKey: key)
            } else {
                state.values[key] = nil
                state.setSize(nil, forKey: key)
            }
            return (result, true)
        }
        if changed { storage.broadcaster.send(forKey: key, from: self) }
        return result
    }

    /// Refuses what the store's limits or the tree's form do not allow; the value's size, or
    /// `nil` when the store has no quotas.
    private func checked(_ value: StoredValue, key: String, sizes: [String: Int]) throws(RawCodingError) -> Int? {
        if value.isNull { throw .nullAtTopLevel(in: InMemoryStore.self, key: key) }
        guard storage.limits != .unlimited else { return nil }
        let size: Int
        do throws(RawCodingError) {
            size = try KeyValueStoreLimits.size(of: value, forKey: key)
        } catch {
            throw error.at(key: key)
        }
        try storage.limits.check(writingBytes: size, forKey: key, into: sizes, store: InMemoryStore.self)
        return size
    }

    public func keys() throws(RawCodingError) -> [String] {
        storage.state.withLock { $0.values.keys.sorted() }
    }

    public func observe(_ handler: @escaping @Sendable (StoreChange) -> Void) -> StoreObservation {
        storage.broadcaster.add(for: self, handler)
    }

    /// Changes a value as a change from outside the process would (a sync service, another
    /// device): observers see ``StoreChange/Origin/external``. Quotas are not checked, as a
    /// server does not ask, but the value must be one a property list can hold.
    /// - Parameters:
    ///   - value: The new tree, or `nil` to remove the key.
    ///   - key: The key.
    /// - Throws: `RawCodingError` of kind `.encodingFailed` for a tree
    ///   with `null` in it; nothing changes.
    public func simulateExternalChange(_ value: StoredValue?, forKey key: String) throws(RawCodingError) {
        let size: Int?
        do throws(RawCodingError) {
            size = try value.map { value throws(RawCodingError) in try KeyValueStoreLimits.size(of: value, forKey: key)
            }
        } catch {
            throw error.at(key: key)
        }
        storage.state.withLock { state in
            state.values[key] = value
            state.setSize(storage.limits == .unlimited ? nil : size, forKey: key)
        }
        storage.broadcaster.send(forKey: key, from: nil)
    }

    public func setAside(forKey key: String) throws(RawCodingError) -> SetAsidePayload? {
        let payload: SetAsidePayload? = storage.state.withLock { state in Self.setAside(key, in: &state) }
        if payload != nil { storage.broadcaster.send(forKey: key, from: self) }
        return payload
    }

    /// Moves the value of `key` to the set-aside list; the caller holds the lock.
    private static func setAside(_ key: String, in state: inout Storage.State) -> SetAsidePayload? {
        guard let value = state.values.removeValue(forKey: key) else { return nil }
        state.setSize(nil, forKey: key)
        state.nextSetAside += 1
        let payload = SetAsidePayload(id: "\(key)#\(state.nextSetAside)", key: key, date: Date(), content: .tree(value))
        state.setAside.append(payload)
        return payload
    }

    public func replace(_ value: StoredValue?, forKey key: String, settingAside: Bool) throws(RawCodingError)
        -> SetAsidePayload?
    {
        let (payload, changed) = try storage.state.withLock {
            state throws(RawCodingError) -> (SetAsidePayload?, Bool) in
            // Checked first, so a refused value leaves the old payload where it is.
            var others = state.sizes
            if settingAside { others[key] = nil }
            let size = try value.flatMap { value throws(RawCodingError) in try checked(value, key: key, sizes: others) }
            let payload = settingAside ? Self.setAside(key, in: &state) : nil
            // One lookup of the key for both the comparison and the write.
            let old =
                if let value {
                    state.values.updateValue(value, forKey: key)
                } else {
                    state.values.removeValue(forKey: key)
                }
            let changed = payload != nil || old != value
            state.setSize(size, forKey: key)
            return (payload, changed)
        }
        if changed { storage.broadcaster.send(forKey: key, from: self) }
        return payload
    }

    public func setAsidePayloads() throws(RawCodingError) -> [SetAsidePayload] {
        storage.state.withLock { $0.setAside }
    }

    public func discardSetAside(_ id: String) throws(RawCodingError) {
        storage.state.withLock { $0.setAside.removeAll { $0.id == id } }
    }
}
