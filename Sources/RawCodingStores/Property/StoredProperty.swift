import Foundation
import Observation
import RawCoding

/// One key of a store seen as a typed, observable value: what ``Stored`` wraps, and its
/// projected value (`$settings`).
///
/// - Reads lazily: the store is read on first access, and again after it reports a change.
/// - Decodes with `Codec.decodeStored(_:fromTree:defaultValue:)`: missing keys
///   are filled from the default, `StoredVersioned` payloads are migrated, and
///   keys the model does not know are written back unchanged.
/// - Reads every ``StoredForm``: a value the replaced snippets stored as JSON text or
///   property-list data reads exactly, and writes take the form ``writing`` says.
/// - Is `Observable`: `withObservationTracking`, SwiftUI and `@Observable` models see
///   ``value`` change when it is set here or when the store changes underneath (another
///   instance, another process for ``FileStore``, an external change).
/// - Loses nothing when a payload does not decode: ``value`` is the default, ``error`` says
///   why (it is also reported to `RawCodingDiagnostics` as `storedValueDidNotDecode`), the
///   payload stays in the store, and the next write first moves it aside
///   (``KeyValueStore/setAside(forKey:)``), where ``setAsidePayloads()`` finds it.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
public final class StoredProperty<Value: Codable & Sendable>: Observable, Sendable {
    /// The key.
    public let key: String
    /// The store.
    public let store: any KeyValueStore
    /// The store's codec, which values are encoded with.
    private let codec: any Codec
    /// What ``value`` is when the store holds nothing (or something that does not decode),
    /// and what fills keys a stored payload lacks; for a property made with a closure, the
    /// closure's value now.
    public var defaultValue: Value { makeDefault() }
    /// Makes the default each time one is needed: a value made once, or the caller's closure.
    private let makeDefault: @Sendable () -> Value
    /// The form writes take (``StoredWriting/native`` unless the property was made with another).
    public let writing: StoredWriting

    private struct Loaded {
        var value: Value
        var tree: StoredValue?
        var unknownKeys: StoredUnknownKeys
        /// The form the payload decoded in; `nil` when there is none or it did not decode.
        var form: StoredForm? = nil
        var error: RawCodingError?
        var needsSetAside: Bool
        /// The store could not be read (I/O): nothing is known of the payload, so a write
        /// first reads it again.
        var readFailed = false
    }

    /// The loaded state; reading the store happens under this lock. Store change handlers
    /// never take it (they only touch `flags`), and writes do not hold it while the store
    /// notifies observers, so an observer may read any property, this one included.
    private let loaded = Locked<Loaded?>(nil)
    /// Serializes this property's writes, so the loaded state ends as the store does. An
    /// observer of a write may write this property again from inside it, on the same thread.
    private let writeLock = Lock(NSRecursiveLock())
    /// This property's writes so far, counted under `writeLock`: a write that finds the count
    /// moved on after the store's step made a write inside it (an observer's), which is newer.
    nonisolated(unsafe) private var writes: UInt64 = 0

    private let flags = Locked(StoredPropertyFlags())
    /// The loaded value, for reads: set with the loaded state, and only touched under
    /// `flags`' lock, which says whether it is current (``StoredPropertyFlags/cached``). A read
    /// that finds it current takes that lock alone, with no generic type to look up (an
    /// optional or the loaded state would cost about 330 instructions each a read; memory of
    /// its own, filled at the first load, cost about 380 more).
    nonisolated(unsafe) private var cachedValue: Value
    private let streams = ValueStreams<Value>()
    private let registrar = ObservationRegistrar()
    private let delivery = DispatchQueue(label: "RawCodingStores.StoredProperty.delivery")
    private let observation = Locked<StoreObservation?>(nil)
    /// `\.value`, made once: a key path into a generic class is instantiated anew (about
    /// 14,000 instructions) each time the literal is evaluated, and every read names it.
    private let valueKeyPath: any KeyPath<StoredProperty, Value> & Sendable
    /// `Value` is an `Optional`, whose `nil` removes the key.
    private let valueIsOptional: Bool

    /// Creates a property over `key` in `store`.
    /// - Parameters:
    ///   - key: The key.
    ///   - store: The store; values are encoded with its ``KeyValueStore/codec``.
    ///   - defaultValue: The value when the store holds none, and the source of missing keys.
    ///   - writing: The form writes take: the store's own tree by default, which sets aside a
    ///     payload found in another form before replacing it.
    public convenience init(
        _ key: String, store: any KeyValueStore, defaultValue: Value, writing: StoredWriting = .native
    ) {
        self.init(key, store: store, writing: writing, makeDefault: { defaultValue })
    }

    /// Creates a property over `key` in `store` whose default `makeDefault` makes each time
    /// one is needed (when the key holds nothing, to fill keys a payload lacks, after a reset)
    /// and once as the property is made: `StoredProperty("lastOpened", store: store) { Date() }`.
    /// (A ``StoredKey`` makes its property at its first use, so a key's closure runs only
    /// when a value is needed.)
    /// - Parameters:
    ///   - key: The key.
    ///   - store: The store; values are encoded with its ``KeyValueStore/codec``.
    ///   - writing: The form writes take (``StoredWriting``).
    ///   - makeDefault: Makes the default.
    public convenience init(
        _ key: String, store: any KeyValueStore, writing: StoredWriting = .native,
        defaultValue makeDefault: @escaping @Sendable () -> Value
    ) {
        self.init(key, store: store, writing: writing, makeDefault: makeDefault)
    }

    private init(
        _ key: String, store: any KeyValueStore, writing: StoredWriting, makeDefault: @escaping @Sendable () -> Value
    ) {
        self.key = key
        self.store = store
        self.makeDefault = makeDefault
        self.writing = writing
        // Read only once a load or write has replaced it (`flags.cached`).
        cachedValue = makeDefault()
        self.codec = store.codec
        valueKeyPath = \StoredProperty.value
        valueIsOptional = Value.self is any OptionalType.Type
        let token = StoreChangeBroadcaster.$registeringPropertyCache.withValue(true) {
            store.observe { [weak self] change in
                guard let self, change.affects(key) else { return }
                self.storeDidChange()
            }
        }
        observation.withLock { $0 = token }
    }

    /// The stored value, decoded; the default if the store holds none or what it holds does
    /// not decode (see ``error``). Setting it writes to the store; a failed write leaves the
    /// stored value and this one unchanged, sets ``error`` and reports it to
    /// `RawCodingDiagnostics` as `writeFailed` (use ``set(_:)`` to get the error thrown).
    public var value: Value {
        get {
            registrar.access(self, keyPath: valueKeyPath)
            return currentValue()
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
        registrar.access(self, keyPath: valueKeyPath)
        return current().error
    }

    /// Stores `newValue`, keeping the unknown keys of what it replaces; if the stored payload
    /// did not decode, it is first moved aside. For an optional `Value`, `nil` removes the key,
    /// as ``reset()`` does, so the property then reads its default (`nil`, unless the default is
    /// another value).
    /// - Parameter newValue: The value to store.
    /// - Throws: `RawCodingError` from encoding, from setting the payload aside
    ///   (then nothing was written) or from the store.
    public func set(_ newValue: Value) throws(RawCodingError) {
        try commit(newValue, writing: newValue)
    }

    /// Removes the key from the store, so ``value`` is the default again (a payload that did
    /// not decode is moved aside first, not deleted).
    /// - Throws: `RawCodingError` from the store.
    public func reset() throws(RawCodingError) {
        try commit(makeDefault(), writing: nil)
    }

    /// This property's own write: `written` encoded first (`nil` removes the key), then one
    /// step of the store that sets aside a payload that did not decode and writes the new one
    /// (the write-back path `set` takes too). A failure is kept in ``error`` and thrown; the
    /// store is as it was. Streams are told before the write lock is released, so they get
    /// the writes of several threads in the order they happened.
    private func commit(_ value: Value, writing written: Value?) throws(RawCodingError) {
        try writeLock.withLock { () throws(RawCodingError) in
            writes &+= 1
            let write = writes
            var before = current()
            if before.readFailed {
                // Nothing is known of the payload (its unknown keys, whether it decodes): read
                // it again rather than write over it blind.
                before = reload()
                if before.readFailed, let error = before.error { throw error }
            }
            do throws(RawCodingError) {
                let base = WriteBackBase(
                    unknownKeys: before.unknownKeys, settingAside: before.needsSetAside, form: before.form)
                // Observers of this write run inside it: from here, reads give the new value.
                let removes = written == nil || (valueIsOptional && Self.isNone(value))
                let shown = removes ? makeDefault() : value
                let changesBefore = flags.withLock { flags in
                    cachedValue = shown
                    flags.cached = true
                    return flags.changes
                }
                var tree: StoredValue?
                try ownWrite { () throws(RawCodingError) in
                    tree = try store.writeBack(written, forKey: key, codec: codec, base: base, writing: writing)
                }
                // An observer wrote this property again inside the write: its state is the newer.
                guard writes == write else { return }
                let form = writing.form(over: base.form)
                loaded.withLock {
                    keep(
                        Loaded(
                            // A removed key reads as the default, here as in every instance.
                            value: tree == nil ? shown : value, tree: tree,
                            unknownKeys: tree == nil ? .none : base.unknownKeys, form: tree == nil ? nil : form,
                            error: nil, needsSetAside: false), in: &$0)
                }
                // Another writer's change that came meanwhile may be newer than this write, and
                // a read in between may have taken its notice: read the store again next time.
                flags.withLock { if $0.changes != changesBefore { $0.stale = true } }
            } catch {
                loaded.withLock { loaded in
                    var failed = loaded ?? before
                    failed.error = error
                    keep(failed, in: &loaded)
                }
                throw error
            }
            if hasStreams { delivery.async { [self] in deliverCurrent() } }
        }
        registrar.withMutation(of: self, keyPath: valueKeyPath) {}
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
        // On the delivery queue, so no delivery runs between reading the value now and
        // registering the stream: every later value is newer than the first.
        delivery.sync {
            let now = current()
            streams.add(continuation, given: now.tree, keepingAlive: self)
            continuation.yield(now.value)
        }
        return stream
    }

    // MARK: Loading and changes

    /// ``current()``'s value alone: a read copies the value, not the loaded state around it,
    /// and one that finds the store unchanged takes one lock.
    private func currentValue() -> Value {
        var cached = false
        let value = flags.withLock { flags in
            cached = flags.cached && !flags.stale
            return cachedValue
        }
        return cached ? value : current().value
    }

    /// Whether the store changed since the value was loaded, clearing the flag; the caller
    /// holds `loaded`'s lock and loads again if so. The cached value goes with the flag, so
    /// a read meanwhile waits for that load instead of taking the older value.
    private func takeStale() -> Bool {
        flags.withLock { flags in
            defer { flags.stale = false }
            if flags.stale { flags.cached = false }
            return flags.stale
        }
    }

    /// Sets the loaded state and the value reads take; the caller holds `loaded`'s lock.
    private func keep(_ state: Loaded, in loaded: inout Loaded?) {
        loaded = state
        flags.withLock { flags in
            cachedValue = state.value
            flags.cached = true
        }
    }

    /// The loaded state, reading the store if nothing is loaded or the store changed.
    private func current() -> Loaded {
        loaded.withLock { loaded in
            let stale = takeStale()
            if let current = loaded, !stale { return current }
            let fresh = load()
            keep(fresh, in: &loaded)
            return fresh
        }
    }

    /// Reads the store again, whatever is loaded.
    private func reload() -> Loaded {
        loaded.withLock { loaded in
            let fresh = load()
            keep(fresh, in: &loaded)
            return fresh
        }
    }

    /// Reads and decodes the key; on failure the default, with the error reported.
    private func load() -> Loaded {
        let defaultValue = makeDefault()
        let tree: StoredValue?
        do {
            tree = try store.read(forKey: key)
        } catch  where error.isStorageFailure {
            // The storage failed, not the payload: it may be valid, so nothing is set aside.
            RawCodingDiagnostics.report(error, as: .readFailed)
            return Loaded(
                value: defaultValue, tree: nil, unknownKeys: .none, error: error, needsSetAside: false, readFailed: true
            )
        } catch {
            return failed(error)
        }
        guard let tree else {
            return Loaded(value: defaultValue, tree: nil, unknownKeys: .none, error: nil, needsSetAside: false)
        }
        do {
            let found = try StoredForm.decode(Value.self, fromTree: tree, codec: codec, defaultValue: defaultValue)
            return Loaded(
                value: found.decoded.value, tree: tree, unknownKeys: found.decoded.unknownKeys, form: found.form,
                error: nil, needsSetAside: false)
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
        // `withValue` rethrows untyped; the result carries the typed error through it.
        let result = StoredPropertyWriter.$current.withValue(ObjectIdentifier(self)) {
            () -> Result<Void, RawCodingError> in
            do throws(RawCodingError) {
                try body()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    private func storeDidChange() {
        // A change reported inside this property's own write, on its thread, is that write.
        guard StoredPropertyWriter.current != ObjectIdentifier(self) else { return }
        flags.withLock { flags in
            flags.stale = true
            flags.changes += 1
        }
        registrar.withMutation(of: self, keyPath: valueKeyPath) {}
        guard hasStreams else { return }
        delivery.async { [weak self] in self?.deliverCurrent() }
    }

    /// Whether `value` is an optional's `nil`, which removes the key. Asked only when
    /// ``valueIsOptional``: a cast that fails scans the runtime's conformances, about a
    /// thousand instructions, on every write of every other type.
    private static func isNone(_ value: Value) -> Bool { (value as? any OptionalType)?.isNone ?? false }

    /// Whether any stream from ``values()`` is open.
    private var hasStreams: Bool { !streams.isEmpty }

    /// Yields the value current now to each stream that does not have its tree yet. Runs on
    /// `delivery`, one at a time, and reads the value when it runs, never one captured
    /// earlier: each delivery is at least as new as the one before, so a stream can skip
    /// values (coalescing) but never go back to an older one.
    private func deliverCurrent() {
        guard hasStreams else { return }
        let now = current()
        for continuation in streams.due(for: now.tree) { continuation.yield(now.value) }
    }

    deinit {
        observation.withLock { $0?.cancel() }
    }
}

/// What a `StoredProperty`'s store change handler tells a read and a write. Outside the
/// generic class, so a read does not look up a generic type for it.
private struct StoredPropertyFlags {
    /// The store changed since the value was loaded: read it again.
    var stale = false
    /// Changes others made, counted, so a write of this property can tell whether one
    /// came while it wrote.
    var changes: UInt64 = 0
    /// The property's cached value is the loaded one: unset until the first load, and
    /// while a load after a change runs.
    var cached = false
}
