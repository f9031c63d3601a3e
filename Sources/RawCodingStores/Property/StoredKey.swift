import Foundation
import RawCoding

/// A key of a store with its type and default, as a value: declared once, passed around,
/// compared and kept in sets, read and written anywhere (what `Defaults.Key` is to Defaults).
///
/// ```swift
/// extension StoredKeys {
///     static let showsPreview = StoredKey("showsPreview", store: UserDefaultsStore.standard, defaultValue: true)
/// }
/// StoredKeys.showsPreview.value.toggle()
/// @Stored(StoredKeys.showsPreview) var showsPreview: Bool     // in a model: the same property
/// ```
///
/// (A generic type has no static stored properties, so keys are declared in ``StoredKeys``, or
/// in a namespace of the app's own.)
///
/// The key's ``property`` is made at its first use and shared by every copy of the key, so every
/// reader sees one cached, observable value. Two keys are equal when they have the same name in
/// the same storage: the same store instance, or the same `UserDefaults` suite.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
public struct StoredKey<Value: Codable & Sendable>: AnyStoredKey, Hashable {
    /// The key's name in the store.
    public let name: String
    /// The store.
    public let store: any KeyValueStore
    private let made: Made

    /// The property, made once, at the first use.
    private final class Made: Sendable {
        let make: @Sendable () -> StoredProperty<Value>
        let property = Locked<StoredProperty<Value>?>(nil)

        init(make: @escaping @Sendable () -> StoredProperty<Value>) { self.make = make }

        var value: StoredProperty<Value> {
            property.withLock { property in
                if let property { return property }
                let made = make()
                property = made
                return made
            }
        }
    }

    /// A key with a default value.
    /// - Parameters:
    ///   - name: The key's name in the store.
    ///   - store: The store.
    ///   - defaultValue: The value when the store holds none, and the source of missing keys.
    ///   - writing: The form writes take (``StoredWriting``).
    public init(
        _ name: String, store: any KeyValueStore, defaultValue: Value, writing: StoredWriting = .native
    ) {
        self.name = name
        self.store = store
        made = Made { StoredProperty(name, store: store, defaultValue: defaultValue, writing: writing) }
    }

    /// A key whose default `makeDefault` makes each time one is needed (the key holds nothing,
    /// or was reset), never before: `StoredKey("installed", store: store) { Date() }`.
    /// - Parameters:
    ///   - name: The key's name in the store.
    ///   - store: The store.
    ///   - writing: The form writes take (``StoredWriting``).
    ///   - makeDefault: Makes the default.
    public init(
        _ name: String, store: any KeyValueStore, writing: StoredWriting = .native,
        defaultValue makeDefault: @escaping @Sendable () -> Value
    ) {
        self.name = name
        self.store = store
        made = Made { StoredProperty(name, store: store, writing: writing, defaultValue: makeDefault) }
    }

    /// A key whose type has a default, `StoredDefault.defaultValue`.
    /// - Parameters:
    ///   - name: The key's name in the store.
    ///   - store: The store.
    ///   - writing: The form writes take (``StoredWriting``).
    public init(_ name: String, store: any KeyValueStore, writing: StoredWriting = .native) where Value: StoredDefault {
        self.init(name, store: store, defaultValue: Value.defaultValue, writing: writing)
    }

    /// The key's property: its value, error, throwing setter, change stream and set-aside
    /// payloads. Every copy of the key has the same one.
    public var property: StoredProperty<Value> { made.value }

    /// The stored value, or the default; setting it writes (see ``StoredProperty/value``).
    public var value: Value {
        get { property.value }
        nonmutating set { property.value = newValue }
    }

    /// The default now (for a key with a closure, the closure's value).
    public var defaultValue: Value { property.defaultValue }

    /// Removes the value, so the key reads its default again (see ``StoredProperty/reset()``).
    /// - Throws: `RawCodingError` from the store.
    public func reset() throws(RawCodingError) { try property.reset() }

    /// The value now, then each new value (see ``StoredProperty/values()``).
    /// - Returns: The stream.
    public func values() -> AsyncStream<Value> { property.values() }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && StorageIdentity(lhs.store) == StorageIdentity(rhs.store)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(StorageIdentity(store))
    }
}

/// A ``StoredKey`` of any type, for the calls that take several keys of different types
/// (``StoredKeys``).
public protocol AnyStoredKey: Sendable {
    /// The key's name in the store.
    var name: String { get }
    /// The store.
    var store: any KeyValueStore { get }
    /// Removes the value, so the key reads its default again.
    func reset() throws(RawCodingError)
}

/// Where an app declares its keys (`extension StoredKeys { static let volume = StoredKey(…) }`,
/// as `Defaults.Keys`), and what several keys do together.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
public enum StoredKeys {
    /// The values of several keys now, then again each time any of them changes, from any
    /// writer the stores report.
    ///
    /// ```swift
    /// for await (name, volume) in StoredKeys.values(StoredKeys.userName, StoredKeys.volume) { … }
    /// ```
    /// - Parameter keys: The keys.
    /// - Returns: The stream; it keeps the newest 16 tuples if the consumer falls behind.
    public static func values<each Value>(
        _ keys: repeat StoredKey<each Value>
    ) -> AsyncStream<(repeat each Value)> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: (repeat each Value).self, bufferingPolicy: .bufferingNewest(16))
        let read: @Sendable () -> (repeat each Value) = { (repeat (each keys).value) }
        var names: [(String, any KeyValueStore)] = []
        for key in repeat each keys { names.append((key.name, key.store)) }
        // Yields happen under this lock, so a change and the first value never cross.
        let order = Lock()
        let observations = observe(names) { _ in order.withLock { _ = continuation.yield(read()) } }
        order.withLock { _ = continuation.yield(read()) }
        continuation.onTermination = { _ in
            for observation in observations { observation.cancel() }
        }
        return stream
    }

    /// The name of each key, of those given, that changes, from any writer the stores report
    /// (the whole list when a store reports that any key may have changed).
    /// - Parameter keys: The keys.
    /// - Returns: The stream; it keeps the newest 64 names if the consumer falls behind.
    public static func changes(_ keys: [any AnyStoredKey]) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(64))
        let observations = observe(keys.map { ($0.name, $0.store) }) { name in continuation.yield(name) }
        continuation.onTermination = { _ in
            for observation in observations { observation.cancel() }
        }
        return stream
    }

    /// Resets each key (``AnyStoredKey/reset()``), in order.
    /// - Parameter keys: The keys.
    /// - Throws: The first `RawCodingError`; the keys before it were reset, the others not.
    public static func reset(_ keys: [any AnyStoredKey]) throws(RawCodingError) {
        for key in keys { try key.reset() }
    }

    /// Observes each named key, calling `changed` with its name for each change of any of them.
    private static func observe(
        _ keys: [(String, any KeyValueStore)], _ changed: @escaping @Sendable (String) -> Void
    ) -> [StoreObservation] {
        keys.map { name, store in
            store.observe { change in
                if change.affects(name) { changed(name) }
            }
        }
    }
}

/// Where a store keeps its values, for comparing keys: a `UserDefaults` suite by its name (a
/// store instance is made per use, `UserDefaultsStore.standard` each time it is named),
/// any other store by its instance.
struct StorageIdentity: Hashable {
    private let identity: AnyHashable

    init(_ store: any KeyValueStore) {
        if let defaults = store as? UserDefaultsStore {
            identity = defaults.storageName
        } else {
            identity = ObjectIdentifier(store)
        }
    }
}
