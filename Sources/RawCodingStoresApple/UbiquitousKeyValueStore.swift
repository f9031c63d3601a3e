// Apple platforms only, and not compiled on the machines this package is built and tested on
// (Linux): kept thin, written against documented API only. Its quota checks and change
// handling are the platform-neutral, tested code of RawCodingStores
// (`KeyValueStoreLimits`, `StoreChangeBroadcaster`, `StoreChange.externalChanges`).
#if canImport(Darwin)
    import Foundation
    import RawCoding
    import RawCodingStores

    /// A store in the iCloud key-value store (`NSUbiquitousKeyValueStore`), with its quotas
    /// checked before each write, and changes from other devices reported to observers.
    ///
    /// Set-aside payloads are kept on the device, in `UserDefaults.standard`, so that they do
    /// not count against the iCloud quota.
    ///
    /// On watchOS it needs watchOS 9, where `NSUbiquitousKeyValueStore` first exists.
    @available(watchOS 9, *)
    public final class UbiquitousKeyValueStore: KeyValueStore, @unchecked Sendable {
        /// The iCloud store.
        public let cloud: NSUbiquitousKeyValueStore
        public let codec: any Codec
        /// The quotas checked before each write.
        public let limits: KeyValueStoreLimits

        private let broadcaster = StoreChangeBroadcaster.shared(for: "NSUbiquitousKeyValueStore")
        private let lock = NSLock()
        private let local = UserDefaultsStore(defaults: .standard)
        private var notificationToken: (any NSObjectProtocol)?

        /// A store on `cloud`.
        /// - Parameters:
        ///   - cloud: The iCloud store; `.default` unless testing.
        ///   - limits: Quotas; ``KeyValueStoreLimits/ubiquitousKeyValueStore`` by default.
        ///   - codec: The tree representation; a binary property list by default.
        public init(
            _ cloud: NSUbiquitousKeyValueStore = .default, limits: KeyValueStoreLimits = .ubiquitousKeyValueStore,
            codec: any Codec = .propertyList(.binary)
        ) {
            self.cloud = cloud
            self.limits = limits
            self.codec = codec
            let broadcaster = self.broadcaster
            notificationToken = NotificationCenter.default.addObserver(
                forName: NSUbiquitousKeyValueStore.didChangeExternallyNotification, object: cloud, queue: nil
            ) { notification in
                let keys = notification.userInfo?[NSUbiquitousKeyValueStoreChangedKeysKey] as? [String]
                for change in StoreChange.externalChanges(changedKeys: keys) {
                    broadcaster.send(forKey: change.key, from: nil)
                }
            }
        }

        deinit {
            if let notificationToken { NotificationCenter.default.removeObserver(notificationToken) }
        }

        public func read(forKey key: String) throws(RawCodingError) -> StoredValue? {
            guard let object = cloud.object(forKey: key) else { return nil }
            do throws(RawCodingError) {
                return try StoredValue(propertyList: object)
            } catch {
                throw error.at(key: key)
            }
        }

        public func update<Result>(
            forKey key: String, _ body: (inout StoredValue?) throws(RawCodingError) -> Result
        ) throws(RawCodingError) -> Result {
            lock.lock()
            let outcome: Swift.Result<(Result, Bool), RawCodingError>
            do throws(RawCodingError) {
                let old = try read(forKey: key)
                var value = old
                let result = try body(&value)
                if value != old {
                    if let value {
                        var current: [String: StoredValue] = [:]
                        for (existing, object) in cloud.dictionaryRepresentation {
                            do throws(RawCodingError) {
                                current[existing] = try StoredValue(propertyList: object)
                            } catch {
                                throw error.at(key: existing)
                            }
                        }
                        try limits.check(
                            writing: value, forKey: key, into: current, store: UbiquitousKeyValueStore.self)
                        do throws(RawCodingError) {
                            cloud.set(try value.propertyListObject(), forKey: key)
                        } catch {
                            throw error.at(key: key)
                        }
                    } else {
                        cloud.removeObject(forKey: key)
                    }
                }
                outcome = .success((result, value != old))
            } catch {
                outcome = .failure(error)
            }
            lock.unlock()
            let (result, changed) = try outcome.get()
            if changed { broadcaster.send(forKey: key, from: self) }
            return result
        }

        public func keys() throws(RawCodingError) -> [String] {
            cloud.dictionaryRepresentation.keys.sorted()
        }

        public func observe(_ handler: @escaping @Sendable (StoreChange) -> Void) -> StoreObservation {
            broadcaster.add(for: self, handler)
        }

        public func setAside(forKey key: String) throws(RawCodingError) -> SetAsidePayload? {
            guard let value = try read(forKey: key) else { return nil }
            let localKey = "RawCoding.iCloud.\(key)"
            try local.write(value, forKey: localKey)
            guard let payload = try local.setAside(forKey: localKey) else { return nil }
            try remove(forKey: key)
            return SetAsidePayload(id: payload.id, key: key, date: payload.date, content: payload.content)
        }

        public func setAsidePayloads() throws(RawCodingError) -> [SetAsidePayload] {
            try local.setAsidePayloads().compactMap { payload in
                guard payload.key.hasPrefix("RawCoding.iCloud.") else { return nil }
                var cloudPayload = payload
                cloudPayload.key = String(payload.key.dropFirst("RawCoding.iCloud.".count))
                return cloudPayload
            }
        }

        public func discardSetAside(_ id: String) throws(RawCodingError) {
            try local.discardSetAside(id)
        }
    }
#endif
