import Foundation
import RawCoding
import Testing

/// What an older release of the app knows of the settings.
private struct OlderSettings: Codable, Equatable {
    struct Account: Codable, Equatable {
        var email: String
        var nickname: String?
    }
    var name: String
    var account: Account
    var history: [Account]
    var labels: [String: String]
}

/// What a newer release writes: keys the older one has never heard of, at every level.
private let newerPayload: StoredValue = [
    "name": "ada",
    "theme": "dark",
    "account": ["email": "ada@example.com", "nickname": "countess", "color": "teal", "plan": ["tier": "pro"]],
    "history": [["email": "old@example.com", "since": 2019]],
    "labels": ["home": "Home"],
]

@Suite("Forward compatibility: unknown keys")
struct UnknownKeysTests {
    @Test(arguments: CodecCase.allCases)
    func anOlderModelWritingBackANewerPayloadKeepsTheKeysItDoesNotKnow(_ codecCase: CodecCase) throws {
        let codec = codecCase.codec
        let stored = try codec.decodeStored(OlderSettings.self, from: codec.writeTree(newerPayload))
        #expect(stored.unknownKeys.keyPaths == ["account.color", "account.plan", "theme"])
        #expect(!stored.isOutdated)

        var settings = stored.value
        settings.name = "ada lovelace"
        settings.account.nickname = nil  // a key it knows, cleared: stays cleared
        let written = try codec.readTree(from: codec.encodeStored(settings, keeping: stored.unknownKeys))

        var expected = newerPayload
        expected["name"] = "ada lovelace"
        expected["account"]?["nickname"] = nil
        // Inside arrays nothing is kept: elements have no identity to keep keys by.
        expected["history"] = [["email": "old@example.com"]]
        #expect(written == expected)
        // Without asking, the unknown keys are not written.
        #expect(try codec.readTree(from: codec.encode(settings))["theme"] == nil)
    }

    @Test func rawCodableKeepsUnknownKeysThroughAnEdit() throws {
        let text = try JSONCodec().encodeToString(newerPayload)
        var stored = try #require(RawCodable<OlderSettings>(rawValue: text))
        #expect(stored.unknownKeys.keyPaths == ["account.color", "account.plan", "theme"])
        stored.name = "grace"
        let written = try JSONCodec().readTree(from: Data(stored.rawValue.utf8))
        #expect(written["theme"] == "dark")
        #expect(written["account"]?["plan"] == ["tier": "pro"])
        #expect(written["name"] == "grace")
        #expect(RawCodable(stored.wrappedValue).unknownKeys.isEmpty)
    }

    @Test func snakeCaseKeysTheModelKnowsAreNotTakenForUnknownOnes() throws {
        struct Profile: Codable, Equatable {
            var fullName: String
            var homePage: String?
        }
        let codec = JSONCodec(keys: .snakeCase)
        let stored = try codec.decodeStored(
            Profile.self, from: Data(#"{"full_name":"Ada","home_page":"x","shoe_size":41}"#.utf8))
        #expect(stored.unknownKeys.keyPaths == ["shoe_size"])
        var profile = stored.value
        profile.homePage = nil
        let written = try codec.encodeStoredToString(profile, keeping: stored.unknownKeys)
        #expect(written == #"{"full_name":"Ada","shoe_size":41}"#)
    }

    @Test func unknownKeysOfAVersionedPayloadSurviveItsMigration() throws {
        var legacy = try JSONCodec().encodeTree(SettingsV1.sample)
        legacy["wallpaper"] = "stars"
        let stored = try JSONCodec().decodeStored(EvolvingSettings.self, from: JSONCodec().writeTree(legacy))
        #expect(stored.unknownKeys.keyPaths == ["wallpaper"])
        let written = try JSONCodec().readTree(
            from: JSONCodec().encodeStored(stored.value, keeping: stored.unknownKeys))
        #expect(written["wallpaper"] == "stars")
        #expect(written["$version"] == 3)
        #expect(written["name"] == nil)
    }

    @Test func writingBackMoreThanTheLimitsAllowIsRefused() throws {
        let codec = JSONCodec(limits: Limits(maximumInputBytes: 200))
        let payload = Data(
            #"{"name":"a","account":{"email":"e"},"history":[],"labels":{},"note":"\#(String(repeating: "x", count: 120))"}"#
                .utf8)
        let stored = try codec.decodeStored(OlderSettings.self, from: payload)
        var settings = stored.value
        settings.name = String(repeating: "n", count: 60)
        let error = #expect(throws: RawCodingError.self) {
            try codec.encodeStored(settings, keeping: stored.unknownKeys)
        }
        #expect(error?.kind == .encodingFailed)
        #expect(error?.typeName.hasSuffix("OlderSettings") == true)
    }
}
