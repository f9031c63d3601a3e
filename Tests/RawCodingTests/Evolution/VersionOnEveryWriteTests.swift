import Foundation
import RawCoding
import Testing

/// Version 1 stored degrees Fahrenheit.
private struct Thermostat1: Codable, StoredDefault {
    var fahrenheit: Double
    static let defaultValue = Thermostat1(fahrenheit: 68)
}

/// Version 2 stores Celsius and a room.
private struct Thermostat: Codable, Equatable, StoredVersioned {
    var celsius: Double
    var room: String

    static let storedVersion = 2
    static let migrations: [StoredMigration] = [
        .typed(from: 1, Thermostat1.self) { old in Thermostat(celsius: (old.fahrenheit - 32) / 1.8, room: "hall") }
    ]
}

@Suite("Versions on every write")
struct VersionOnEveryWriteTests {
    private static let study = Thermostat(celsius: 21.5, room: "study")

    @Test(arguments: CodecCase.allCases)
    func everyEncodingCallRecordsTheVersionSoNothingIsMigratedAgain(_ codecCase: CodecCase) throws {
        let codec = codecCase.codec
        var written: [(call: String, data: Data)] = [
            ("encode", try codec.encode(Self.study)),
            ("encodeTree", try codec.writeTree(codec.encodeTree(Self.study))),
            ("encodeStored", try codec.encodeStored(Self.study)),
            ("encodeStoredTree", try codec.writeTree(codec.encodeStoredTree(Self.study))),
        ]
        if let strings = codec as? any StringCodec {
            written.append(("encodeToString", Data(try strings.encodeToString(Self.study).utf8)))
            written.append(("encodeStoredToString", Data(try strings.encodeStoredToString(Self.study).utf8)))
        }
        if codecCase == .json {
            written.append(("RawCodable.rawValue", Data(RawCodable(Self.study).rawValue.utf8)))
            written.append(("RawCodable.encodedRawValue", Data(try RawCodable(Self.study).encodedRawValue().utf8)))
        }
        for (call, data) in written {
            let tree = try codec.readTree(from: data)
            #expect(tree["$version"] == 2, "\(codecCase) \(call) wrote \(tree)")
            let read = try codec.decodeStored(Thermostat.self, from: data)
            #expect(read.value == Self.study, "\(codecCase) \(call)")
            #expect(read.storedVersion == 2)
            // The plain decode reads what the plain encode wrote.
            #expect(try codec.decode(Thermostat.self, from: data) == Self.study, "\(codecCase) \(call)")
        }
        #expect(try RawCodable<Thermostat>(decoding: RawCodable(Self.study).rawValue).wrappedValue == Self.study)
    }

    @Test(arguments: CodecCase.allCases)
    func currentDataWithoutAVersionIsRefusedNotOverwritten(_ codecCase: CodecCase) throws {
        let codec = codecCase.codec
        // What a plain encode of an earlier release wrote: the current shape, no version.
        let unversioned = try codec.writeTree(["celsius": 21.5, "room": "study"])
        let error = try #require(throws: RawCodingError.self) {
            try codec.decodeStored(Thermostat.self, from: unversioned)
        }
        #expect(error.kind == .migrationFailed)
        #expect(error.reason.contains("records no version"))
        #expect(error.reason.contains("\"$version\": 1"))
    }

    @Test(arguments: CodecCase.allCases)
    func versionOneDataWithoutAVersionStillMigrates(_ codecCase: CodecCase) throws {
        let codec = codecCase.codec
        let old = try codec.decodeStored(Thermostat.self, from: codec.writeTree(["fahrenheit": 50]))
        #expect(old.value == Thermostat(celsius: 10, room: "hall"))
        #expect(old.storedVersion == 1)
        #expect(old.unknownKeys.isEmpty)
        // Marked as version 1, the ambiguous payload migrates as the caller says.
        let marked = try codec.decodeStored(
            Thermostat.self, from: codec.writeTree(["$version": 1, "celsius": 21.5, "room": "study"]))
        #expect(marked.value.room == "hall")
    }
}
