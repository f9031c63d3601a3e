import Foundation
import Testing

@Suite("The seed apps run and store what they say")
struct ExampleTests {
    func run(_ name: String, _ arguments: [String] = []) throws -> String {
        let result = try Probe(arguments, executable: name).finish()
        #expect(result.status == 0, "\(name) exited with \(result.status): \(result.output)")
        return result.output
    }

    @Test func settingsFormMovesReleaseOnesKeysIntoTheStruct() throws {
        let suite = "RawCodingStoresTests.Example.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let first = try run("SettingsFormExample", ["--suite", suite])
        #expect(first.contains(#"moved release 1's keys into "settings": privateAccount, ringtone, username"#))
        #expect(first.contains("the form saw a change made in the other window"))
        #expect(
            first.contains(#"stored under "settings": {"isPrivate": false, "ringtone": "radar", "username": "ada"}"#))
        #expect(first.contains("keys in the suite: settings\n"))
        // The next run reads the struct and moves nothing.
        let second = try run("SettingsFormExample", ["--suite", suite])
        #expect(!second.contains("moved"))
        #expect(
            second.contains(
                #"read: Settings(username: "ada", isPrivate: false, ringtone: SettingsFormExample.Settings.Ringtone.radar)"#
            ))
        #expect(
            second.contains(#"stored under "settings": {"isPrivate": true, "ringtone": "radar", "username": "ada"}"#))
    }

    @Test func defaultsDictionaryStoresRealPropertyListValues() throws {
        let output = try run("DefaultsDictionaryExample")
        #expect(
            output.contains(
                #"stored: {"lastOpened": date(2025-12-01T00:00:00.000Z), "recentSearches": ["swift", "plist"], "volume": 0.8, "window": {"height": 600, "width": 800}}"#
            ))
        #expect(
            output.contains("UserDefaults holds a dictionary with keys: lastOpened, recentSearches, volume, window"))
        #expect(output.contains("refused: encodingFailed at preferences.missing"))
        #expect(output.contains("still stored: lastOpened, recentSearches, volume, window"))
    }

    @Test func cloudSettingFollowsOtherDevicesAndKeepsTheirFields() throws {
        let output = try run("CloudSettingExample")
        #expect(output.contains("view shows: moby-dick page 42"))
        #expect(output.contains(#"stored: {"bookID": "moby-dick", "page": 42, "fontSize": 14}"#))
        #expect(output.contains("refused: the key is 72 bytes long, over the limit of 64 bytes; nothing was written"))
    }
}
