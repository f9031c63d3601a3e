import Foundation
import RawCoding
import Testing

/// `rawcoding insert`, `replace`, `remove`, `create` and `type`, `extract --to raw`, and the
/// messages that name the tool's flags and say what went wrong in words.
@Suite("rawcoding editing commands and messages")
struct EditCommandTests {
    static let pretty = Data("{\n  \"links\" : [\n    \"a\",\n    \"b\"\n  ],\n  \"theme\" : \"dark\"\n}\n".utf8)
    static let files: [String: Data] = [
        "s.json": pretty, "c.json": Data(#"{"a":1}"#.utf8), "o.strings": Data("a = b;".utf8),
    ]

    func run(_ arguments: String) -> ToolRun {
        ToolRun.run(arguments.split(separator: " ").map(String.init), files: Self.files)
    }

    func tree(_ run: ToolRun, _ file: String) throws -> StoredValue {
        try JSONTreeFormat().readTree(try #require(run.files[file]), limits: .default)
    }

    @Test func editsWriteTheFileBackInItsOwnFormat() throws {
        let inserted = run("insert links.1 s.json --type string --value between")
        #expect(inserted.status == 0, "\(inserted.messagesText)")
        #expect(try tree(inserted, "s.json") == ["links": ["a", "between", "b"], "theme": "dark"])
        // Indented JSON stays indented; compact JSON stays compact.
        #expect(
            inserted.files["s.json"].map { String(decoding: $0, as: UTF8.self) }?.contains("\n  \"links\" : [") == true)
        let compact = run("replace a c.json --type json --value {\"b\":[true]}")
        #expect(compact.files["c.json"] == Data(#"{"a":{"b":[true]}}"#.utf8) + Data("\n".utf8))
        let appended = run("insert links s.json --type integer --value 3 --append")
        #expect(try tree(appended, "s.json")["links"] == ["a", "b", 3])
        let removed = run("remove links[0] s.json")
        #expect(try tree(removed, "s.json")["links"] == ["b"])
        let elsewhere = run("replace theme s.json --type bool --value YES -o out.json")
        #expect(elsewhere.files["s.json"] == Self.pretty)
        #expect(try tree(elsewhere, "out.json")["theme"] == true)
        let binary = run("replace theme s.json --type date --value 2026-12-04T08:00:00Z --to binary -o out.plist")
        #expect(
            try BinaryPropertyListReader().read(try #require(binary.files["out.plist"]))["theme"]
                == .date(Date(timeIntervalSince1970: 1_796_371_200)))
        let created = run("create new.plist --to xml")
        #expect(try XMLPropertyListReader().read(try #require(created.files["new.plist"])) == [:])
    }

    @Test func typeAndRawExtractPrintPlainText() {
        #expect(run("type links s.json").outputText == "array\n")
        #expect(run("type links.0 s.json --expect string").outputText == "string\n")
        let wrong = run("type links s.json --expect dictionary")
        #expect(wrong.status == 1)
        #expect(
            wrong.messagesText
                == "rawcoding: s.json: the value at links is an array, not a dictionary (--expect dictionary)\n")
        #expect(run("extract links s.json --to raw").outputText == "2\n")
        #expect(run("extract links.1 s.json --to raw").outputText == "b\n")
        let whole = ToolRun.run(["extract", "", "s.json", "--to", "raw"], files: Self.files)
        #expect(whole.outputText == "links\ntheme\n")
    }

    @Test func failuresSayWhatIsWrong() {
        let cases: [(String, Int32, String)] = [
            ("insert theme s.json --type string --value x", 1, "there is already a value at theme; replace it instead"),
            ("remove nothing s.json", 1, "no value at nothing to remove"),
            (
                "replace links[5] s.json --type string --value x", 1,
                "no element at links[5] to replace: the array has 2"
            ),
            (
                "insert links.x s.json --type string --value x", 1,
                "links is an array, so links.x must end with an index"
            ),
            ("insert theme.x s.json --type string --value x", 1, "theme is a string, not a dictionary or an array"),
            ("extract links.x s.json", 1, #"links is an array, and "x" is not an index"#),
            ("extract theme.x s.json", 1, "theme is a string, not a dictionary or an array"),
            (
                "insert k s.json --type integer --value 1.5", 1,
                "--value takes a whole number that 64 bits hold, not 1.5"
            ),
            ("insert k s.json --type data --value ***", 1, "--value takes Base64 text"),
            ("insert k s.json --type data --value AP8Q!", 1, "--value takes Base64 text, not AP8Q!"),
            ("insert k s.json --type json --value {", 1, "--value: JSON error at 1:2"),
            ("insert k s.json --type array --value 1", 2, "--type array inserts an empty one and takes no --value"),
            ("insert k s.json --type number", 2, "--type takes one of bool, integer"),
            ("insert k s.json", 2, "insert needs --type"),
            (
                "remove a o.strings", 2,
                "o.strings is an OpenStep property list, which is read but not written: give --to"
            ),
            ("insert links s.json --type string --value x --append --max-bytes 8", 1, "raise --max-bytes"),
            ("lint s.json --max-depth 1", 1, "(--max-depth)"),
        ]
        for (line, status, words) in cases {
            let result = run(line)
            #expect(result.status == status, "\(line): \(result.messagesText)")
            #expect(
                (result.messagesText + result.outputText).contains(words),
                "\(line): \(result.messagesText)\(result.outputText)")
        }
    }

    /// In a real folder: an in-place edit leaves no temporary file, and writing into a folder
    /// that does not exist says so (it was Foundation's "error 512").
    @Test func inPlaceEditsAndMissingFoldersOnDisk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rawcoding-edit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("s.json")
        try Self.pretty.write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let tool = try ChildProcess.product("rawcoding")
        let edit = try ChildProcess.run(tool, ["replace", "theme", file.path, "--type", "string", "--value", "light"])
        #expect(edit.status == 0, "\(edit.errors)")
        #expect(try JSONTreeFormat().readTree(Data(contentsOf: file), limits: .default)["theme"] == "light")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["s.json"])
        // The edited file keeps its permissions.
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let missing = folder.appendingPathComponent("no/such/folder/out.plist").path
        let convert = try ChildProcess.run(tool, ["convert", file.path, "--to", "xml", "-o", missing])
        #expect(convert.status == 1)
        #expect(
            convert.errors
                == "rawcoding: \(missing): cannot write: the folder \(folder.path)/no/such/folder does not exist\n")
        let random = folder.appendingPathComponent("random.bin")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A]).write(to: random)
        let lint = try ChildProcess.run(tool, ["lint", random.path])
        #expect(
            lint.output
                == "\(random.path): input error at 1:1 (byte offset 0): not JSON, an XML or binary property list, "
                + "or an OpenStep property list or .strings file (each was tried): it starts with 0x89\n")
    }
}
