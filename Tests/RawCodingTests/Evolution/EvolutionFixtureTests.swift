import Foundation
import RawCoding
import RawCodingTesting
import Testing

/// The settings model's stored forms from every release, in every codec. Versions 1 (no
/// version recorded) and 2 were written once by those releases' models and are never
/// re-recorded: each file is pinned by its SHA-256, so a changed old fixture fails here.
@Suite("Stored forms of every release")
struct EvolutionFixtureTests {
    struct Pin: Sendable, CustomTestStringConvertible {
        var codec: CodecCase
        var version: Int
        var sha256: String
        var testDescription: String { "v\(version) \(codec.rawValue)" }
    }

    static let pins: [Pin] = [
        Pin(
            codec: .binaryPropertyList, version: 1,
            sha256: "d6751c8d84042cee9c1df34b722585949afa57ee99f1b69b0d6bcba70cd27052"),
        Pin(codec: .json, version: 1, sha256: "29e587c90bd184ff60fe959efddfcb1c0e4922b83132e8d2d49425bdbeeb6137"),
        Pin(codec: .jsonPretty, version: 1, sha256: "aae93c1cbfd03cd774e6222b4bcbdc92c597ee9cf6f34788026d28348a2cfe4d"),
        Pin(
            codec: .xmlPropertyList, version: 1,
            sha256: "08ad47261e8e29fea8a1752f3eb1501990d2f924735a69775bbbbe3f8b49f05e"),
        Pin(
            codec: .binaryPropertyList, version: 2,
            sha256: "72993d69c2c27e12c9ac7a222807c34268c244dfadd424b0b3e15d9762960250"),
        Pin(codec: .json, version: 2, sha256: "43b7f880587359f1bd5a01244d2e300676b3cbff9a44dc58b0c0a2bc1534d643"),
        Pin(codec: .jsonPretty, version: 2, sha256: "d0e9d52ce10911d071807f11d9430df25ae04fc0544e93d33d09c005ed14f0c6"),
        Pin(
            codec: .xmlPropertyList, version: 2,
            sha256: "1546d66fe5ae09df690e1cceb0d16e95d53b409f458bd3591e1c52775a9e13ab"),
        Pin(
            codec: .binaryPropertyList, version: 3,
            sha256: "cfb7836bbe5257e047dc838c44ad8e0283f4e5e5633be3c5ecefae53b78bb417"),
        Pin(codec: .json, version: 3, sha256: "551805dca86c10a60f9c2a5fd8c9469f56c47e60700525040aec73dfc75a2d68"),
        Pin(codec: .jsonPretty, version: 3, sha256: "e84456709ea40c0a194f2ea39aa101ab774b4325e46d9ad27b6765e6ee372023"),
        Pin(
            codec: .xmlPropertyList, version: 3,
            sha256: "8361f8d949117b90578cfadecf9b452cca2678042d25e064ba70917d36d66157"),
    ]

    @Test(arguments: pins)
    func everyReleasesPayloadDecodesIntoTheCurrentModel(_ pin: Pin) {
        let expected = [1: EvolvingSettings.v1Expected, 2: EvolvingSettings.v2Expected, 3: EvolvingSettings.sample]
        expectDecodes(
            EvolvingSettings.self, fixture: "Settings-v\(pin.version)", pin.codec.codec,
            as: expected[pin.version]!, sha256: pin.sha256)
    }

    @Test(arguments: CodecCase.allCases)
    func theCurrentFormRoundTripsAtTheCurrentVersion(_ codecCase: CodecCase) throws {
        // Settings-v3.<extension>: the version is in the name.
        let sample = EvolvingSettings.sample
        switch codecCase {
        case .json: expectRoundTrip(of: sample, fixture: "Settings", JSONCodec.json)
        case .jsonPretty: expectRoundTrip(of: sample, fixture: "Settings", JSONCodec.json(.pretty))
        case .xmlPropertyList: expectRoundTrip(of: sample, fixture: "Settings", .propertyList(.xml))
        case .binaryPropertyList: expectRoundTrip(of: sample, fixture: "Settings", .propertyList(.binary))
        }
        let codec = codecCase.codec
        for version in 1...2 {
            let old = try Data(
                contentsOf: PackagePaths.root.appendingPathComponent(
                    "Fixtures/EvolutionFixtureTests/Settings-v\(version).\(codec.fileExtension)"))
            let stored = try codec.decodeStored(EvolvingSettings.self, from: old)
            #expect(stored.storedVersion == version)
            #expect(stored.isOutdated)
            let rewritten = try codec.readTree(from: codec.encodeStored(stored.value, keeping: stored.unknownKeys))
            #expect(rewritten["$version"] == 3)
            #expect(rewritten == (try codec.encodeStoredTree(stored.value)))
        }
    }
}
