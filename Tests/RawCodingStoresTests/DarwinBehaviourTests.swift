// The Darwin claims of the RawCodingStores article "Darwin and Linux", checked where they hold:
// on any Mac (`swift test`, or the GitHub workflow's macOS job). Not compiled on Linux.
#if canImport(Darwin)
    import Foundation
    import RawCoding
    import RawCodingStores
    import Testing

    @Suite("Darwin's Foundation, as the stores rely on it")
    struct DarwinBehaviourTests {
        static func suite() -> String { "RawCodingStoresTests.Darwin.\(UUID().uuidString)" }

        /// A Boolean and a number are both NSNumber on Darwin, and `as?` converts between them;
        /// the bridge keeps their kinds anyway.
        @Test func booleansAndNumbersKeepTheirKindsThroughUserDefaults() throws {
            let suite = Self.suite()
            defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
            let store = UserDefaultsStore(suiteName: suite)
            let tree: StoredValue = ["flag": true, "one": 1, "zero": 0, "off": false, "ratio": 1.0]
            try store.write(tree, forKey: "kinds")
            #expect(try store.read(forKey: "kinds") == tree)
            let object = try #require(UserDefaults(suiteName: suite)?.dictionary(forKey: "kinds"))
            // What makes the bridge necessary: Foundation's own casts mix the kinds up.
            #expect(object["one"] as? Bool == true)
            #expect(object["flag"] as? Int == 1)
        }

        /// Darwin keeps a date's fraction: it is stored as a plain date, without the
        /// `RawCoding.date` dictionary the store uses on Linux.
        @Test func aDateWithAFractionIsKeptAsAPlainDate() throws {
            let suite = Self.suite()
            defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
            let store = UserDefaultsStore(suiteName: suite)
            let date = Date(timeIntervalSinceReferenceDate: 123_456_789.25)
            try store.write(["at": .date(date)], forKey: "times")
            #expect(try store.read(forKey: "times") == ["at": .date(date)])
            let object = try #require(UserDefaults(suiteName: suite)?.dictionary(forKey: "times"))
            #expect(object["at"] as? Date == date)
        }

        /// Without `synchronize()`, a value set through one `UserDefaults` object is seen by
        /// another on the same suite, and by a new store on it.
        @Test func aValueReachesAnotherDefaultsObjectWithoutSynchronize() throws {
            let suite = Self.suite()
            defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
            try UserDefaultsStore(suiteName: suite).write("ada", forKey: "name")
            #expect(UserDefaults(suiteName: suite)?.string(forKey: "name") == "ada")
            #expect(try UserDefaultsStore(suiteName: suite).read(forKey: "name") == "ada")
            #expect(try UserDefaultsStore(suiteName: suite).keys() == ["name"])
        }
    }
#endif
