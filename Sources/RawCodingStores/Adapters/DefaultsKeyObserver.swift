import Foundation
import RawCoding

/// Writes made to a suite outside the stores (`UserDefaults.set`, `@AppStorage`, another
/// library, an app extension on an app group), reported to the stores' observers.
///
/// On Apple systems each key a store of the suite has read is observed with key-value
/// observing, as `@AppStorage` observes its key; a change the stores did not make is reported
/// as an external change of that key. Keys that are not key paths (empty, with a `.`, or
/// starting with `@`) cannot be observed so. Elsewhere Foundation posts nothing for such
/// writes, and nothing is reported.
final class DefaultsKeyObserver: Sendable {
    #if canImport(Darwin)
        private let observer: Observer

        init(defaults: UserDefaults, broadcaster: StoreChangeBroadcaster) {
            observer = Observer(defaults: defaults, broadcaster: broadcaster)
        }

        /// Observes `key` from now on, if it is not yet.
        func watch(_ key: String) { observer.watch(key) }

        /// Runs a change the stores make, which their own notice reports.
        func storesOwnChange<Output>(_ body: () throws(RawCodingError) -> Output) throws(RawCodingError) -> Output {
            let result = Observer.$changing.withValue(ObjectIdentifier(observer)) {
                () -> Result<Output, RawCodingError> in
                do throws(RawCodingError) {
                    return .success(try body())
                } catch {
                    return .failure(error)
                }
            }
            return try result.get()
        }

        private final class Observer: NSObject, @unchecked Sendable {
            /// The observer of the stores changing the suite now, on this thread: key-value
            /// observing reports such a change at once, on the same thread, and that observer's
            /// broadcaster reports it already. Another observer of the suite (the stores made
            /// on a `UserDefaults` object, not by suite name) reports it to its own.
            @TaskLocal static var changing: ObjectIdentifier?

            private let defaults: UserDefaults
            private weak var broadcaster: StoreChangeBroadcaster?
            private let keys = Locked(Set<String>())

            init(defaults: UserDefaults, broadcaster: StoreChangeBroadcaster) {
                self.defaults = defaults
                self.broadcaster = broadcaster
            }

            func watch(_ key: String) {
                guard !key.isEmpty, !key.contains("."), !key.hasPrefix("@") else { return }
                guard keys.withLock({ $0.insert(key).inserted }) else { return }
                defaults.addObserver(self, forKeyPath: key, options: [.new], context: nil)
            }

            override func observeValue(
                forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
                context: UnsafeMutableRawPointer?
            ) {
                guard let keyPath, Self.changing != ObjectIdentifier(self) else { return }
                broadcaster?.send(forKey: keyPath, from: nil)
            }

            deinit {
                for key in keys.withLock({ $0 }) { defaults.removeObserver(self, forKeyPath: key) }
            }
        }
    #else
        init(defaults: UserDefaults, broadcaster: StoreChangeBroadcaster) {}

        /// Nothing to observe: Foundation here posts nothing for another writer's change.
        @inline(__always) func watch(_ key: String) {}

        /// Runs a change the stores make.
        @inline(__always)
        func storesOwnChange<Output>(_ body: () throws(RawCodingError) -> Output) throws(RawCodingError) -> Output {
            try body()
        }
    #endif
}
