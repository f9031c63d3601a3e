import Foundation
import RawCoding
import Testing

/// The golden files checked by readers and writers that are not ours: Foundation's encoders
/// write the same bytes where they share our form, and Foundation and Python's `plistlib`
/// read each golden to the value it stands for. `GoldenFileTests` compares the goldens with our
/// own output; this suite keeps a wrong golden from passing there unnoticed.
///
/// Where the forms differ (not compared byte for byte):
/// - `URL` in property lists: Foundation's `PropertyListEncoder` writes `{relative: …}`, we write
///   the absolute string (as its JSON encoders do). The XML golden is compared with Foundation's
///   output for the same value holding the URL's string.
/// - Binary property lists: Foundation orders and shares objects its own way; the binary golden
///   is compared by value.
@Suite("Golden files, independent oracles")
struct GoldenOracleTests {
    static let golden = PackagePaths.fixtures.appendingPathComponent("Golden")

    static func golden(_ name: String) throws -> Data {
        try Data(contentsOf: golden.appendingPathComponent(name))
    }

    /// `SampleSettings` as Foundation's property-list encoder has to see it to write our form:
    /// the same fields, the URL as its string.
    struct SampleSettingsWithURLText: Encodable {
        var theme: SampleSettings.Theme
        var fontSize: Int
        var scale: Double
        var tags: [String]
        var homepage: String
        var avatar: Data
        var account: SampleSettings.Account
        var nickname: String?
        var lastSync: Date?
        var notifications: Bool

        init(_ settings: SampleSettings) {
            theme = settings.theme
            fontSize = settings.fontSize
            scale = settings.scale
            tags = settings.tags
            homepage = settings.homepage.absoluteString
            avatar = settings.avatar
            account = settings.account
            nickname = settings.nickname
            lastSync = settings.lastSync
            notifications = settings.notifications
        }
    }

    /// The tree the property-list goldens hold: dates and bytes as themselves, the URL as text.
    static func sampleTree() throws -> StoredValue {
        try StoredValueEncoder().encode(SampleSettings.sample)
    }

    @Test(arguments: [("SampleSettings.json", false), ("SampleSettings.pretty.json", true)])
    func foundationsJSONEncoderWritesTheJSONGoldens(_ name: String, _ pretty: Bool) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        let theirs = try encoder.encode(SampleSettings.sample)
        #expect(theirs == (try Self.golden(name)), "\(String(decoding: theirs, as: UTF8.self))")
        #expect(try JSONDecoder().decode(SampleSettings.self, from: Self.golden(name)) == SampleSettings.sample)
    }

    @Test func foundationsPropertyListEncoderWritesTheXMLGoldenButForTheURL() throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        let theirs = try encoder.encode(SampleSettingsWithURLText(SampleSettings.sample))
        #expect(theirs == (try Self.golden("SampleSettings.xml.plist")), "\(String(decoding: theirs, as: UTF8.self))")
    }

    @Test(arguments: ["SampleSettings.xml.plist", "SampleSettings.binary.plist"])
    func foundationReadsThePropertyListGoldensAsTheSample(_ name: String) throws {
        let object = try PropertyListSerialization.propertyList(from: Self.golden(name), format: nil)
        #expect(try StoredValue(propertyList: object) == Self.sampleTree())
    }

    @Test(Python.required, arguments: ["SampleSettings.xml.plist", "SampleSettings.binary.plist"])
    func plistlibReadsThePropertyListGoldensAsTheSample(_ name: String) throws {
        let value = try DifferentialTests.pythonReads([Self.golden.appendingPathComponent(name)])[0].get()
        if let difference = DifferentialTests.mismatch(try Self.sampleTree(), value, .exact) {
            Issue.record("plistlib read \(name) differently at \(difference)")
        }
    }

    /// Every JSON and property-list file under `Fixtures/`, read by Python's `json`/`plistlib`
    /// and by our readers, to the same value; `Fixtures/Hostile` holds inputs every reader must
    /// refuse, so it is left out (the tool tests check those).
    @Test(Python.required) func pythonReadsEveryFixtureAsOurReadersDo() throws {
        let hostile = PackagePaths.fixtures.appendingPathComponent("Hostile").standardizedFileURL.path + "/"
        let files = try #require(
            FileManager.default.enumerator(at: PackagePaths.fixtures, includingPropertiesForKeys: nil)
        )
        .compactMap { $0 as? URL }
        .filter { $0.pathExtension == "json" || $0.pathExtension == "plist" }
        .filter { !$0.standardizedFileURL.path.hasPrefix(hostile) }
        .sorted { $0.path < $1.path }
        try #require(files.count >= 10, "found only \(files.map(\.lastPathComponent))")
        for (file, reading) in zip(files, try DifferentialTests.pythonReads(files)) {
            let value: StoredValue
            switch reading {
            case .success(let read): value = read
            case .failure(let failure):
                Issue.record("python could not read \(file.path): \(failure)")
                continue
            }
            let data = try Data(contentsOf: file)
            let ours: StoredValue
            if file.pathExtension == "json" {
                ours = try JSONReader().read(data)
            } else if BinaryPropertyListReader.hasSignature(data) {
                ours = try BinaryPropertyListReader().read(data)
            } else {
                ours = try XMLPropertyListReader().read(data)
            }
            let rules = DifferentialTests.Comparison(json: file.pathExtension == "json")
            if let difference = DifferentialTests.mismatch(ours, value, rules) {
                Issue.record("\(file.path): Python read it differently at \(difference)")
            }
        }
    }
}
