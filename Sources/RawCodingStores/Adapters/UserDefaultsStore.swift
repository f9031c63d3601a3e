import Foundation
import RawCoding

/// A store in `UserDefaults`: each tree is kept as native property-list objects, so a stored
/// struct is a real dictionary in the defaults file (readable with `defaults read` on a Mac),
/// not an opaque string.
///
/// ```swift
/// let store = UserDefaultsStore(suiteName: "com.example.settings")
/// @Stored("settings", store: store) var settings = Settings()
/// ```
///
/// Keys are stored in their composed Unicode form (NFC), so keys Swift finds equal are one
/// key. Instances on the same suite in one process share their observers: a write through one is
/// seen by the others at once. On Apple systems, writes made to the suite outside the stores
/// (`UserDefaults.set`, `@AppStorage`, an app extension) are reported too, for the keys a store
/// has read, by key-value observing as `@AppStorage` does; on Linux Foundation posts nothing for
/// them, and they are not reported.
///
/// Outside Apple systems, where `UserDefaults` files hold dates to the whole second, a date
/// with a fraction is kept as a one-entry dictionary `{"RawCoding.date": seconds since 2001}`
/// and read back as the same date; that key is reserved there.
///
/// Outside Apple systems each write is also flushed to the suite's file at once
/// (`synchronize()`): Foundation there writes it later, and a process that exits soon after a
/// `set` would lose the value.
///
/// - Important: On Linux, `UserDefaults` is neither multi-process nor notified of other
///   processes' writes: each process keeps its own cache and rewrites the whole file, so two
///   processes writing one suite lose each other's changes. ``update(forKey:_:)`` is atomic within
///   the process only. For data several processes share, use ``FileStore``.
// `UserDefaults` is documented as thread-safe; the store adds no unguarded state of its own.
public final class UserDefaultsStore: KeyValueStore, @unchecked Sendable {
    /// The defaults this store reads and writes.
    public let defaults: UserDefaults
    /// The suite; `nil` for `UserDefaults.standard` and for a store made with
    /// ``init(defaults:codec:)``.
    public let suiteName: String?
    /// The persistent domain ``keys()`` lists; `nil` when unknown (a defaults object given).
    private let domain: String?
    public let codec: any Codec

    /// The key under which set-aside payloads are kept, in the same suite.
    public static let setAsideKey = "RawCoding.setAside"

    private let shared: Shared
    /// Names the storage: the suite, the standard defaults, or the caller's defaults object.
    let storageName: String

    /// What the instances on one suite share in a process.
    private final class Shared: Sendable {
        let broadcaster = StoreChangeBroadcaster()
        let lock = Lock()
        let keyObserver: DefaultsKeyObserver

        init(defaults: UserDefaults) {
            keyObserver = DefaultsKeyObserver(defaults: defaults, broadcaster: broadcaster)
        }

        private static let registry = SharedInstances<Shared>()

        static func shared(for name: String, defaults: UserDefaults) -> Shared {
            registry.object(for: name) { Shared(defaults: defaults) }
        }
    }

    /// A store on `UserDefaults.standard`.
    public static var standard: UserDefaultsStore { UserDefaultsStore(suiteName: nil) }

    /// A store on a suite.
    /// - Parameters:
    ///   - suiteName: The suite (an app group, or any name: on Linux the file is
    ///     `~/.config/<suite>.plist`); `nil` for `UserDefaults.standard`.
    ///   - codec: The tree representation values are encoded in; a binary property list by
    ///     default, which keeps dates and bytes as `Date` and `Data` objects.
    public init(suiteName: String?, codec: any Codec = .propertyList(.binary)) {
        // `UserDefaults(suiteName:)` is nil only for the global domain's name, which is not a suite.
        defaults = suiteName.flatMap { UserDefaults(suiteName: $0) } ?? .standard
        self.suiteName = suiteName
        domain = suiteName ?? Self.standardDomain
        self.codec = codec
        storageName = suiteName ?? "\u{0}standard"
        shared = Shared.shared(for: storageName, defaults: defaults)
    }

    /// A store on a `UserDefaults` object of the caller's; it shares observers with the
    /// other stores on the same object.
    /// - Parameters:
    ///   - defaults: The defaults.
    ///   - codec: The tree representation; a binary property list by default.
    public init(defaults: UserDefaults, codec: any Codec = .propertyList(.binary)) {
        self.defaults = defaults
        suiteName = nil
        domain = defaults === UserDefaults.standard ? Self.standardDomain : nil
        self.codec = codec
        storageName =
            defaults === UserDefaults.standard ? "\u{0}standard" : "\u{0}\(ObjectIdentifier(defaults))"
        shared = Shared.shared(for: storageName, defaults: defaults)
    }

    /// Registers `value` as the default of `key` with `UserDefaults` (`register(defaults:)`),
    /// in the native form: plain `UserDefaults` reads, Settings bundles and code that does not
    /// use this library see it while the key holds nothing. Registered defaults live in the
    /// process's memory, not in the suite's file: register them at each launch. On Linux,
    /// Foundation keeps one registration domain for the whole process, so every suite sees a
    /// default registered through any of them.
    ///
    /// ```swift
    /// try store.registerDefault(true, forKey: "showsPreview")
    /// UserDefaults.standard.bool(forKey: "showsPreview")   // true
    /// ```
    /// - Parameters:
    ///   - value: The default; `nil` for an optional registers nothing.
    ///   - key: The key.
    /// - Throws: `RawCodingError` if the value cannot be kept as property-list objects.
    public func registerDefault<Value: Encodable>(_ value: Value, forKey key: String) throws(RawCodingError) {
        try checkKey(key)
        let tree: StoredValue
        do throws(RawCodingError) {
            tree = try codec.encodeStoredTree(value)
        } catch {
            throw error.at(key: key)
        }
        guard !tree.isNull else { return }
        defaults.register(defaults: [normalized(key): try Self.object(from: tree, key: key)])
    }

    /// `UserDefaults` compares keys code unit by code unit, Swift by canonical equivalence; the
    /// store uses the composed form (NFC), so keys Swift finds equal are one key.
    private func normalized(_ key: String) -> String { StoreKey.composed(key) }

    public func read(forKey key: String) throws(RawCodingError) -> StoredValue? {
        let key = normalized(key)
        shared.keyObserver.watch(key)
        guard let object = defaults.object(forKey: key) else { return nil }
        return try Self.tree(from: object, key: key)
    }

    public func write(_ value: StoredValue, forKey key: String) throws(RawCodingError) {
        // Not `update`: reading the old value back through the bridge would cost as much as the write.
        try checkKey(key)
        let object = try Self.object(from: value, key: key)
        try changing { () throws(RawCodingError) in
            defaults.set(object, forKey: normalized(key))
            try persist(key)
        }
        shared.broadcaster.send(forKey: key, from: self)
    }

    /// Runs a change of the suite under the lock the instances share, as a change the stores
    /// make (which their own notice reports, not the observation of other writers).
    private func changing<Result>(_ body: () throws(RawCodingError) -> Result) throws(RawCodingError) -> Result {
        try shared.lock.withLock { () throws(RawCodingError) in try shared.keyObserver.storesOwnChange(body) }
    }

    private func checkKey(_ key: String) throws(RawCodingError) {
        guard key != Self.setAsideKey else {
            throw RawCodingError.storage(
                "\"\(key)\" is where set-aside payloads are kept; choose another key", in: UserDefaultsStore.self,
                key: key)
        }
    }

    public func update<Result>(
        forKey key: String, _ body: (inout StoredValue?) throws(RawCodingError) -> Result
    ) throws(RawCodingError) -> Result {
        try checkKey(key)
        let (result, changed) = try changing { () throws(RawCodingError) in
            let old = try read(forKey: key)
            var value = old
            let result = try body(&value)
            guard value != old else { return (result, false) }
            if let value {
                defaults.set(try Self.object(from: value, key: key), forKey: normalized(key))
            } else {
                defaults.removeObject(forKey: normalized(key))
            }
            try persist(key)
            return (result, true)
        }
        if changed { shared.broadcaster.send(forKey: key, from: self) }
        return result
    }

    private static var standardDomain: String {
        Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    }

    /// Writes the suite's file now. Outside Apple systems `UserDefaults` writes it later, and
    /// a process that exits soon after a `set` loses the value (measured: a value set just
    /// before exit was not in the file); on Apple systems the system keeps it, so nothing is done.
    private func persist(_ key: String) throws(RawCodingError) {
        #if !canImport(Darwin)
            guard defaults.synchronize() else {
                throw RawCodingError.storage(
                    "UserDefaults could not write the suite's file (synchronize() returned false); "
                        + "the value is in this process's cache only", in: UserDefaultsStore.self, key: key)
            }
        #endif
    }

    /// The keys of the suite's own domain (for `standard`, the app's domain), without
    /// registered defaults or arguments. For a store made with ``init(defaults:codec:)`` on
    /// another object, every key the object sees but registered defaults and arguments.
    public func keys() throws(RawCodingError) -> [String] {
        let keys: [String]
        if let domain {
            keys = defaults.persistentDomain(forName: domain).map { Array($0.keys) } ?? []
        } else {
            let excluded = Set(defaults.volatileDomain(forName: UserDefaults.registrationDomain).keys)
                .union(defaults.volatileDomain(forName: UserDefaults.argumentDomain).keys)
            keys = defaults.dictionaryRepresentation().keys.filter { !excluded.contains($0) }
        }
        return keys.filter { $0 != Self.setAsideKey }.sorted()
    }

    public func observe(_ handler: @escaping @Sendable (StoreChange) -> Void) -> StoreObservation {
        shared.broadcaster.add(for: self, handler)
    }

    // MARK: Set-aside payloads, as an array of dictionaries under `setAsideKey`

    public func setAside(forKey key: String) throws(RawCodingError) -> SetAsidePayload? {
        let payload = try changing { () throws(RawCodingError) -> SetAsidePayload? in
            guard let payload = try setAsideLocked(key) else { return nil }
            try persist(key)
            return payload
        }
        if payload != nil { shared.broadcaster.send(forKey: key, from: self) }
        return payload
    }

    /// Appends the value of `key` to the set-aside list and removes it; the caller holds the
    /// lock and persists.
    private func setAsideLocked(_ key: String) throws(RawCodingError) -> SetAsidePayload? {
        guard let value = try read(forKey: key) else { return nil }
        var list = try setAsideList()
        let date = Date()
        let id = "\(key)@\(Int64(date.timeIntervalSince1970 * 1000))-\(UUID().uuidString.prefix(8))"
        list.append(["id": .string(id), "key": .string(key), "date": .date(date), "payload": value])
        defaults.set(try Self.object(from: .array(list), key: Self.setAsideKey), forKey: Self.setAsideKey)
        defaults.removeObject(forKey: normalized(key))
        return SetAsidePayload(id: id, key: key, date: date, content: .tree(value))
    }

    public func replace(_ value: StoredValue?, forKey key: String, settingAside: Bool) throws(RawCodingError)
        -> SetAsidePayload?
    {
        try checkKey(key)
        // Bridged before anything moves: a value that cannot be stored leaves the old payload.
        let object = try value.map { value throws(RawCodingError) in try Self.object(from: value, key: key) }
        let payload = try changing { () throws(RawCodingError) -> SetAsidePayload? in
            let payload = settingAside ? try setAsideLocked(key) : nil
            if let object {
                defaults.set(object, forKey: normalized(key))
            } else {
                defaults.removeObject(forKey: normalized(key))
            }
            try persist(key)
            return payload
        }
        shared.broadcaster.send(forKey: key, from: self)
        return payload
    }

    private func setAsideList() throws(RawCodingError) -> [StoredValue] {
        guard let object = defaults.object(forKey: Self.setAsideKey) else { return [] }
        let tree = try Self.tree(from: object, key: Self.setAsideKey)
        guard let list = tree.arrayValue else {
            throw RawCodingError.storage(
                "the set-aside list is \(tree.kindName), not an array; it was left as it is",
                in: UserDefaultsStore.self,
                key: Self.setAsideKey)
        }
        return list
    }

    public func setAsidePayloads() throws(RawCodingError) -> [SetAsidePayload] {
        try changing { () throws(RawCodingError) in
            try setAsideList().map { (entry: StoredValue) throws(RawCodingError) -> SetAsidePayload in
                guard let id = entry["id"]?.stringValue, let key = entry["key"]?.stringValue,
                    let date = entry["date"]?.dateValue, let payload = entry["payload"]
                else {
                    throw RawCodingError.storage(
                        "an entry of the set-aside list lacks its id, key, date or payload", in: UserDefaultsStore.self,
                        key: Self.setAsideKey)
                }
                return SetAsidePayload(id: id, key: key, date: date, content: .tree(payload))
            }
        }
    }

    public func discardSetAside(_ id: String) throws(RawCodingError) {
        try changing { () throws(RawCodingError) in
            let list = try setAsideList().filter { $0["id"]?.stringValue != id }
            if list.isEmpty {
                defaults.removeObject(forKey: Self.setAsideKey)
            } else {
                defaults.set(try Self.object(from: .array(list), key: Self.setAsideKey), forKey: Self.setAsideKey)
            }
            try persist(Self.setAsideKey)
        }
    }
}
