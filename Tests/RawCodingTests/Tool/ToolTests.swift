import Foundation
import RawCoding
import RawCodingTesting
import Testing

/// The `rawcoding` commands, run in process; their output, errors and help are golden files
/// in `Fixtures/ToolTests/`.
@Suite("rawcoding commands")
struct ToolTests {
    static let settings = PackagePaths.fixtures.appendingPathComponent("Examples/settings.json").path
    static let sample = PackagePaths.fixtures.appendingPathComponent("Golden/SampleSettings.binary.plist").path

    /// The paths in messages, without the machine's checkout folder.
    func portable(_ text: String) -> Data {
        Data(text.replacingOccurrences(of: PackagePaths.fixtures.path + "/", with: "Fixtures/").utf8)
    }

    @Test(arguments: [
        "", "convert", "print", "lint", "extract", "type", "insert", "replace", "remove", "create", "fixtures",
    ])
    func helpIsPrintedWithStatusZero(_ command: String) {
        let run = ToolRun.run(command.isEmpty ? ["--help"] : [command, "--help"])
        #expect(run.status == 0)
        #expect(run.messages.isEmpty)
        expectFixture(run.output, fixture: command.isEmpty ? "help" : "\(command)-help", fileExtension: "txt")
    }

    @Test func versionAndUsageErrors() {
        let version = ToolRun.run(["--version"])
        #expect(version.status == 0)
        #expect(version.outputText.hasPrefix("rawcoding "))  // the number: ProjectVersionTests
        let cases: [([String], String)] = [
            ([], "rawcoding: missing command"),
            (["frobnicate"], "rawcoding: unknown command 'frobnicate'; see rawcoding --help"),
            (["convert", "a.json"], "rawcoding: --to is required: json, json-pretty, xml or binary"),
            (
                ["convert", "a.json", "--to", "yaml"],
                "rawcoding: --to takes json, json-pretty, xml or binary, not yaml"
            ),
            (["convert", "a.json", "--to", "xml", "--max-depth", "0"], "rawcoding: --max-depth takes a whole number"),
            (["convert", "a.json", "--to", "xml", "--max-bytes", "lots"], "rawcoding: --max-bytes takes a positive"),
            (["convert", "a.json", "--to", "xml", "--frob"], "rawcoding: unknown option --frob for rawcoding convert"),
            (["lint"], "rawcoding: lint needs at least one FILE"),
            (["extract", "a[", Self.settings], "rawcoding: the key path a[ is not valid"),
        ]
        for (arguments, message) in cases {
            let run = ToolRun.run(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.output.isEmpty)
            #expect(run.messagesText.hasPrefix(message), "\(arguments): \(run.messagesText)")
        }
    }

    @Test func printShowsTypesInTheFilesOrder() {
        for (name, path) in [("settings", Self.settings), ("SampleSettings", Self.sample)] {
            let run = ToolRun.run(["print", path])
            #expect(run.status == 0, "\(run.messagesText)")
            expectFixture(run.output, fixture: "print-\(name)", fileExtension: "txt")
        }
    }

    @Test func lintPrintsALinePerFileAndFailsIfAnyIsInvalid() {
        let files: [String: Data] = [
            "good.json": Data(#"{"a":[1,2]}"#.utf8),
            "trailing-comma.json": Data(#"{"tags": [1, 2,]}"#.utf8),
            "truncated.plist": Data("bplist00\u{8}".utf8),
            "unclosed.plist": Data("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict><key>a</key>".utf8),
        ]
        let run = ToolRun.run(
            ["lint", "good.json", "trailing-comma.json", "truncated.plist", "unclosed.plist"], files: files)
        #expect(run.status == 1)
        #expect(run.messages.isEmpty)
        expectFixture(run.output, fixture: "lint-mixed", fileExtension: "txt")
        #expect(ToolRun.run(["lint", "good.json", Self.settings], files: files).status == 0)
    }

    @Test func convertNotesWhatJSONCannotHoldAndRestoresItOnRequest() throws {
        let json = ToolRun.run(["convert", Self.sample, "--to", "json-pretty"])
        #expect(json.status == 0)
        expectFixture(json.output, fixture: "convert-SampleSettings", fileExtension: "pretty.json")
        expectFixture(portable(json.messagesText), fixture: "convert-SampleSettings-notes", fileExtension: "txt")

        let original = try BinaryPropertyListReader().read(Data(contentsOf: URL(fileURLWithPath: Self.sample)))
        let plain = ToolRun.run(["convert", "-", "--to", "binary"], input: json.output)
        #expect(plain.status == 0)
        #expect(try BinaryPropertyListReader().read(plain.output) != original)
        let restored = ToolRun.run(
            ["convert", "-", "--to", "binary", "--restore", "dates,data", "-o", "out.plist"], input: json.output)
        #expect(restored.status == 0, "\(restored.messagesText)")
        #expect(restored.output.isEmpty)
        // Equal, but for reals with whole values, which JSON holds as integers (and says so).
        #expect(
            wholeRealsAsIntegers(try BinaryPropertyListReader().read(try #require(restored.files["out.plist"])))
                == wholeRealsAsIntegers(original))
        #expect(
            restored.messagesText.contains(
                "note: 2 string(s) were read back as dates (--restore dates) (first at account.joined)"))
    }

    /// Each command's output and errors, as a transcript: the command, its exit status, what
    /// it wrote to standard error and to standard output.
    ///
    /// The messages that once named the wrong problem are here too: a plutil format argument
    /// left out, a file cut short (binary, XML, JSON, OpenStep), an empty file, text no format
    /// fits, a broken `*.json` file read as JSON, a null's path from the document's root, and
    /// plutil's syntax saying `plutil:`.
    @Test func transcriptsOfOutputAndErrors() throws {
        let settingsTree = try JSONTreeFormat().readTree(
            try Data(contentsOf: URL(fileURLWithPath: Self.settings)), limits: .default)
        let binary = try BinaryPropertyListTreeFormat().writeTree(settingsTree, limits: .default, loss: .refuse)
        let xml = try XMLPropertyListTreeFormat().writeTree(settingsTree, limits: .default, loss: .refuse)
        let files: [String: Data] = [
            "null.json": Data(#"{"a":{"b":[1,null]}}"#.utf8),
            "decimal.json": Data(#"{"price":[0.10000000000000001]}"#.utf8),
            "bad.json": Data(#"{"a":[1,2"#.utf8),
            "when.json": Data(#"{"at":"2026-11-30T20:24:18.25Z","raw":"data:;base64,AP8="}"#.utf8),
            "book.plist": Data(binary),
            "cut.plist": Data(binary.prefix(200)),
            "cut-xml.plist": Data(xml.prefix(300)),
            "cut.strings": Data("\"a\" = \"b\";\n\"c\" = (".utf8),
            "empty.plist": Data(),
            "hello.plist": Data("hello world\n".utf8),
            "config.json": Data("{a: 1}\n".utf8),
            "word.json": Data("abc\n".utf8),
            "nulls.json": Data(#"{"a":[1,null,{"b":null}],"c":null,"d":2}"#.utf8),
        ]
        let invocations: [[String]] = [
            ["extract", "account", Self.settings],
            ["extract", "window.width", Self.settings, "--to", "json"],
            ["extract", "", Self.settings, "--to", "xml"],
            ["extract", "account.phone", Self.settings],
            ["extract", "a..b", Self.settings],
            ["convert", "null.json", "--to", "binary"],
            ["convert", "decimal.json", "--to", "xml"],
            ["convert", "decimal.json", "--to", "json"],
            ["convert", "bad.json", "--to", "json"],
            ["convert", "missing.json", "--to", "json"],
            ["convert", "when.json", "--to", "xml", "--restore", "dates,data"],
            ["convert", "when.json", "--to", "xml", "--restore", "times"],
            ["print", "bad.json"],
            ["print", "when.json", "extra"],
            ["lint", "bad.json", "when.json", "missing.json"],
            ["fixtures", "list"],
            ["-extract", "Author", "book.plist"],
            ["-convert", "--help"],
            ["-convert", "xml1"],
            ["-extract", "account.email", "raw", "book.plist"],
            ["-extract", "a", "xml1", "-o", "-", "null.json"],
            ["-p", "missing.plist"],
            ["lint", "cut.plist", "cut-xml.plist", "bad.json", "cut.strings"],
            ["lint", "empty.plist", "hello.plist", "config.json", "word.json"],
            ["lint", "word.json", "--from", "openstep"],
            ["extract", "a", "null.json", "--to", "xml"],
            ["convert", "nulls.json", "--to", "xml", "--nulls", "drop"],
            ["convert", "nulls.json", "--to", "json", "--nulls", "drop"],
            ["convert", "nulls.json", "--to", "binary", "--nulls", "string", "-o", "nulls.plist"],
            ["convert", "nulls.json", "--to", "xml", "--nulls", "keep"],
            ["-convert", "xml1", "--nulls", "drop", "-o", "-", "nulls.json"],
        ]
        var transcript = ""
        for arguments in invocations {
            let run = ToolRun.run(arguments, files: files)
            transcript += "$ rawcoding \(arguments.joined(separator: " "))\nexit \(run.status)\n"
            for line in run.messages { transcript += "stderr: \(line)\n" }
            transcript += run.outputText + (run.output.isEmpty || run.outputText.hasSuffix("\n") ? "" : "\n")
            transcript += "\n"
        }
        expectFixture(portable(transcript), fixture: "transcripts", fileExtension: "txt")
    }

    @Test func stringsThatRestoreWouldMisreadAreNoted() {
        let input = Data(#"{"note":"2026-11-30T20:24:18Z","blob":"data:;base64,AAA=","plain":"work"}"#.utf8)
        let run = ToolRun.run(["convert", "-", "--to", "json"], input: input)
        #expect(run.status == 0)
        #expect(
            run.messages == [
                "rawcoding: note: 2 string(s) look like ISO 8601 dates or data URLs: --restore would read them back as dates or data (first at note)"
            ])
    }

    @Test func convertRefusesNullForPropertyListsAndReportsUnreadableInput() {
        let null = ToolRun.run(["convert", "-", "--to", "xml"], input: Data(#"{"a":{"b":[1,null]}}"#.utf8))
        #expect(null.status == 1)
        #expect(null.output.isEmpty)
        #expect(
            null.messagesText
                == "rawcoding: <stdin>: null at a.b[1] cannot be written to a property list, which has no null value; --nulls drop leaves nulls out, --nulls string writes them as the string $null\n"
        )

        let limited = ToolRun.run(["convert", Self.settings, "--to", "xml", "--max-bytes", "64"])
        #expect(limited.status == 1)
        #expect(limited.messagesText.contains("JSON error at byte offset 64: input is"))
        let shallow = ToolRun.run(["lint", "-", "--max-depth", "2"], input: Data("[[[1]]]".utf8))
        #expect(shallow.status == 1)
        #expect(shallow.outputText.contains("nesting is deeper than 2 levels"))
    }

    /// The `%.17g` text of a double, as GIS tools write it, converts to a property list as the
    /// double it denotes; a number with more digits stops the conversion, naming the flag that
    /// rounds it, and the flag rounds it with a note.
    @Test func jsonNumbersBecomeTheDoublesTheyDenote() throws {
        let json = Data(#"{"ring":[0.10000000000000001,-65.613616999999977,2.2250738585072014e-308,1e23]}"#.utf8)
        for format in ["xml", "binary"] {
            let run = ToolRun.run(["convert", "-", "--to", format], input: json)
            #expect(run.status == 0, "\(run.messagesText)")
            #expect(run.messages.isEmpty, "\(run.messagesText)")
            let tree = try
                (format == "xml" ? XMLPropertyListTreeFormat() as any TreeFormat : BinaryPropertyListTreeFormat())
                .readTree(run.output, limits: Limits())
            #expect(
                tree["ring"] == [.double(0.1), .double(-65.613616999999977), .double(2.2250738585072014e-308), 1e23])
        }
        let long = Data(#"{"a":[1,{"b":123456789012345678901234567890.5}]}"#.utf8)
        let refused = ToolRun.run(["convert", "-", "--to", "binary"], input: long)
        #expect(refused.status == 1)
        #expect(refused.output.isEmpty)
        #expect(
            refused.messagesText
                == "rawcoding: <stdin>: the number 123456789012345678901234567890.5 at a[1].b has 31 significant "
                + "digits, more than a Double (a property list's real) holds; --round-numbers writes the nearest "
                + "real instead\n")
        let rounded = ToolRun.run(["convert", "-", "--to", "xml", "--round-numbers"], input: long)
        #expect(rounded.status == 0)
        #expect(rounded.outputText.contains("<real>1.2345678901234568e+29</real>"), "\(rounded.outputText)")
        #expect(
            rounded.messagesText
                == "rawcoding: note: 1 number(s) of more than 17 significant digits were rounded to the nearest real "
                + "(first at a[1].b)\n")
        // JSON to JSON keeps every digit.
        #expect(
            ToolRun.run(["convert", "-", "--to", "json"], input: long).outputText
                == String(decoding: long, as: UTF8.self))
    }

    /// An OpenStep property list and a UTF-16 `.strings` file convert to the XML expected.
    @Test func openStepAndStringsFilesConvertToXML() {
        let openStep = Data(
            """
            // settings
            { theme = dark; sizes = (12, "14"); seal = <00ff>; "window title" = "Caf\\U00e9"; }
            """.utf8)
        var strings = Data([0xFF, 0xFE])
        for unit in "/* Localizable */\n\"hello\" = \"Bonjour\";\n\"bye\" = \"Au revoir\";\n".utf16 {
            strings += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let header = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        let expectedOpenStep =
            header + """
                <dict>
                \t<key>seal</key>
                \t<data>
                \tAP8=
                \t</data>
                \t<key>sizes</key>
                \t<array>
                \t\t<string>12</string>
                \t\t<string>14</string>
                \t</array>
                \t<key>theme</key>
                \t<string>dark</string>
                \t<key>window title</key>
                \t<string>Café</string>
                </dict>
                </plist>

                """
        let expectedStrings =
            header + """
                <dict>
                \t<key>bye</key>
                \t<string>Au revoir</string>
                \t<key>hello</key>
                \t<string>Bonjour</string>
                </dict>
                </plist>

                """
        for (input, expected) in [(openStep, expectedOpenStep), (strings, expectedStrings)] {
            let run = ToolRun.run(["convert", "-", "--to", "xml"], input: input)
            #expect(run.status == 0, "\(run.messagesText)")
            #expect(run.outputText == expected)
        }
        let forced = ToolRun.run(
            ["convert", "-", "--from", "openstep", "--to", "json"], input: Data("{\"a\" = b;}".utf8))
        #expect(forced.outputText == #"{"a":"b"}"#)
        let writing = ToolRun.run(["convert", "-", "--from", "openstep", "--to", "openstep"], input: Data("a".utf8))
        #expect(writing.status == 2)
    }

    @Test func extractPrintsOneValue() {
        let email = ToolRun.run(["extract", "account.email", Self.settings])
        #expect(email.status == 0)
        #expect(email.outputText == "\"me@example.com\"\n")
        let file = ToolRun.run(["extract", "recentFiles[1]", Self.settings, "--to", "json"])
        #expect(file.outputText == "\"Reports/Q3 — résumé.pdf\"\n")
        let joined = ToolRun.run(["extract", "account.joined", Self.sample])
        #expect(joined.outputText == "\"2023-03-08T20:26:40Z\"\n")
        #expect(joined.messagesText.contains("1 date(s) became ISO 8601 text"))
        let misses: [(String, String)] = [
            ("account.phone", #"no value at account.phone: account has no key "phone""#),
            ("recentFiles[5]", "no value at recentFiles[5]: recentFiles has 2 element(s), so no [5]"),
            ("theme.color", "no value at theme.color: theme is a string, not a dictionary"),
        ]
        for (path, message) in misses {
            let run = ToolRun.run(["extract", path, Self.settings])
            #expect(run.status == 1)
            #expect(run.messagesText.contains(message), "\(run.messagesText)")
        }
        let quoted = ToolRun.run(["extract", #"["a.b"][0]"#, "-"], input: Data(#"{"a.b":[7]}"#.utf8))
        #expect(quoted.outputText == "7\n")
    }

    func wholeRealsAsIntegers(_ value: StoredValue) -> StoredValue {
        switch value {
        case .double(let double) where double.rounded() == double && double.magnitude < 1e15: .int(Int64(double))
        case .array(let elements): .array(elements.map(wholeRealsAsIntegers))
        case .dictionary(let dictionary):
            .dictionary(StoredDictionary(dictionary.map { ($0.key, wholeRealsAsIntegers($0.value)) }))
        default: value
        }
    }
}

@Suite("rawcoding fixtures check")
struct FixturesCheckToolTests {
    @Test func listsFixturesThatAreNotCanonicalAndFixesAllButPinnedOnes() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rawcoding-fixtures-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let fixtures = root.appendingPathComponent("Fixtures/S")
        let tests = root.appendingPathComponent("Tests/T")
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
        let unsorted = Data(#"{"b":1,"a":2}"#.utf8)
        try Data(#"{"a":2,"b":1}"#.utf8).write(to: fixtures.appendingPathComponent("Good.json"))
        try Data(#"{"b":1,"a":3}"#.utf8).write(to: fixtures.appendingPathComponent("Unsorted.json"))
        try unsorted.write(to: fixtures.appendingPathComponent("Pinned-v1.json"))
        try Data(#"{"a":"#.utf8).write(to: fixtures.appendingPathComponent("Broken.json"))
        try Data("notes".utf8).write(to: fixtures.appendingPathComponent("README.txt"))
        // A test pins Pinned-v1.json by its SHA-256.
        try Data(#"let pin = "\#(sha256sum(of: unsorted))""#.utf8).write(
            to: tests.appendingPathComponent("PinTests.swift"))
        let folder = root.appendingPathComponent("Fixtures").path

        let check = ToolRun.run(["fixtures", "check", folder])
        #expect(check.status == 1)
        let lines = check.outputText.replacingOccurrences(of: folder, with: "Fixtures")
        #expect(
            lines == """
                Fixtures/S/Broken.json: JSON error at 1:6 (byte offset 5): unexpected end of input; expected a value (in a); the input ends inside a value: the file looks truncated
                Fixtures/S/Pinned-v1.json: not in canonical JSON form (first difference at byte offset 2)
                Fixtures/S/Unsorted.json: not in canonical JSON form (first difference at byte offset 2)
                4 file(s) checked under Fixtures

                """)

        let fix = ToolRun.run([
            "fixtures", "check", folder, "--fix", "--tests", root.appendingPathComponent("Tests").path,
        ])
        #expect(fix.status == 1)
        #expect(fix.files[fixtures.appendingPathComponent("Unsorted.json").path] == Data(#"{"a":3,"b":1}"#.utf8))
        #expect(fix.files[fixtures.appendingPathComponent("Pinned-v1.json").path] == nil)
        #expect(
            fix.outputText.contains(
                "Pinned-v1.json: not in canonical JSON form (first difference at byte offset 2); left as it is"))

        // Files that are not stored forms are listed in .rawcoding-fixtures-ignore.
        try Data("# inputs\nS/Broken.json\nS/Pinned-v1.json\nS/Unsorted.json\n".utf8)
            .write(to: root.appendingPathComponent("Fixtures/.rawcoding-fixtures-ignore"))
        let ignoring = ToolRun.run(["fixtures", "check", folder])
        #expect(ignoring.status == 0, "\(ignoring.outputText)")
        #expect(ignoring.outputText.hasSuffix("1 file(s) checked under \(folder)\n"), "\(ignoring.outputText)")
    }

    /// SHA-256 from `sha256sum`, the oracle.
    func sha256sum(of data: Data) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rawcoding-sha-\(UUID().uuidString)")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [file.path])
        return String(result.output.prefix(64))
    }
}
