import Foundation
import RawCoding
import RawCodingTesting
import Testing

/// `rawcoding convert`, run as the README runs it.
@Suite("rawcoding convert")
struct ConvertToolTests {
    static let example = PackagePaths.fixtures.appendingPathComponent("Examples/settings.json")

    func convert(_ path: String, to target: String) throws -> ChildProcess {
        try ChildProcess.run(try ChildProcess.product("rawcoding"), ["convert", path, "--to", target])
    }

    @Test func convertsTheReadmeExampleToTheShippedXML() throws {
        let result = try convert(Self.example.path, to: "xml")
        #expect(result.status == 0, "\(result.errors)")
        // The README shows this output; Fixtures/Examples/settings.xml.plist holds it.
        expectFixture(result.standardOutput, fixture: "settings", fileExtension: "xml.plist", suite: "Examples")
    }

    @Test func convertsThroughEveryFormatAndBackWithoutLoss() throws {
        let direct = try convert(Self.example.path, to: "json")
        #expect(direct.status == 0, "\(direct.errors)")
        #expect(direct.output.contains("9007199254740993"))  // beyond Double's exact integers
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rawcoding-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var current = Self.example
        for target in ["binary", "xml", "binary", "json"] {
            let result = try convert(current.path, to: target)
            #expect(result.status == 0, "\(target): \(result.errors)")
            current = directory.appendingPathComponent("step.\(target)")
            try result.standardOutput.write(to: current)
        }
        #expect(try Data(contentsOf: current) == direct.standardOutput)
    }

    @Test func convertsNumbersBeyondDoubleAndInt64Exactly() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rawcoding-big-\(UUID().uuidString).json")
        try Data("[1e308, -1e308, 123456789012345678901234567890, 0.10000000000000001]".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try convert(file.path, to: "json")
        #expect(result.status == 0, "\(result.errors)")
        let expected: StoredValue = [
            1e308, -1e308, .decimal(Decimal(string: "123456789012345678901234567890")!),
            .decimal(Decimal(string: "0.10000000000000001")!),
        ]
        #expect(try JSONReader().read(result.standardOutput) == expected, "\(result.output)")
        // Property lists have no decimals: more digits than a Double holds is refused with the
        // path and the flag that rounds it; 17 digits are the Double they denote.
        let plist = try convert(file.path, to: "binary")
        #expect(plist.status == 1)
        #expect(
            plist.errors.contains("at [2] has 29 significant digits") && plist.errors.contains("--round-numbers"),
            "\(plist.errors)")
    }

    @Test func refusesNullForPropertyListsNamingWhere() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rawcoding-null-\(UUID().uuidString).json")
        try Data(#"{"a":{"b":[1,null]}}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try convert(file.path, to: "binary")
        #expect(result.status == 1)
        #expect(result.errors.contains("a.b[1]"))
        #expect(result.standardOutput.isEmpty)
    }

    /// 100,000 nested objects or dicts, which crash a reader without its depth check, end in
    /// exit status 1 and the limit's message, in every input format.
    @Test(arguments: NestingLimitTests.Format.allCases)
    func refusesHostileNestingWithTheLimitsMessage(_ format: NestingLimitTests.Format) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rawcoding-deep-\(UUID().uuidString)")
        try NestingLimitTests.document(format, .dictionaries, depth: 100_000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try convert(file.path, to: format == .json ? "xml" : "json")
        #expect(result.status == 1, "\(result.reason) \(result.status): \(result.errors)")
        #expect(result.errors.contains("deeper than 512 levels (--max-depth)"), "\(result.errors)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test func reportsMalformedInputAndUsageErrors() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rawcoding-bad-\(UUID().uuidString).json")
        try Data(#"{"a":[1,2"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let malformed = try convert(file.path, to: "xml")
        #expect(malformed.status == 1)
        #expect(malformed.errors.hasPrefix("rawcoding: "))
        #expect(malformed.errors.contains("JSON error at 1:10 (byte offset 9): unexpected end of input"))

        let missing = try convert("/nonexistent/file.json", to: "xml")
        #expect(missing.status == 1)
        #expect(missing.errors == "rawcoding: /nonexistent/file.json: cannot read: no such file\n")

        let usage = try ChildProcess.run(
            try ChildProcess.product("rawcoding"), ["convert", Self.example.path, "--to", "yaml"])
        #expect(usage.status == 2)
        #expect(usage.errors == "rawcoding: --to takes json, json-pretty, xml or binary, not yaml\n")
    }
}
