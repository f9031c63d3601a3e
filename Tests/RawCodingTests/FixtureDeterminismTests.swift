import Foundation
import RawCodingTesting
import Testing

/// Fixtures written on one machine must not depend on its time zone or language. `LocaleProbe`
/// encodes locale-sensitive values (dates around the epoch and with fractions, decimals, large
/// numbers, keys that collate differently per language) with every codec; run under several TZ
/// and LANG settings, its output must equal the committed fixtures in `Fixtures/LocaleProbe/`
/// byte for byte.
@Suite("Fixture determinism", .fixtures(suite: "LocaleProbe"))
struct FixtureDeterminismTests {
    static let files = [
        ("LocaleSample", "json"), ("LocaleSample", "pretty.json"), ("LocaleSample", "xml.plist"),
        ("LocaleSample", "binary.plist"), ("LocaleKeys", "json"), ("LocaleKeys", "pretty.json"),
        ("LocaleKeys", "xml.plist"),
    ]

    /// Runs the probe under `environment` and checks its files against the fixtures; returns
    /// what it printed.
    func probe(_ environment: [String: String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "locale-probe-\(UUID().uuidString)")
        defer { removeIfPresent(directory) }
        let result = try ChildProcess.run(
            try ChildProcess.product("LocaleProbe"), [directory.path], environment: environment)
        try #require(result.status == 0, "LocaleProbe failed: \(result.errors)", sourceLocation: sourceLocation)
        for (name, fileExtension) in Self.files {
            let data = try Data(contentsOf: directory.appendingPathComponent("\(name).\(fileExtension)"))
            expectFixture(
                data, fixture: name, fileExtension: fileExtension,
                fileID: sourceLocation.fileID, filePath: #filePath, line: UInt(sourceLocation.line))
        }
        return result.output
    }

    @Test func outputIsTheSameInEveryTimeZone() throws {
        for zone in ["UTC", "Pacific/Chatham", "America/St_Johns", "Asia/Kathmandu"] {
            let printed = try probe(["TZ": zone, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
            // The zone took effect, so the comparison above means something.
            if zone != "UTC" { #expect(printed.contains("timeZone=\(zone) "), "\(printed)") }
        }
    }

    @Test(.enabled(if: CompiledLocales.available, CompiledLocales.skipReason))
    func outputIsTheSameUnderOtherLanguages() throws {
        let locales = try CompiledLocales.directory()
        defer { removeIfPresent(locales) }
        for (language, decimal) in [("de_DE.UTF-8", "1234,5"), ("tr_TR.UTF-8", "1234,5"), ("en_US.UTF-8", "1234.5")] {
            let printed = try probe([
                "LOCPATH": locales.path, "LANG": language, "LC_ALL": language, "TZ": "Europe/Istanbul",
            ])
            // The C locale took effect (a comma as decimal separator where the language uses one).
            #expect(printed.contains("clocale=\(language)"), "\(printed)")
            #expect(printed.contains("cformat=\(decimal)"), "\(printed)")
        }
    }
}

/// glibc locales compiled from Debian's sources with `localedef` into a temporary folder (the
/// machine has only C.UTF-8 installed; LOCPATH points the probe at these).
enum CompiledLocales {
    static let sources = "/usr/share/i18n/locales"
    static let tool = "/usr/bin/localedef"

    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: tool)
            && ["de_DE", "tr_TR", "en_US"].allSatisfy { FileManager.default.fileExists(atPath: "\(sources)/\($0)") }
    }

    static let skipReason: Comment =
        "Skipped: \(tool) or the locale sources in \(sources) are missing, so no other C locale can be compiled (Debian package: locales). The time-zone test still ran."

    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rawcoding-locales-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (input, name) in [("de_DE", "de_DE.UTF-8"), ("tr_TR", "tr_TR.UTF-8"), ("en_US", "en_US.UTF-8")] {
            let result = try ChildProcess.run(
                URL(fileURLWithPath: tool), ["-i", input, "-f", "UTF-8", directory.appendingPathComponent(name).path])
            try #require(result.status == 0, "localedef \(input) failed: \(result.errors)")
        }
        return directory
    }
}

func removeIfPresent(_ url: URL) {
    guard FileManager.default.fileExists(atPath: url.path) else { return }
    do {
        try FileManager.default.removeItem(at: url)
    } catch {
        Issue.record("Could not remove \(url.path): \(error)")
    }
}
