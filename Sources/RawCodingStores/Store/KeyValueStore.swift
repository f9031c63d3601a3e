import Foundation
import RawCoding

/// A store of `StoredValue` trees by key: the contract every store of this package meets,
/// and that another store (a database column, a network service) adopts to get ``Stored``,
/// change streams and the decode-failure policy for free.
///
/// A tree store (`UserDefaults`, the iCloud key-value store) keeps the tree as native
/// property-list objects; a byte store (``FileStore``) writes it with ``codec``. Everything
/// that makes stored data safe (default filling, migrations, unknown keys kept on write-back,
/// setting aside a payload that no longer decodes) happens above the store, once.
///
/// ```swift
/// let store = try FileStore(directory: appSupport.appendingPathComponent("Settings"))
/// try store.write(["volume": 0.5], forKey: "audio")
/// let count = try store.update(Int.self, forKey: "launches", defaultValue: 0) { $0 += 1; return $0 }
/// ```
///
/// Every method may be called from any thread. ``KeyValueStoreContract`` checks an adopter.
public protocol KeyValueStore: AnyObject, Sendable {
    /// The codec whose tree representation this store keeps, and that values stored in it
    /// are encoded with unless a caller chooses another: a property-list codec for tree
    /// stores (dates and bytes stay dates and bytes), the file format for ``FileStore``.
    var codec: any Codec { get }

    /// The tree stored under `key`, or `nil` if there is none.
    /// - Parameter key: The key.
    /// - Returns: The tree, or `nil`.
    /// - Throws: `RawCodingError`: of kind `.decodingFailed` or
    ///   `.limitExceeded` when the stored payload cannot be read (it is
    ///   left as it is; see ``setAside(forKey:)``), `.storageFailed` when the
    ///   storage itself fails.
    func read(forKey key: String) throws(RawCodingError) -> StoredValue?

    /// Stores `value` under `key`, replacing what was there, and notifies observers.
    /// - Parameters:
    ///   - value: The tree; `StoredValue.null` is refused (use ``remove(forKey:)``).
    ///   - key: The key.
    /// - Throws: `RawCodingError`: `.encodingFailed` or
    ///   `.limitExceeded` for a value the store cannot hold, or
    ///   `.storageFailed`. Nothing was written.
    func write(_ value: StoredValue, forKey key: String) throws(RawCodingError)

    /// Removes the value under `key`, if any, and notifies observers if there was one.
    /// - Parameter key: The key.
    /// - Throws: `RawCodingError` of kind `.storageFailed`.
    func remove(forKey key: String) throws(RawCodingError)

    /// Reads, changes and writes the value under `key` as one step: no other write to the key
    /// through this store's backing storage (another instance, and for ``FileStore`` another
    /// process) happens in between.
    /// - Parameters:
    ///   - key: The key.
    ///   - body: Gets the current tree (`nil` if none) and may change it; setting it to `nil`
    ///     removes the key. If `body` throws, nothing is written. It runs under the store's
    ///     lock, so it must not call the store.
    /// - Returns: What `body` returns.
    /// - Throws: `RawCodingError`: what ``read(forKey:)``, ``write(_:forKey:)`` or `body` throws.
    func update<Result>(
        forKey key: String, _ body: (inout StoredValue?) throws(RawCodingError) -> Result
    ) throws(RawCodingError) -> Result

    /// The keys that hold values, sorted; set-aside payloads are not among them.
    /// - Returns: The keys.
    /// - Throws: `RawCodingError` of kind `.storageFailed`.
    func keys() throws(RawCodingError) -> [String]

    /// Calls `handler` after each change to the backing storage: writes through this
    /// instance, through other instances on the same storage in this process, and, where
    /// the store can see them, changes made outside the process.
    ///
    /// The handler runs on the thread that made the change or on a background thread; it
    /// must not block. Changes are reported after they are visible to ``read(forKey:)``.
    /// - Parameter handler: Receives each change.
    /// - Returns: Keeps the observation alive; it ends when the object is released or
    ///   ``StoreObservation/cancel()`` is called.
    func observe(_ handler: @escaping @Sendable (StoreChange) -> Void) -> StoreObservation

    /// Moves the payload under `key` out of the way, exactly as stored, so that a write can
    /// replace it without losing it. ``Stored`` calls this before writing over a payload that
    /// did not decode.
    /// - Parameter key: The key.
    /// - Returns: The payload as it was set aside, or `nil` if the key held nothing.
    /// - Throws: `RawCodingError` of kind `.storageFailed`; then the
    ///   payload is still under `key`.
    func setAside(forKey key: String) throws(RawCodingError) -> SetAsidePayload?

    /// Replaces the value under `key` as one step, first setting aside what is there when
    /// `settingAside` is true: the write-back of a value over a payload that did not decode.
    /// No other write to the key through the backing storage happens in between, and if
    /// either part fails, neither happened.
    /// - Parameters:
    ///   - key: The key.
    ///   - value: The new tree; `nil` removes the key.
    ///   - settingAside: Whether the payload under `key`, if any, is set aside first.
    /// - Returns: The payload set aside, if one was.
    /// - Throws: `RawCodingError`, as ``write(_:forKey:)`` and ``setAside(forKey:)``; then the store
    ///   is as it was.
    func replace(_ value: StoredValue?, forKey key: String, settingAside: Bool) throws(RawCodingError)
        -> SetAsidePayload?

    /// Every payload set aside and not yet discarded, oldest first.
    /// - Returns: The payloads.
    /// - Throws: `RawCodingError` of kind `.storageFailed`.
    func setAsidePayloads() throws(RawCodingError) -> [SetAsidePayload]

    /// Deletes a set-aside payload, once the app has recovered or exported it.
    /// - Parameter id: ``SetAsidePayload/id``.
    /// - Throws: `RawCodingError` of kind `.storageFailed`.
    func discardSetAside(_ id: String) throws(RawCodingError)

    /// Runs `work`, calls of this store's synchronous API, where it may block (on a lock, a
    /// disk, a round trip) without holding a thread of the Swift concurrency pool: what every
    /// `async` call of a store does. A store that blocks runs it on threads of its own; one that
    /// never blocks may run it at once.
    ///
    /// The default runs `work` on a few threads RawCodingStores keeps for stores that bring
    /// none. Override it to use the store's own threads, and to stop work in progress when the
    /// calling task is cancelled.
    /// - Parameters:
    ///   - key: The key the work is about, for the error of a cancelled call; `nil` for none.
    ///   - work: The work; it runs once, or not at all when the task is cancelled first.
    /// - Returns: What `work` returns.
    /// - Throws: `RawCodingError`: what `work` throws, or of kind `.cancelled` when the
    ///   calling task was cancelled before `work` changed anything.
    func perform<Result: Sendable>(
        forKey key: String?, _ work: @escaping @Sendable () throws(RawCodingError) -> Result
    ) async throws(RawCodingError) -> Result
}

extension KeyValueStore {
    /// Runs `work` on the threads RawCodingStores keeps for stores that bring none of their own.
    /// - Parameters:
    ///   - key: The key the work is about, for the error of a cancelled call.
    ///   - work: The work.
    /// - Returns: What `work` returns.
    /// - Throws: `RawCodingError`: what `work` throws, or of kind `.cancelled`.
    public func perform<Result: Sendable>(
        forKey key: String?, _ work: @escaping @Sendable () throws(RawCodingError) -> Result
    ) async throws(RawCodingError) -> Result {
        try await StoreThreads.shared.run(in: Self.self, key: key, work)
    }

    /// Stores `value` under `key` through ``update(forKey:_:)``. A store overrides this when it can
    /// write without reading the old value first.
    /// - Parameters:
    ///   - value: The tree; `StoredValue.null` is refused.
    ///   - key: The key.
    /// - Throws: `RawCodingError`, as ``update(forKey:_:)``.
    public func write(_ value: StoredValue, forKey key: String) throws(RawCodingError) {
        try update(forKey: key) { $0 = value }
    }

    /// Sets aside what `key` holds, then writes `value` (or removes the key): two steps, not
    /// one. A store overrides this to make them one under its lock; every store of this
    /// package does.
    /// - Parameters:
    ///   - key: The key.
    ///   - value: The new tree; `nil` removes the key.
    ///   - settingAside: Whether the payload under `key` is set aside first.
    /// - Returns: The payload set aside, if one was.
    /// - Throws: `RawCodingError`, as ``setAside(forKey:)`` and ``write(_:forKey:)``.
    public func replace(_ value: StoredValue?, forKey key: String, settingAside: Bool) throws(RawCodingError)
        -> SetAsidePayload?
    {
        let payload = settingAside ? try setAside(forKey: key) : nil
        if let value { try write(value, forKey: key) } else { try remove(forKey: key) }
        return payload
    }

    /// Removes the value under `key` through ``update(forKey:_:)``.
    /// - Parameter key: The key.
    /// - Throws: `RawCodingError`, as ``update(forKey:_:)``.
    public func remove(forKey key: String) throws(RawCodingError) {
        try update(forKey: key) { $0 = nil }
    }
}
