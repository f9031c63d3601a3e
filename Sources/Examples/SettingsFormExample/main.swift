// The settings form of a typical app (username, private-account toggle, ringtone choice),
// kept in one struct in UserDefaults by an @Observable model with @Stored — instead of three
// @Published fields that each write to UserDefaults in `didSet` and read back with `?? default`.
//
//     swift run SettingsFormExample                      # a demo in a throwaway suite
//     swift run SettingsFormExample --suite my.settings  # keep the settings between runs
//
// The first run of a suite finds the per-key values release 1 of the app left behind and
// moves them into the struct; later runs read the struct.
import Foundation
import Observation
import RawCoding
import RawCodingStores

struct Settings: Codable, Sendable, Equatable {
    enum Ringtone: String, Codable, Sendable, CaseIterable {
        case chime, marimba, radar
    }

    var username = ""
    var isPrivate = false
    var ringtone = Ringtone.chime
}

/// Observation and `@Stored` need the 2023 systems.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@Observable final class SettingsForm {
    @ObservationIgnored @Stored var settings: Settings

    init(store: any KeyValueStore) {
        // Release 1 stored each field under its own key; gather them once, before first use.
        do {
            let moved = try store.moveKeys(
                ["username": "username", "privateAccount": "isPrivate", "ringtone": "ringtone"], into: "settings")
            if !moved.isEmpty { print("moved release 1's keys into \"settings\": \(moved.joined(separator: ", "))") }
        } catch {
            print("could not move release 1's keys (they are still there): \(error)")
        }
        _settings = Stored(wrappedValue: Settings(), "settings", store: store)
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
var suite = "RawCodingExamples.SettingsForm.\(ProcessInfo.processInfo.processIdentifier)"
var keep = false
if let index = arguments.firstIndex(of: "--suite"), index + 1 < arguments.count {
    suite = arguments[index + 1]
    keep = true
    arguments.removeSubrange(index...(index + 1))
}
guard arguments.isEmpty else {
    print("usage: SettingsFormExample [--suite NAME]")
    exit(2)
}
guard let defaults = UserDefaults(suiteName: suite) else {
    print("\(suite) cannot be a suite name")
    exit(2)
}
defer { if !keep { defaults.removePersistentDomain(forName: suite) } }

if defaults.object(forKey: "settings") == nil && defaults.object(forKey: "username") == nil {
    // What release 1 of the app left in UserDefaults: one key per field.
    defaults.set("ada", forKey: "username")
    defaults.set(true, forKey: "privateAccount")
    defaults.set("marimba", forKey: "ringtone")
    print("release 1 stored: username, privateAccount, ringtone (one key each)")
}

/// The form read, edited in two windows, and what the store then holds.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
func editTheForm(suite: String) throws {
    let store = UserDefaultsStore(suiteName: suite)
    let form = SettingsForm(store: store)
    print("read: \(form.settings)")

    // A second view of the same settings, as another window would have.
    let otherWindow = SettingsForm(store: UserDefaultsStore(suiteName: suite))
    withObservationTracking {
        _ = form.settings
    } onChange: {
        print("the form saw a change made in the other window")
    }

    // The user edits the form.
    otherWindow.settings.ringtone = .radar
    form.settings.isPrivate.toggle()
    if let error = form.$settings.error { print("error: \(error)") }

    let stored = try store.read(forKey: "settings")
    print("stored under \"settings\": \(stored.map { "\($0)" } ?? "nothing")")
    print("keys in the suite: \(try store.keys().joined(separator: ", "))")
}

if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) {
    try editTheForm(suite: suite)
} else {
    print("this example needs macOS 14, iOS 17, tvOS 17 or watchOS 10 (Observation)")
    exit(1)
}
