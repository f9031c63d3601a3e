import Foundation
import RawCoding
import Testing

/// The first release of a profile.
private struct ProfileV1: Codable, Equatable {
    struct Account: Codable, Equatable { var email: String }
    var name: String
    var account: Account
    var tags: [String]
}

/// The profile after a field was added at the top and inside the nested account.
private struct Profile: Codable, Equatable, StoredDefault {
    struct Account: Codable, Equatable {
        var email: String
        var color = "blue"
    }
    var name: String
    var volume = 0.5
    var account: Account
    var tags: [String]
    var nickname: String?
    var scores: [String: Int] = ["chess": 1]

    static let defaultValue = Profile(
        name: "", account: Account(email: "", color: "blue"), tags: ["default"], nickname: "pal")
}

private let oldProfile = ProfileV1(name: "ada", account: .init(email: "ada@example.com"), tags: [])
private let oldProfileRead = Profile(
    name: "ada", volume: 0.5, account: .init(email: "ada@example.com", color: "blue"), tags: [], nickname: nil,
    scores: ["chess": 1])

@Suite("Default-filling decode")
struct DefaultFillingTests {
    @Test(arguments: CodecCase.allCases)
    func addedFieldsDecodeOldDataThroughEveryCodec(_ codecCase: CodecCase) throws {
        let codec = codecCase.codec
        let old = try codec.encode(oldProfile)
        #expect(throws: RawCodingError.self) { try codec.decode(Profile.self, from: old) }

        let stored = try codec.decodeStored(Profile.self, from: old)
        #expect(stored.value.name == "ada")
        #expect(stored.value.volume == 0.5)
        #expect(stored.value.account == .init(email: "ada@example.com", color: "blue"))
        #expect(stored.filledKeyPaths.sorted() == ["account.color", "scores", "volume"])
        #expect(stored.isOutdated)
        #expect(stored.storedVersion == nil)
        #expect(
            try codec.decodeStored(Profile.self, from: old, defaultValue: Profile.defaultValue).value == stored.value)
    }

    @Test func addedFieldsDecodeOldDataThroughRawCodable() throws {
        let old = try JSONCodec().encodeToString(oldProfile)
        let stored = try #require(RawCodable<Profile>(rawValue: old))
        #expect(stored.wrappedValue == oldProfileRead)
        #expect(try RawCodable<Profile>(decoding: old).volume == 0.5)
        // Written back, it has every field.
        #expect(RawCodable(stored.wrappedValue).rawValue.contains(#""volume":0.5"#))
    }

    @Test func anExplicitDefaultFillsATypeWithoutStoredDefault() throws {
        let text = #"{"name":"ada","account":{"email":"ada@example.com"},"tags":[]}"#
        let value = try JSONCodec().decodeStored(
            SampleSettings.Account.self, from: #"{"id":7}"#,
            defaultValue: SampleSettings.Account(id: 0, joined: Date(timeIntervalSinceReferenceDate: 12))
        ).value
        #expect(value == SampleSettings.Account(id: 7, joined: Date(timeIntervalSinceReferenceDate: 12)))
        #expect(
            try JSONCodec().decodeStored(Profile.self, from: text, defaultValue: Profile.defaultValue).value.volume
                == 0.5)
    }

    @Test(arguments: CodecCase.allCases)
    func aPresentKeyOfTheWrongTypeIsStillAnError(_ codecCase: CodecCase) throws {
        let codec = codecCase.codec
        var tree = try codec.encodeTree(oldProfileRead)
        tree["volume"] = "loud"
        tree["account"]?["color"] = 3
        let data = try codec.writeTree(tree)
        let error = #expect(throws: RawCodingError.self) { try codec.decodeStored(Profile.self, from: data) }
        #expect(error?.kind == .decodingFailed)
        #expect(["volume", "account.color"].contains(error?.codingPathDescription))
        #expect(error?.typeName.hasSuffix("Profile") == true)
    }

    @Test func aMissingOptionalStaysNilAndArraysAndDictionariesStayAsStored() throws {
        // The default has a nickname, tags and a score; the stored value chose none of them.
        let text = #"{"name":"ada","volume":1,"account":{"email":"e","color":"red"},"tags":[],"scores":{}}"#
        let value = try JSONCodec().decodeStored(Profile.self, from: text)
        #expect(value.value.nickname == nil)
        #expect(value.value.tags == [])
        #expect(value.value.scores == [:])
        #expect(value.filledKeyPaths == [])
        #expect(!value.isOutdated)
    }

    @Test func aMissingKeyWithoutADefaultIsReportedAsMissing() throws {
        let error = #expect(throws: RawCodingError.self) {
            try JSONCodec().decodeStored(ProfileV1.self, from: #"{"name":"ada","tags":[]}"#)
        }
        #expect(error?.codingPathDescription == "account")
        #expect(error?.description.contains("required key \"account\" is missing") == true)
        #expect(error?.typeName.hasSuffix("ProfileV1") == true)
    }

    @Test func arrayElementsWithTheirOwnDefaultAreFilledFromIt() throws {
        struct Item: Codable, Equatable, StoredDefault {
            var title: String
            var done = false
            static let defaultValue = Item(title: "")
        }
        struct List: Codable, Equatable { var items: [Item] }
        let stored = try JSONCodec().decodeStored(
            List.self, from: #"{"items":[{"title":"a"},{"title":"b","done":true}]}"#)
        #expect(stored.value.items == [Item(title: "a"), Item(title: "b", done: true)])
        #expect(stored.filledKeyPaths == ["items[0].done"])
    }

    @Test func nestedWrappersAndDatesKeepTheirCodecsRepresentation() throws {
        struct Event: Codable, Equatable, StoredDefault {
            var at: Date
            var settings: RawCodable<SampleSettings>
            var added = Date(timeIntervalSinceReferenceDate: 1.5)
            static let defaultValue = Event(at: .init(timeIntervalSinceReferenceDate: 0), settings: RawCodable(.sample))
        }
        for codec in [JSONCodec(dates: .iso8601), JSONCodec(keys: .snakeCase)] {
            var tree = try codec.encodeTree(
                Event(at: Date(timeIntervalSinceReferenceDate: 86_400), settings: RawCodable(.sample)))
            tree["added"] = nil
            tree["settings"]?["theme"] = nil
            let stored = try codec.decodeStored(Event.self, fromTree: tree)
            #expect(stored.value.at == Date(timeIntervalSinceReferenceDate: 86_400))
            #expect(stored.value.added == Date(timeIntervalSinceReferenceDate: 1.5))
            #expect(stored.value.settings.wrappedValue == .sample)
            #expect(stored.filledKeyPaths.sorted() == ["added", "settings.theme"])
        }
    }
}
