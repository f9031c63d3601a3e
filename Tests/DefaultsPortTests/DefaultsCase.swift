import Foundation
import RawCoding
import RawCodingStores
import Testing

/// One test case of sindresorhus/Defaults' suite (`Tests/DefaultsTests`, at 00a7465), ported
/// onto `UserDefaultsStore`, `StoredKey`, `@Stored` and the change streams: its inputs and
/// expectations, in our own code. `Defaults[key]` is `key.value`, `Defaults.reset(…)` is
/// `StoredKeys.reset`, `Defaults.updates` is `values()` / `StoredKeys.values`, a Combine
/// publisher is the same stream.
struct DefaultsCase: Sendable, CustomTestStringConvertible {
    /// What the case shows.
    enum Outcome: Sendable, Equatable {
        /// We behave as Defaults does.
        case asDefaults
        /// A documented difference (the article "Coming from @AppStorage, Defaults and the
        /// snippets"): the case asserts our behaviour instead, and says why.
        case keptDifference(String)
    }

    let file: String
    let name: String
    let outcome: Outcome
    let body: @Sendable (PortSuite) async throws -> Void

    init(
        _ file: String, _ name: String, _ outcome: Outcome = .asDefaults,
        body: @escaping @Sendable (PortSuite) async throws -> Void
    ) {
        self.file = file
        self.name = name
        self.outcome = outcome
        self.body = body
    }

    var testDescription: String { "\(file).\(name)" }

    static var all: [DefaultsCase] {
        DefaultsTestsPort.cases + ValidationPort.cases + ObservationPort.cases + TypeMatrixPort.cases
            + BridgePort.cases + StressPort.cases
    }

    /// The files of Defaults' suite that cannot apply here, and why (not counted as ported).
    static let notApplicable: [(file: String, cases: Int, why: String)] = [
        ("DefaultsColorTests", 2, "SwiftUI.Color: Apple platforms only, and not Codable"),
        ("DefaultsNSColorTests", 13, "AppKit: macOS only, NSSecureCoding archives, not Codable"),
        ("DefaultsUIColorTests", 13, "UIKit: not on Linux, NSSecureCoding archives, not Codable"),
        ("DefaultsNSSecureCodingTests", 12, "NSKeyedArchiver of NSSecureCoding classes, not Codable"),
        ("Defaults+iCloudTests", 10, "NSUbiquitousKeyValueStore sync: Apple platforms only"),
        ("DefaultsSwiftUITests", 1, "SwiftUI views: Apple platforms only"),
        ("DefaultsUtilitiesTests", 15, "Defaults' internal utilities (task queue, atomics, lifetime), no API of ours"),
        ("DefaultsCodableTests", 2, "testCodableAndNSSecureCoding, testCodableAndPreferNSSecureCoding: NSSecureCoding"),
    ]

    /// The `@Test` functions in each file of Defaults' suite at 00a7465, so that every case is
    /// either ported or listed as not applying: none is left out unnoticed.
    static let casesInDefaults: [String: Int] = [
        "Defaults+iCloudTests": 10, "DefaultsAnySeriliazableTests": 16, "DefaultsArrayTests": 8,
        "DefaultsBridgeTests": 15, "DefaultsCodableEnumTests": 13, "DefaultsCodableTests": 15,
        "DefaultsCollectionCustomElementTests": 12, "DefaultsCollectionTests": 12, "DefaultsColorTests": 2,
        "DefaultsCustomBridgeTests": 14, "DefaultsDictionaryTests": 6, "DefaultsEnumTests": 12,
        "DefaultsNSColorTests": 13, "DefaultsNSSecureCodingTests": 12, "DefaultsObservationAdvancedTests": 11,
        "DefaultsRangeTests": 4, "DefaultsSetAlgebraCustomElementTests": 12, "DefaultsSetAlgebraTests": 12,
        "DefaultsSetTests": 4, "DefaultsStressTests": 15, "DefaultsSwiftUITests": 1, "DefaultsTests": 35,
        "DefaultsUIColorTests": 13, "DefaultsUtilitiesTests": 15, "DefaultsValidationTests": 13,
    ]
}

/// A fresh `UserDefaults` suite on disk for one case, removed (its file too) when released.
final class PortSuite: Sendable {
    let name = "RawCodingDefaultsPort.\(UUID().uuidString)"
    let store: UserDefaultsStore

    /// The suite's `UserDefaults` (documented as thread-safe).
    var defaults: UserDefaults { store.defaults }

    init() {
        store = UserDefaultsStore(suiteName: name)
    }

    /// A key of this suite with a default.
    func key<Value: Codable & Sendable>(_ name: String, default value: Value) -> StoredKey<Value> {
        StoredKey(name, store: store, defaultValue: value)
    }

    /// An optional key of this suite, `nil` by default.
    func key<Value: Codable & Sendable>(_ name: String, _ type: Value.Type = Value.self) -> StoredKey<Value?> {
        StoredKey(name, store: store, defaultValue: nil)
    }

    /// The value of `name` as a new store instance on the suite reads it: what was written,
    /// not what a property has cached.
    func persisted<Value: Codable & Sendable>(_ name: String, default value: Value) throws -> Value {
        try UserDefaultsStore(suiteName: self.name).value(Value.self, forKey: name, defaultValue: value)
    }

    deinit {
        defaults.removePersistentDomain(forName: name)
        #if !canImport(Darwin)
            let config =
                ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
                ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
            try? FileManager.default.removeItem(at: config.appendingPathComponent("\(name).plist"))
        #endif
    }
}

/// Collects what a stream yields, for the observation cases.
actor Collected<Element: Sendable> {
    private(set) var elements: [Element] = []
    func append(_ element: Element) { elements.append(element) }
}

/// Reads `stream` in a task until it has yielded `count` elements, then returns them; gives up
/// after `seconds` with what it has.
func collect<Element: Sendable>(
    _ count: Int, from stream: AsyncStream<Element>, within seconds: Double = 10,
    while body: @Sendable () async throws -> Void
) async throws -> [Element] {
    let collected = Collected<Element>()
    let reader = Task {
        for await element in stream {
            await collected.append(element)
            if await collected.elements.count >= count { break }
        }
    }
    try await body()
    let deadline = Date().addingTimeInterval(seconds)
    while await collected.elements.count < count, Date() < deadline {
        try await Task.sleep(nanoseconds: 5_000_000)
    }
    reader.cancel()
    return await collected.elements
}

@Suite("sindresorhus/Defaults' tests, ported")
struct DefaultsPortTests {
    @Test(arguments: DefaultsCase.all)
    func portedCase(_ ported: DefaultsCase) async throws {
        try await ported.body(PortSuite())
    }

    /// How much of Defaults' suite is ported, and how much of it differs on purpose. Printed
    /// on every run.
    @Test func summary() {
        let all = DefaultsCase.all
        var names = Set<String>()
        for ported in all {
            #expect(names.insert(ported.testDescription).inserted, "\(ported.testDescription) is ported twice")
        }
        let kept = all.filter { $0.outcome != .asDefaults }
        let files = Dictionary(grouping: all, by: \.file).mapValues(\.count).sorted { $0.key < $1.key }
        let skipped = DefaultsCase.notApplicable.reduce(0) { $0 + $1.cases }
        print(
            "Defaults port: \(all.count) cases ported, \(all.count - kept.count) as Defaults, "
                + "\(kept.count) kept differences; \(skipped) cases of \(DefaultsCase.notApplicable.count) files "
                + "do not apply on Linux")
        for (file, count) in files { print("  \(file): \(count)") }
        for ported in kept {
            if case .keptDifference(let why) = ported.outcome { print("  kept: \(ported.testDescription): \(why)") }
        }
        // Every case of every file is ported or listed as not applying.
        var accounted = Dictionary(grouping: all, by: \.file).mapValues(\.count)
        for (file, cases, _) in DefaultsCase.notApplicable { accounted[file, default: 0] += cases }
        #expect(accounted == DefaultsCase.casesInDefaults)
        let total = DefaultsCase.casesInDefaults.values.reduce(0, +)
        print("  Defaults' suite: \(total) cases; \(total - skipped) apply on Linux, all ported")
    }
}
