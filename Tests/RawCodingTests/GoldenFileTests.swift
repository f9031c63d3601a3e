import Foundation
import RawCoding
import RawCodingTesting
import Testing

/// `SampleSettings.sample` in every codec against `Fixtures/Golden/`, through RawCodingTesting:
/// bytes compared, the fixture decoded and compared, and re-encoded.
///
/// After a deliberate format change: `RAWCODING_RECORD=all swift test --filter GoldenFile`,
/// review the diff, commit. A recording run always fails, so it never passes silently.
@Suite("Golden files", .fixtures(suite: "Golden"))
struct GoldenFileTests {
    @Test func sampleSettingsRoundTripsThroughEveryCodec() {
        expectRoundTrip(
            of: SampleSettings.sample, fixture: "SampleSettings",
            .json, .json(.pretty), .propertyList(.xml), .propertyList(.binary))
    }

    @Test func rawValueIsTheCompactJSONFixture() {
        expectFixture(
            Data(RawCodable(SampleSettings.sample).rawValue.utf8), fixture: "SampleSettings", fileExtension: "json")
    }

    @Test func sampleSettingsAreSafeFromTheRecursionTrap() {
        expectNoRecursionTrap(RawCodable(SampleSettings.sample), .json, .propertyList(.binary))
    }
}
