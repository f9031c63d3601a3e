import Foundation
import RawCoding
import Testing

/// Version 1 stored degrees Fahrenheit.
private struct Heater1: Codable {
    var fahrenheit: Double
}

/// Version 2 stores Celsius.
private struct Heater: Codable, Equatable, StoredVersioned {
    var celsius: Double

    static let storedVersion = 2
    static let migrations: [StoredMigration] = [
        .typed(from: 1, Heater1.self) { old in Heater(celsius: (old.fahrenheit - 32) / 1.8) }
    ]
}

/// One rule for `"$version"` in a plain decode: the current version is read, no version is
/// taken for the current shape, and any other version is refused with the way to migrate it,
/// in every codec, from bytes and from trees.
@Suite("Versions in a plain decode")
struct PlainDecodeVersionTests {
    @Test(arguments: CodecCase.allCases)
    func aPlainDecodeReadsTheCurrentVersionAndRefusesAnother(_ codecCase: CodecCase) throws {
        let codec = codecCase.codec
        let current = try codec.writeTree(["$version": 2, "celsius": 20.0])
        #expect(try codec.decode(Heater.self, from: current) == Heater(celsius: 20))
        let unversioned = try codec.writeTree(["celsius": 20.0])
        #expect(try codec.decode(Heater.self, from: unversioned) == Heater(celsius: 20))

        // Version 1 also has a "celsius"-free shape; version 1 with a stray "celsius" key would
        // have decoded as the current type before, silently ignoring the recorded version.
        let old = try codec.writeTree(["$version": 1, "fahrenheit": 212.0, "celsius": 0.0])
        for (call, decode) in [
            ("from bytes", { try codec.decode(Heater.self, from: old) }),
            ("from the tree", { try codec.decode(Heater.self, fromTree: codec.readTree(from: old)) }),
        ] as [(String, () throws -> Heater)] {
            let error = try #require(throws: RawCodingError.self, "\(codecCase) \(call)") { try decode() }
            #expect(error.kind == .migrationFailed, "\(codecCase) \(call)")
            #expect(error.reason.contains("decodeStored"), "\(codecCase) \(call): \(error.reason)")
            #expect(error.codingPathDescription.contains("$version"), "\(codecCase) \(call)")
        }
        // The evolving call migrates it.
        #expect(try codec.decodeStored(Heater.self, from: old).value == Heater(celsius: 100))

        let newer = try codec.writeTree(["$version": 3, "celsius": 20.0])
        let error = try #require(throws: RawCodingError.self) { try codec.decode(Heater.self, from: newer) }
        #expect(error.kind == .migrationFailed)
        #expect(error.reason.contains("newer version"), "\(error.reason)")
    }

    /// Types that are not versioned read a `"$version"` key like any other key.
    @Test(arguments: CodecCase.allCases)
    func anUnversionedTypeIgnoresTheKey(_ codecCase: CodecCase) throws {
        struct Plain: Codable, Equatable { var celsius: Double }
        let codec = codecCase.codec
        #expect(
            try codec.decode(Plain.self, from: codec.writeTree(["$version": 1, "celsius": 5.0])) == Plain(celsius: 5))
    }
}
