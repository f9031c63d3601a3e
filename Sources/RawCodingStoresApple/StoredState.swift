// Apple platforms only, and not compiled on the machines this package is built and tested on
// (Linux): kept thin, written against documented SwiftUI API only. The logic (reading,
// writing, decoding, observing) is `StoredProperty`, tested on Linux.
#if canImport(SwiftUI)
    import SwiftUI
    import RawCoding
    import RawCodingStores

    /// `@Stored` for SwiftUI views: the view updates when the value changes (here, in another
    /// view, another window, or underneath in the store), and `$value` is a `Binding`.
    ///
    /// ```swift
    /// struct SettingsView: View {
    ///     @StoredState("settings", store: UserDefaultsStore.standard) var settings = Settings()
    ///     var body: some View { Toggle("Private account", isOn: $settings.isPrivate) }
    /// }
    /// ```
    ///
    /// In an `ObservableObject` or an `@Observable` model, use ``RawCodingStores/Stored``: from
    /// iOS 17 and macOS 14, SwiftUI tracks what a view's body reads through Observation,
    /// which `@Stored` takes part in, whatever object holds it.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @propertyWrapper
    public struct StoredState<Value: Codable & Sendable>: DynamicProperty {
        @State private var property: StoredProperty<Value>

        /// A property over `key` in `store`, with `wrappedValue` as the default.
        /// - Parameters:
        ///   - wrappedValue: The default.
        ///   - key: The key.
        ///   - store: The store.
        ///   - writing: The form writes take (`StoredForm`); the store's own tree by default.
        public init(
            wrappedValue: Value, _ key: String, store: any KeyValueStore, writing: StoredWriting = .native
        ) {
            _property = State(
                initialValue: StoredProperty(key, store: store, defaultValue: wrappedValue, writing: writing))
        }

        /// The property of `key` (`StoredKey.property`), shared with every other use of the key.
        /// - Parameter key: The key.
        public init(_ key: StoredKey<Value>) {
            _property = State(initialValue: key.property)
        }

        /// The stored value.
        public var wrappedValue: Value {
            get { property.value }
            nonmutating set { property.value = newValue }
        }

        /// A binding to the stored value.
        public var projectedValue: Binding<Value> {
            let property = self.property
            return Binding(get: { property.value }, set: { property.value = $0 })
        }
    }
#endif
