// The logic of a SwiftUI `Binding` over the iCloud key-value store — encode on set, decode
// on get, follow changes from other devices — run here against InMemoryStore with the
// iCloud store's quotas, with other devices' changes simulated. On an Apple device the same
// code runs on `UbiquitousKeyValueStore` (the RawCodingStoresApple product).
//
//     swift run CloudSettingExample
import Foundation
import RawCoding
import RawCodingStores

struct Reading: Codable, Sendable, Equatable {
    var bookID = ""
    var page = 0
}

/// The setting written, changed by other devices and refused over the quotas.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
func followTheSetting() async throws {
    let cloud = InMemoryStore(limits: .ubiquitousKeyValueStore)
    let progress = StoredProperty("reading", store: cloud, defaultValue: Reading())

    // What a view would observe; here each new value is printed.
    let printer = Task {
        for await reading in progress.values() { print("view shows: \(reading.bookID) page \(reading.page)") }
    }

    /// What the store holds for the key, as text.
    func stored() throws -> String {
        let tree = try cloud.read(forKey: "reading")
        return tree.map { "\($0)" } ?? "nothing"
    }

    /// Gives the view's task time to print (the stream delivers on another queue).
    func settle() async throws { try await Task.sleep(for: .milliseconds(100)) }

    try await settle()
    progress.value = Reading(bookID: "moby-dick", page: 12)
    try await settle()
    print("stored: " + (try stored()))

    // Another device turns the page; the change arrives from iCloud.
    try cloud.simulateExternalChange(["bookID": "moby-dick", "page": 40], forKey: "reading")
    try await settle()

    // Another device runs a newer release that stores a field this one does not know: it is kept.
    try cloud.simulateExternalChange(["bookID": "moby-dick", "page": 41, "fontSize": 14], forKey: "reading")
    try await settle()
    progress.value.page = 42
    try await settle()
    print("stored: " + (try stored()))

    // Over the iCloud quotas, a write is refused before anything is sent.
    do {
        try StoredProperty(
            "a key that is far longer than the sixty-four bytes iCloud allows for one", store: cloud, defaultValue: 0
        )
        .set(1)
    } catch {
        print("refused: \(error.reason)")
    }
    printer.cancel()
}

if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) {
    try await followTheSetting()
} else {
    print("this example needs macOS 14, iOS 17, tvOS 17 or watchOS 10 (StoredProperty)")
    exit(1)
}
