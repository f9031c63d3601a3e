// A dictionary of loosely typed values kept in UserDefaults — what a property wrapper around
// `[String: Any]` did — as `[String: StoredValue]` with @Stored: every value stays a real
// property-list value in the defaults file, and anything that cannot be stored is an error
// with its key path instead of a crash or a silent drop.
//
//     swift run DefaultsDictionaryExample
import Foundation
import RawCoding
import RawCodingStores

let suite = "RawCodingExamples.DefaultsDictionary.\(ProcessInfo.processInfo.processIdentifier)"
defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
let store = UserDefaultsStore(suiteName: suite)

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
final class Preferences {
    @Stored var values: [String: StoredValue]

    init(store: any KeyValueStore) {
        _values = Stored(wrappedValue: [:], "preferences", store: store)
    }
}

/// The preferences written, read back as Foundation objects, and a value refused.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
func keepPreferences() throws {
    let preferences = Preferences(store: store)
    preferences.values["volume"] = 0.8
    preferences.values["recentSearches"] = ["swift", "plist"]
    preferences.values["window"] = ["width": 800, "height": 600]
    preferences.values["lastOpened"] = .date(Date(timeIntervalSince1970: 1_764_547_200))
    print("stored: \(try store.read(forKey: "preferences").map { "\($0)" } ?? "nothing")")

    // Read back by another part of the app, as plain Foundation objects.
    let object = UserDefaults(suiteName: suite)?.dictionary(forKey: "preferences") ?? [:]
    print("UserDefaults holds a dictionary with keys: \(object.keys.sorted().joined(separator: ", "))")

    // A value a property list cannot hold is refused with its path; what was stored stays.
    do {
        try preferences.$values.set(["missing": .null])
    } catch {
        print("refused: \(error.kind) at \(error.codingPathDescription)")
    }
    print("still stored: \(preferences.values.keys.sorted().joined(separator: ", "))")
}

if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) {
    try keepPreferences()
} else {
    print("this example needs macOS 14, iOS 17, tvOS 17 or watchOS 10 (@Stored)")
    exit(1)
}
