import Foundation
import RawCoding

/// A property stored under a key of a ``KeyValueStore``: read lazily, written on set,
/// decoded with default filling and migrations, and observable.
///
/// ```swift
/// @Observable final class SettingsModel {
///     @ObservationIgnored @Stored("settings", store: UserDefaultsStore.standard)
///     var settings = Settings()
/// }
/// ```
///
/// - In a plain class or struct, use it as is.
/// - In an `@Observable` class, mark it `@ObservationIgnored` (the macro cannot rewrite a
///   wrapped property): the property is observable by itself, so `withObservationTracking`
///   and SwiftUI still see every change, including changes made by other instances and, for
///   ``FileStore``, other processes.
/// - The projected value (`$settings`) is the ``StoredProperty``: its ``StoredProperty/error``
///   says why a stored payload did not decode, ``StoredProperty/set(_:)`` writes and throws,
///   ``StoredProperty/values()`` is a change stream, and ``StoredProperty/setAsidePayloads()``
///   returns payloads kept aside.
///
/// The value written at the declaration is the default: what the property reads when the
/// store holds nothing, and what fills keys an older payload lacks.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@propertyWrapper
public struct Stored<Value: Codable & Sendable>: Sendable {
    /// The property, with its error, throwing setter, change stream and recovery API.
    public let projectedValue: StoredProperty<Value>

    /// A property over `key` in `store`, with `wrappedValue` as the default.
    /// - Parameters:
    ///   - wrappedValue: The default.
    ///   - key: The key.
    ///   - store: The store; values are encoded with its ``KeyValueStore/codec``.
    ///   - writing: The form writes take (``StoredForm``); the store's own tree by default.
    public init(wrappedValue: Value, _ key: String, store: any KeyValueStore, writing: StoredWriting = .native) {
        projectedValue = StoredProperty(key, store: store, defaultValue: wrappedValue, writing: writing)
    }

    /// A property over `key` in `store`, with the type's `StoredDefault.defaultValue`.
    /// - Parameters:
    ///   - key: The key.
    ///   - store: The store; values are encoded with its ``KeyValueStore/codec``.
    ///   - writing: The form writes take (``StoredForm``); the store's own tree by default.
    public init(_ key: String, store: any KeyValueStore, writing: StoredWriting = .native) where Value: StoredDefault {
        projectedValue = StoredProperty(key, store: store, defaultValue: Value.defaultValue, writing: writing)
    }

    /// The property of `key` (``StoredKey/property``), shared with every other use of the key.
    /// - Parameter key: The key.
    public init(_ key: StoredKey<Value>) {
        projectedValue = key.property
    }

    /// The stored value (see ``StoredProperty/value``).
    public var wrappedValue: Value {
        get { projectedValue.value }
        nonmutating set { projectedValue.value = newValue }
    }
}
