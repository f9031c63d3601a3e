import Foundation
import RawCoding
import Testing

// Default filling, migrations and unknown keys through a codec that only implements encode and
// decode: the tree level comes from the protocol's default implementations.

private struct Card: Codable, Equatable, StoredVersioned, StoredDefault, CustomRawValueCodec {
    var title: String
    var pinned = false
    var created: Date

    static let storedVersion = 2
    static let migrations: [StoredMigration] = [.tree(from: 1) { tree in tree.renameKey("name", to: "title") }]
    static let defaultValue = Card(title: "", created: Date(timeIntervalSinceReferenceDate: 0))
    static var rawValueCodec: FoundationJSONCodec { FoundationJSONCodec() }
}

private struct OldCard: Codable, Equatable {
    var title: String
    var created: Date
}

@Suite("Stored forms through a codec defined outside the package")
struct ForeignCodecEvolutionTests {
    @Test func aLegacyPayloadMigratesFillsAndIsWrittenAtTheCurrentVersion() throws {
        let codec = FoundationJSONCodec()
        let legacy = Data(#"{"created":86400,"name":"Groceries"}"#.utf8)
        let stored = try codec.decodeStored(Card.self, from: legacy)
        #expect(
            stored.value
                == Card(title: "Groceries", pinned: false, created: Date(timeIntervalSinceReferenceDate: 86_400)))
        #expect(stored.storedVersion == 1)
        #expect(stored.filledKeyPaths == ["pinned"])
        let written = try codec.encodeStored(stored.value)
        #expect(
            String(decoding: written, as: UTF8.self)
                == #"{"$version":2,"created":86400,"pinned":false,"title":"Groceries"}"#)
        #expect(try codec.decodeStored(Card.self, from: written).value == stored.value)
    }

    @Test func rawCodableWithTheForeignCodecMigratesAndKeepsUnknownKeys() throws {
        var card = try #require(RawCodable<Card>(rawValue: #"{"name":"Trip","created":0,"color":"red"}"#))
        #expect(card.title == "Trip")
        card.pinned = true
        #expect(card.rawValue == #"{"$version":2,"color":"red","created":0,"pinned":true,"title":"Trip"}"#)
    }

    @Test func anOlderModelKeepsTheNewerKeysAndAWrongTypeIsStillAnError() throws {
        let codec = FoundationJSONCodec()
        let newer = Data(#"{"$version":2,"created":5,"pinned":true,"title":"Trip"}"#.utf8)
        let old = try codec.decodeStored(OldCard.self, from: newer)
        #expect(old.unknownKeys.keyPaths == ["$version", "pinned"])
        let written = try codec.encodeStored(old.value, keeping: old.unknownKeys)
        #expect(String(decoding: written, as: UTF8.self) == #"{"$version":2,"created":5,"pinned":true,"title":"Trip"}"#)

        let error = #expect(throws: RawCodingError.self) {
            try codec.decodeStored(
                Card.self, from: Data(#"{"$version":2,"created":5,"pinned":"yes","title":"x"}"#.utf8))
        }
        #expect(error?.kind == .decodingFailed)
        #expect(error?.codingPathDescription == "pinned")
        #expect(error?.typeName.hasSuffix("Card") == true)

        let newerStill = #expect(throws: RawCodingError.self) {
            try codec.decodeStored(Card.self, from: Data(#"{"$version":3,"created":5,"title":"x"}"#.utf8))
        }
        #expect(newerStill?.kind == .migrationFailed)
    }
}
