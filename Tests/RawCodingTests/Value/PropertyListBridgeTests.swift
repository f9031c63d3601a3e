import Foundation
import RawCoding
import Testing

/// The bridge against a real `UserDefaults` suite on this machine (persisted under
/// `~/.config/<suite>.plist` on Linux), both directions.
@Suite("Property-list bridge and UserDefaults", .serialized)
struct PropertyListBridgeTests {
    struct Preferences: Codable, Equatable {
        struct Window: Codable, Equatable {
            var width: Int
            var zoom: Double
            var fullScreen: Bool
        }
        var theme: String
        var launches: Int
        var volume: Double
        var notifications: Bool
        var window: Window
        var recent: [String]
        var lastOpened: Date
        var token: Data
        var huge: UInt64
    }

    static let preferences = Preferences(
        theme: "dark", launches: 1, volume: 0.0, notifications: true,
        window: Preferences.Window(width: 0, zoom: 1.0, fullScreen: false),
        recent: ["a.txt", "b.txt"], lastOpened: Date(timeIntervalSinceReferenceDate: 812_345_678.5),
        token: Data([0xDE, 0xAD]), huge: UInt64.max)

    /// A fresh suite, removed (with its file) after `body`.
    func withSuite(_ body: (UserDefaults) throws -> Void) throws {
        let name = "rawcoding-bridge-test-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: name))
        defer {
            defaults.removePersistentDomain(forName: name)
            let base =
                ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
                ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
            let file = base.appendingPathComponent("\(name).plist")
            if FileManager.default.fileExists(atPath: file.path) {
                do { try FileManager.default.removeItem(at: file) } catch {
                    Issue.record("could not remove \(file.path): \(error)")
                }
            }
        }
        try body(defaults)
    }

    @Test func writtenThroughTheBridgeReadBackThroughUserDefaults() throws {
        try withSuite { defaults in
            let tree = try StoredValueEncoder().encode(Self.preferences)
            defaults.set(try tree.propertyListObject(), forKey: "preferences")
            defaults.synchronize()

            let stored = try #require(defaults.dictionary(forKey: "preferences"))
            // What UserDefaults itself hands back keeps Bool and numbers apart.
            let window = try StoredValue(propertyList: try #require(stored["window"]))
            #expect(window["fullScreen"] == .bool(false))
            #expect(window["width"] == .int(0))
            #expect(window["zoom"] == .double(1))
            #expect(defaults.dictionary(forKey: "preferences")?["theme"] as? String == "dark")

            let back = try StoredValue(propertyList: stored)
            #expect(back == tree)
            #expect(try StoredValueDecoder().decode(Preferences.self, from: back) == Self.preferences)
        }
    }

    @Test func writtenByUserDefaultsReadThroughTheBridge() throws {
        try withSuite { defaults in
            let date = Date(timeIntervalSinceReferenceDate: 1_000)
            defaults.set(
                [
                    "flag": true, "zero": 0, "one": 1, "half": 0.5, "name": "x",
                    "nested": ["inner": ["deep": false, "count": 2] as [String: Any]] as [String: Any],
                    "list": [1, true, "s", 2.5] as [Any],
                    "date": date, "data": Data([1, 2]),
                ] as [String: Any], forKey: "settings")
            defaults.set(true, forKey: "bool")
            defaults.set(1, forKey: "int")
            defaults.set(UInt64.max, forKey: "unsigned")

            let settings = try StoredValue(propertyList: try #require(defaults.dictionary(forKey: "settings")))
            #expect(
                settings == [
                    "flag": true, "zero": 0, "one": 1, "half": 0.5, "name": "x",
                    "nested": ["inner": ["deep": false, "count": 2]],
                    "list": [1, true, "s", 2.5],
                    "date": .date(date), "data": .data(Data([1, 2])),
                ])
            #expect(try StoredValue(propertyList: try #require(defaults.object(forKey: "bool"))) == .bool(true))
            #expect(try StoredValue(propertyList: try #require(defaults.object(forKey: "int"))) == .int(1))
            #expect(
                try StoredValue(propertyList: try #require(defaults.object(forKey: "unsigned"))) == .uint(UInt64.max))
        }
    }

    @Test func readmeValueTreeExampleWorksAsWritten() throws {
        try withSuite { defaults in
            let settings = SampleSettings.sample
            // From README.md, "The value tree".
            let tree = try StoredValueEncoder().encode(settings)
            let email = tree["account"]?["email"]?.stringValue
            defaults.set(try tree.propertyListObject(), forKey: "settings")

            var restored: SampleSettings?
            if let object = defaults.object(forKey: "settings") {
                restored = try StoredValueDecoder().decode(SampleSettings.self, from: StoredValue(propertyList: object))
            }
            #expect(email == "me@example.com")
            #expect(restored == settings)
        }
    }

    @Test func foundationBoxedNumbersKeepTheirKind() throws {
        let object = try JSONSerialization.jsonObject(
            with: Data(#"{"t":true,"f":false,"one":1,"zero":0,"d":2.5,"big":18446744073709551615,"n":null}"#.utf8))
        #expect(
            try StoredValue(propertyList: object) == [
                "t": true, "f": false, "one": 1, "zero": 0, "d": 2.5, "big": .uint(UInt64.max), "n": .null,
            ])
        #expect(try StoredValue(propertyList: NSNumber(value: true)) == .bool(true))
        #expect(try StoredValue(propertyList: NSNumber(value: 1)) == .int(1))
        #expect(try StoredValue(propertyList: NSNumber(value: Int8(1))) == .int(1))
        #expect(try StoredValue(propertyList: Float(0.5)) == .double(0.5))
    }

    @Test func dictionariesFromFoundationAreReadInKeyOrder() throws {
        let tree = try StoredValue(propertyList: ["b": 1, "a": 2, "é": 3, "Z": 4] as [String: Any])
        #expect(tree.dictionaryValue?.keys == ["Z", "a", "b", "é"])
    }

    @Test func nonPropertyListValuesAreRejectedWithTheirKeyPath() throws {
        let cases: [(Any, String, String)] = [
            (["settings": ["links": ["ok", URL(string: "https://x")!]]] as [String: Any], "settings.links[1]", "URL"),
            (["a": [1: "one"]] as [String: Any], "a", "not a string"),
            (["a": Optional<Int>.none as Any] as [String: Any], "a", "nil"),
            ([UUID()] as [Any], "[0]", "UUID"),
        ]
        for (object, path, reason) in cases {
            do {
                _ = try StoredValue(propertyList: object)
                Issue.record("accepted \(object)")
            } catch {
                #expect(error.kind == .decodingFailed)
                #expect(error.codingPathDescription == path, "\(error)")
                #expect(error.reason.contains(reason), "\(error)")
            }
        }
    }

    @Test func nullCannotBecomeAPropertyListAndSaysWhere() throws {
        let tree: StoredValue = ["a": [1, ["b": .null]]]
        do {
            _ = try tree.propertyListObject()
            Issue.record("null accepted")
        } catch {
            #expect(error.kind == .encodingFailed)
            #expect(error.codingPathDescription == "a[1].b")
        }
    }

    @Test func nestingBeyondTheLimitIsAnError() throws {
        // (A self-containing NSMutableArray cannot be tested: on Linux, Foundation itself
        // overflows the stack bridging its first element, before any code of ours runs.)
        var object: Any = "leaf"
        for _ in 0..<600 { object = [object] }
        do {
            _ = try StoredValue(propertyList: object)
            Issue.record("600 levels accepted")
        } catch {
            #expect(error.reason.contains("nested deeper than 512 levels"))
        }
        var shallow: Any = "leaf"
        for _ in 0..<500 { shallow = [shallow] }
        #expect(throws: Never.self) { try StoredValue(propertyList: shallow) }
    }
}
