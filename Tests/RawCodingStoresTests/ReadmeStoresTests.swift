import Foundation
import Observation
import RawCoding
import RawCodingStores
import Testing

/// The README's "Stores and `@Stored`" example, kept true (the README's `Settings` is this file's `ReadmeSettings`).
struct ReadmeSettings: Codable, Equatable, Sendable {
    var theme = "dark"
    var fontSize = 14
}

@Observable final class ReadmeSettingsModel {
    @ObservationIgnored @Stored var settings: ReadmeSettings

    init(store: any KeyValueStore) {
        _settings = Stored(wrappedValue: ReadmeSettings(), "settings", store: store)
    }
}

@Suite("README: stores")
struct ReadmeStoresTests {
    @Test func theStoresExampleWorksAsWritten() async throws {
        let directory = try TemporaryDirectory()
        let settingsDirectory = directory.url
        let model = ReadmeSettingsModel(store: try FileStore(directory: settingsDirectory))
        model.settings.fontSize = 16  // written at once: an atomic file write
        let changes = model.$settings.values()  // an AsyncStream: this value, then every change

        let file = try Data(contentsOf: settingsDirectory.appendingPathComponent("settings.json"))
        #expect(String(decoding: file, as: UTF8.self) == #"{"fontSize":16,"theme":"dark"}"#)
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == ReadmeSettings(fontSize: 16))
    }
}
