import Foundation
import RawCoding

// A settings model through three releases, as an app would ship it. The fixtures in
// Fixtures/EvolutionFixtureTests were written once by the first two releases and are never
// re-recorded; the current model must keep reading them.

/// Release 1 (no version recorded): the volume is a percentage, a custom ringtone is written
/// `custom:<file>`.
struct SettingsV1: Codable, Equatable {
    var name: String
    var privateAccount: Bool
    var ringtone: String
    var volume: Int

    static let sample = SettingsV1(name: "ada", privateAccount: true, ringtone: "custom:lullaby.caf", volume: 80)
}

/// Release 2 (version 2): `name` renamed, the volume a fraction, the ringtone split in two.
struct SettingsV2: Codable, Equatable {
    var username: String
    var privateAccount: Bool
    var ringtone: String
    var customRingtone: Bool
    var volume: Double

    static let sample = SettingsV2(
        username: "grace", privateAccount: false, ringtone: "Marimba", customRingtone: false, volume: 0.25)
}

/// Release 3, the current model: the ringtone is an enum, and notifications were added.
struct EvolvingSettings: Codable, Equatable, StoredVersioned, StoredDefault {
    enum Ringtone: Codable, Equatable {
        case builtIn(String)
        case custom(file: String)
    }

    struct Notifications: Codable, Equatable {
        var enabled = true
        var sound = true
    }

    var username: String
    var privateAccount: Bool
    var ringtone: Ringtone
    var volume: Double
    var notifications = Notifications()

    static let storedVersion = 3

    static let defaultValue = EvolvingSettings(
        username: "", privateAccount: false, ringtone: .builtIn("Chime"), volume: 0.5)

    static let migrations: [StoredMigration] = [
        // 1 → 2 on the tree: rename, retype and split.
        .tree(from: 1) { tree in
            tree.renameKey("name", to: "username")
            if let percent = tree["volume"]?.int64Value {
                tree["volume"] = .double(Double(percent) / 100)
            }
            let ringtone = tree["ringtone"]?.stringValue ?? ""
            let isCustom = ringtone.hasPrefix("custom:")
            tree["ringtone"] = .string(isCustom ? String(ringtone.dropFirst("custom:".count)) : ringtone)
            tree["customRingtone"] = .bool(isCustom)
        },
        // 2 → 3 typed: two fields become an enum.
        .typed(from: 2, SettingsV2.self) { old in
            EvolvingSettings(
                username: old.username, privateAccount: old.privateAccount,
                ringtone: old.customRingtone ? .custom(file: old.ringtone) : .builtIn(old.ringtone),
                volume: old.volume)
        },
    ]

    static let sample = EvolvingSettings(
        username: "linus", privateAccount: true, ringtone: .custom(file: "bells.caf"), volume: 1,
        notifications: Notifications(enabled: false, sound: true))

    /// What each release's sample reads as today.
    static let v1Expected = EvolvingSettings(
        username: "ada", privateAccount: true, ringtone: .custom(file: "lullaby.caf"), volume: 0.8)
    static let v2Expected = EvolvingSettings(
        username: "grace", privateAccount: false, ringtone: .builtIn("Marimba"), volume: 0.25)
}
