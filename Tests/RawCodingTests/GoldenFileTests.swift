import Foundation
import RawCoding
import Testing

/// `SampleSettings.sample` in every codec, compared byte for byte with `Fixtures/Golden/`.
///
/// To re-record after a deliberate format change: `RAWCODING_RECORD=1 swift test --filter GoldenFile`,
/// review the diff, commit. A recording run always fails so it never passes silently.
@Suite("Golden files")
struct GoldenFileTests {
    static let directory = PackagePaths.fixtures.appendingPathComponent("Golden")

    @Test(arguments: CodecCase.allCases)
    func sampleSettingsMatchesGoldenFile(_ codec: CodecCase) throws {
        let file = Self.directory.appendingPathComponent("SampleSettings.\(codec.fileExtension)")
        let encoded = try codec.codec.encode(SampleSettings.sample)
        if ProcessInfo.processInfo.environment["RAWCODING_RECORD"] != nil {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try encoded.write(to: file)
            Issue.record("Recorded \(file.path); unset RAWCODING_RECORD and run again")
            return
        }
        let golden = try Data(contentsOf: file)
        #expect(encoded == golden, "encoding differs from \(file.lastPathComponent): first difference at byte \(Self.firstDifference(encoded, golden))")
        #expect(try codec.codec.decode(SampleSettings.self, from: golden) == SampleSettings.sample)
    }

    @Test func rawValueMatchesTheCompactJSONGoldenFile() throws {
        let golden = try String(contentsOf: Self.directory.appendingPathComponent("SampleSettings.json"), encoding: .utf8)
        #expect(RawCodable(SampleSettings.sample).rawValue == golden)
    }

    static func firstDifference(_ lhs: Data, _ rhs: Data) -> Int {
        zip(lhs, rhs).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(lhs.count, rhs.count)
    }
}
