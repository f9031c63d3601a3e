import Foundation
import RawCoding
import RawCodingStores

/// A settings struct of the size apps keep in UserDefaults.
struct BenchmarkSettings: Codable, Sendable, Equatable {
    var username = "ada"
    var isPrivate = true
    var ringtone = "marimba"
    var volume = 0.8
    var launches = 42
    var recentSearches = ["swift", "plist", "codable"]
}

/// The property people write by hand: JSON bytes in UserDefaults, decoded on every read.
final class HandWrittenSettings {
    let defaults: UserDefaults
    let synchronizes: Bool
    init(_ defaults: UserDefaults, synchronizes: Bool) {
        self.defaults = defaults
        self.synchronizes = synchronizes
    }

    var settings: BenchmarkSettings {
        get {
            guard let data = defaults.data(forKey: "handWritten") else { return BenchmarkSettings() }
            do { return try JSONDecoder().decode(BenchmarkSettings.self, from: data) } catch { fail("\(error)") }
        }
        set {
            do { defaults.set(try JSONEncoder().encode(newValue), forKey: "handWritten") } catch { fail("\(error)") }
            if synchronizes { defaults.synchronize() }
        }
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
final class StoredSettings {
    @Stored var settings: BenchmarkSettings
    init(_ store: any KeyValueStore) {
        _settings = Stored(wrappedValue: BenchmarkSettings(), "stored", store: store)
    }
}

/// `@Stored` against the hand-written `UserDefaults` + `JSONEncoder` property, 1,000 calls per sample.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
func storeRows() throws -> [Comparison] {
    let suite = "RawCodingBenchmarks.\(ProcessInfo.processInfo.processIdentifier)"
    guard let defaults = UserDefaults(suiteName: suite) else { fail("no suite \(suite)") }
    defer { defaults.removePersistentDomain(forName: suite) }
    let store = UserDefaultsStore(suiteName: suite)
    let ours = StoredSettings(store)
    let otherInstance = StoredSettings(UserDefaultsStore(suiteName: suite))
    let theirs = HandWrittenSettings(defaults, synchronizes: false)
    let theirsFlushed = HandWrittenSettings(defaults, synchronizes: true)
    var changed = BenchmarkSettings()
    changed.launches += 1
    ours.settings = changed
    theirs.settings = changed
    guard otherInstance.settings == changed, theirs.settings == changed else {
        fail("a stored settings round trip lost data; timings would mean nothing")
    }
    let calls = 1_000
    let measured = try Measurement.interleaved(
        [
            ("@Stored read", { for _ in 0..<calls { _ = ours.settings.launches } }),
            ("hand-written read", { for _ in 0..<calls { _ = theirs.settings.launches } }),
            (
                "@Stored read after another instance wrote",
                {
                    for index in 0..<calls / 10 {
                        changed.launches = index
                        otherInstance.settings = changed
                        _ = ours.settings.launches
                    }
                }
            ),
            (
                "hand-written read after a write",
                {
                    for index in 0..<calls / 10 {
                        changed.launches = index
                        theirsFlushed.settings = changed
                        _ = theirs.settings.launches
                    }
                }
            ),
            ("@Stored write", { for index in 0..<calls { ours.settings.launches = index } }),
            ("hand-written write", { for index in 0..<calls { theirs.settings.launches = index } }),
            (
                "hand-written write + synchronize",
                { for index in 0..<calls { theirsFlushed.settings.launches = index } }
            ),
        ], runs: runs)
    return [
        Comparison(
            title: "@Stored read vs UserDefaults + JSONDecoder (×1000)", ours: measured[0], theirs: measured[1],
            target: 1),
        Comparison(
            title: "@Stored read after another write vs same (×100)", ours: measured[2], theirs: measured[3],
            target: nil),
        Comparison(
            title: "@Stored write vs UserDefaults + JSONEncoder (×1000)", ours: measured[4], theirs: measured[5],
            target: nil),
        Comparison(
            title: "@Stored write vs JSONEncoder + synchronize() (×1000)", ours: measured[4], theirs: measured[6],
            target: nil),
    ]
}
