import Foundation
import Observation
import RawCoding

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One key of a store seen as a typed, observable value: what ``Stored`` wraps, and its
/// projected value (`$settings`).
///
/// - Reads lazily: the store is read on first access, and again after it reports a change.
/// - Decodes with `Codec.decodeStored(_:fromTree:defaultValue:)`: missing keys
///   are filled from the default, `StoredVersioned` payloads are migrated, and
///   keys the model does not know are written back unchanged.
/// - Is `Observable`: `withObservationTracking`, SwiftUI and `@Observable` models see
///   ``value`` change when it is set here or when the store changes underneath (another
///   instance, another process for ``FileStore``, an external change).
/// - Loses nothing when a payload does not decode: ``value`` is the default, ``error`` says
///   why (it is also reported to `RawCodingDiagnostics` as `storedValueDidNotDecode`), the
///   payload stays in the store, and the next write first moves it aside
///   (``KeyValueStore/setAside(_:)``), where ``setAsidePayloads()`` finds it.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
public final class StoredProperty<Value: Codable & Sendable>: Observable, Sendable {
    /// The key.
    public let key: String
    /// The store.
    public let store: any KeyValueStore
    /// The codec values are encoded with to trees.
    public let codec: any Codec
    /// What ``value`` is when the store holds nothing (or something that does not decode),
    /// and what fills keys a stored payload lacks.
    public let defaultValue: Value

    private struct Loaded {
        var value: Value
        var tree: StoredValue?
        var unknownKeys: StoredUnknownKeys
        var error: RawCodingError?
        var needsSetAside: Bool
    }

    /// The loaded state; reading the store happens under this lock. Store change handlers
    /// never take it (they only touch `flags`), and writes do not hold it while the store
    /// notifies observers, so an observer may read any property, this one included.
    private let loaded = Locked<Loaded?>(nil)
    /// Serializes this property's writes, so the loaded state ends as the store does.
    private let writing = Locked(())

    private struct Flags {
        var stale = false
        var writer: pthread_t?
        var continuations: [UInt64: AsyncStream<Value>.Continuation] = [:]
        var nextContinuation: UInt64 = 0
        var lastDelivered: StoredValue??
        /// Streams made by `values()` whose first value is not yet delivered.
        var opening = 0
    }

    private let flags = Locked(Flags())
    private let registrar = ObservationRegistrar()
    private let delivery = DispatchQueue(label: "RawCodingStores.StoredProperty.delivery")
    private let observation = Locked<StoreObservation?>(nil)

    /// Creates a property over `key` in `store`.
    /// - Parameters:
    ///   - key: The key.
    ///   - store: The store.
    ///   - defaultValue: The value when the store holds none, and the source of missing keys.
    ///   - codec: Encodes values to trees; `nil` uses the store's ``KeyValueStore/codec``.
    public init(_ key: String, store: any KeyValueStore, defaultValue: Value, codec: (any Codec)? = nil) {
        self.key = key
        self.store = store
        self.defaultValue = defaultValue
        self.codec = codec ?? store.codec
        let token = store.observe { [weak self] change in
            guard let self, change.affects(key) else { return }
            self.storeDidChange()
        }
        observation.withLock { $0 = token }
    }

    /// The stored value, decoded; the default if the store holds none or what it holds does
    /// not decode (see ``error``). Setting it writes to the store; a failed write leaves the
    /// stored value and this one unchanged, sets ``error`` and reports it to
    /// `RawCodingDiagnostics` as `writeFailed` (use ``set(_:)`` to get the error thrown).
    public var value: Value {
        get {
            registrar.access(self, keyPath: \.value)
            return current().value
        }
        set {
            do throws(RawCodingError) {
                try set(newValue)
            } catch {
                RawCodingDiagnostics.report(error, as: .writeFailed)
            }
        }
    }

    /// Why the stored payload did not decode or the last write failed; `nil` after a
    /// successful read or write.
    public var error: RawCodingError? {
        registrar.access(self, keyPath: \.value)
        return current().error
    }

    /// Stores `newValue`, keeping the unknown keys of what it replaces; if the stored payload
    /// did not decode, it is first moved aside.
    /// - Parameter newValue: The value to store.
    /// - Throws: `RawCodingError` from encoding, from setting the payload aside
    ///   (then nothing was written) or from the store.
    public func set(_ newValue: Value) throws(RawCodingError) {
        try commit(newValue) { (before: Loaded) throws(RawCodingError) in
            let tree = try codec.encodeStoredTree(newValue, keeping: before.unknownKeys)
            return (tree.isNull ? nil : tree, before.unknownKeys)
        }
    }

    /// Removes the key from the store, so ``value`` is the default again (a payload that did
    /// not decode is moved aside first, not deleted).
    /// - Throws: `RawCodingError` from the store.
    public func reset() throws(RawCodingError) {
        try commit(defaultValue) { (_: Loaded) throws(RawCodingError) in (nil, .none) }
    }

    /// This property's own write of `value`: the tree `makeTree` gives for it (`nil` removes
    /// the key), after setting aside a payload that did not decode; then observers and streams
    /// are told. A failure is kept in ``error`` and thrown; the store is as it was.
    private func commit(
        _ value: Value,
        _ makeTree: (Loaded) throws(RawCodingError) -> (tree: StoredValue?, unknownKeys: StoredUnknownKeys)
    ) throws(RawCodingError) {
        let tree = try writing.withLock { _ throws(RawCodingError) -> StoredValue? in
            let before = current()
            do throws(RawCodingError) {
                let (tree, unknownKeys) = try makeTree(before)
                try ownWrite { () throws(RawCodingError) in
                    if before.needsSetAside { _ = try store.setAside(key) }
                    if let tree { try store.write(tree, forKey: key) } else { try store.remove(key) }
                }
                loaded.withLock {
                    $0 = Loaded(value: value, tree: tree, unknownKeys: unknownKeys, error: nil, needsSetAside: false)
                }
                return tree
            } catch {
                loaded.withLock { loaded in
                    var failed = loaded ?? before
                    failed.error = error
                    loaded = failed
                }
                throw error
            }
        }
        registrar.withMutation(of: self, keyPath: \.value) {}
        if hasStreams { delivery.async { [self] in deliver(tree, value) } }
    }

    /// Payloads of this key that were set aside because they did not decode, oldest first.
    /// - Returns: The payloads; read one with ``SetAsidePayload/tree(readingWith:)`` and this
    ///   property's store codec, decode it with an older model, or export it.
    /// - Throws: `RawCodingError` from the store.
    public func setAsidePayloads() throws(RawCodingError) -> [SetAsidePayload] {
        try store.setAsidePayloads().filter { $0.key == key }
    }

    /// The value now, then each new value the store holds for the key, from any writer the
    /// store reports. A payload that does not decode yields the default (and is reported, as
    /// for ``value``). The stream keeps this property alive until it ends.
    /// - Returns: The stream; it keeps the newest 16 values if the consumer falls behind.
    public func values() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(16))
        let id = flags.withLock { flags in
            flags.nextContinuation += 1
            flags.opening += 1
            return flags.nextContinuation
        }
        continuation.onTermination = { [self] _ in
            flags.withLock { _ = $0.continuations.removeValue(forKey: id) }
        }
        delivery.async { [self] in
            let now = current()
            flags.withLock { flags in
                flags.continuations[id] = continuation
                flags.lastDelivered = .some(now.tree)
                flags.opening -= 1
            }
            continuation.yield(now.value)
        }
        return stream
    }

    // MARK: Loading and changes

    /// The loaded state, reading the store if nothing is loaded or the store changed.
    private func current() -> Loaded {
        loaded.withLock { loaded in
            let stale = flags.withLock { flags in
                defer { flags.stale = false }
                return flags.stale
            }
            if let current = loaded, !stale { return current }
            let fresh = load()
            loaded = fresh
            return fresh
        }
    }

    /// Reads and decodes the key; on failure the default, with the error reported.
    private func load() -> Loaded {
        let tree: StoredValue?
        do {
            tree = try store.read(key)
        } catch {
            return failed(error)
        }
        guard let tree else {
            return Loaded(value: defaultValue, tree: nil, unknownKeys: .none, error: nil, needsSetAside: false)
        }
        do {
            let decoded = try codec.decodeStored(Value.self, fromTree: tree, defaultValue: defaultValue)
            return Loaded(
                value: decoded.value, tree: tree, unknownKeys: decoded.unknownKeys, error: nil, needsSetAside: false)
        } catch {
            return failed(error.at(key: key))
        }
    }

    private func failed(_ error: RawCodingError) -> Loaded {
        RawCodingDiagnostics.report(error, as: .storedValueDidNotDecode)
        return Loaded(value: defaultValue, tree: nil, unknownKeys: .none, error: error, needsSetAside: true)
    }

    /// Runs a write of this property's own, so the change it causes is not taken for another's.
    private func ownWrite(_ body: () throws(RawCodingError) -> Void) throws(RawCodingError) {
        flags.withLock { $0.writer = pthread_self() }
        defer { flags.withLock { $0.writer = nil } }
        try body()
    }

    private func storeDidChange() {
        let own = flags.withLock { flags in
            if let writer = flags.writer, pthread_equal(writer, pthread_self()) != 0 { return true }
            flags.stale = true
            return false
        }
        guard !own else { return }
        registrar.withMutation(of: self, keyPath: \.value) {}
        guard hasStreams else { return }
        delivery.async { [weak self] in
            guard let self, self.hasStreams else { return }
            let now = self.current()
            self.deliver(now.tree, now.value)
        }
    }

    /// Whether any stream from ``values()`` is open (or being opened).
    private var hasStreams: Bool { flags.withLock { !$0.continuations.isEmpty || $0.opening > 0 } }

    /// Yields `value` to the streams unless they already have this tree; runs on `delivery`,
    /// so values arrive in order.
    private func deliver(_ tree: StoredValue?, _ value: Value) {
        let continuations = flags.withLock { flags -> [AsyncStream<Value>.Continuation] in
            guard flags.lastDelivered != .some(tree) else { return [] }
            flags.lastDelivered = .some(tree)
            return Array(flags.continuations.values)
        }
        for continuation in continuations { continuation.yield(value) }
    }

    deinit {
        observation.withLock { $0?.cancel() }
    }
}
