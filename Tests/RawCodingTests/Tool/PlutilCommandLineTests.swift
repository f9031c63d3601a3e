import Foundation
import RawCoding
import Testing

/// plutil's command lines, as macOS documents them, run against `rawcoding` under the name
/// `plutil`: each line of ``cases`` is a command line, its input files, what it must print,
/// its exit status and the file it leaves, with the source of each expectation.
@Suite("rawcoding as plutil")
struct PlutilCommandLineTests {
    /// Where an expectation comes from.
    enum Source: String {
        /// `man plutil` (Xcode's manual page, macOS 14).
        case manual = "man plutil"
        /// `plutil -help` (macOS 14 and 15).
        case help = "plutil -help"
        /// Not documented by Apple: decided here, and written down in the README.
        case readme = "README (undocumented in plutil)"
    }

    struct Case: CustomTestStringConvertible {
        /// The command line after `plutil`, split at spaces.
        var line: String
        var stdout: String?
        var status: Int32 = 0
        /// A file the command must leave, and its contents.
        var leaves: (name: String, contents: String)?
        /// Words the message on standard error must hold.
        var stderr: String?
        var source: Source

        var testDescription: String { "plutil \(line)" }
    }

    static let json = #"{"count":3,"inner":{"k":"v"},"list":["a","b"],"name":"Ada","on":true,"ratio":0.5}"#
    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>blob</key>
        \t<data>
        \tAP8Q
        \t</data>
        \t<key>when</key>
        \t<date>2026-12-04T08:00:00Z</date>
        </dict>
        </plist>

        """
    static let files: [String: Data] = [
        "x.json": Data(json.utf8), "x.plist": Data(xml.utf8), "bad.plist": Data("<plist><dict><key>a</key>".utf8),
    ]

    static let cases: [Case] = [
        // Checking.
        Case(line: "-lint x.json x.plist", stdout: "x.json: OK\nx.plist: OK\n", source: .manual),
        Case(line: "x.json", stdout: "x.json: OK\n", source: .manual),  // -lint is the default
        Case(line: "-lint -s x.json", stdout: "", source: .manual),
        Case(line: "-lint bad.plist x.json", stdout: nil, status: 1, source: .manual),
        Case(line: "-help", stdout: nil, source: .manual),
        Case(line: "-bogus x.json", stdout: "", status: 1, stderr: "unknown option -bogus", source: .manual),
        Case(line: "-convert", stdout: "", status: 1, stderr: "-convert needs a format", source: .manual),
        // Converting.
        Case(line: "-convert json -o - x.json", stdout: json, source: .manual),
        Case(
            line: "-convert json -r -o - x.plist",
            stdout: "{\n  \"blob\" : \"data:;base64,AP8Q\",\n  \"when\" : \"2026-12-04T08:00:00Z\"\n}\n",
            stderr: "became ISO 8601 text", source: .readme),
        Case(line: "-convert xml1 x.json", stdout: "", leaves: ("x.json", xmlOfJSON), source: .manual),
        Case(line: "-convert xml1 -e plist x.json", stdout: "", leaves: ("x.plist", xmlOfJSON), source: .manual),
        Case(
            line: "-convert xml1 -o out.plist -- x.json", stdout: "", leaves: ("out.plist", xmlOfJSON), source: .manual),
        Case(line: "-convert swift x.json", stdout: "", status: 1, stderr: "not supported", source: .readme),
        // Reading one value.
        Case(line: "-extract name raw x.json", stdout: "Ada\n", source: .help),
        Case(line: "-extract name raw -n x.json", stdout: "Ada", source: .manual),
        Case(line: "-extract count raw x.json", stdout: "3\n", source: .help),
        Case(line: "-extract ratio raw x.json", stdout: "0.5\n", source: .help),
        Case(line: "-extract on raw x.json", stdout: "true\n", source: .help),
        Case(line: "-extract list raw x.json", stdout: "2\n", source: .help),
        Case(line: "-extract inner raw x.json", stdout: "k\n", source: .help),
        Case(line: "-extract when raw x.plist", stdout: "2026-12-04T08:00:00Z\n", source: .help),
        Case(line: "-extract blob raw x.plist", stdout: "AP8Q\n", source: .help),
        Case(line: "-extract list.1 json x.json", stdout: #""b""# + "\n", source: .manual),
        Case(line: "-extract inner json -o - x.json", stdout: #"{"k":"v"}"# + "\n", source: .manual),
        Case(line: "-extract inner raw -expect dictionary x.json", stdout: "k\n", source: .manual),
        Case(
            line: "-extract name raw -expect integer x.json", stdout: "", status: 1, stderr: "not an integer",
            source: .manual),
        Case(line: "-extract list.5 raw x.json", stdout: "", status: 1, stderr: "has 2 element(s)", source: .manual),
        Case(line: "-type list x.json", stdout: "array\n", source: .manual),
        Case(line: "-type ratio -n x.json", stdout: "float", source: .manual),
        Case(
            line: "-type on -expect string x.json", stdout: "", status: 1, stderr: "a bool, not a string",
            source: .manual),
        // Editing: the file is rewritten in its own format (JSON compact unless -r).
        Case(
            line: "-insert city -string Paris x.json", stdout: "",
            leaves: ("x.json", edited(#""city":"Paris","#, after: "{")), source: .manual),
        Case(
            line: "-insert list.0 -integer 7 x.json", stdout: "", leaves: ("x.json", edited("7,", after: "[")),
            source: .manual),
        Case(
            line: "-insert list -bool YES -append x.json", stdout: "",
            leaves: ("x.json", edited(",true", after: #""b""#)), source: .manual),
        Case(
            line: "-insert list.2 -float 2.5 x.json", stdout: "", leaves: ("x.json", edited(",2.5", after: #""b""#)),
            source: .manual),
        Case(
            line: "-insert empty -dictionary x.json", stdout: "",
            leaves: ("x.json", edited(#""empty":{},"#, after: #""count":3,"#)), source: .manual),
        Case(
            line: "-insert name -string Bob x.json", stdout: "", status: 1, stderr: "already a value at name",
            source: .readme),
        Case(
            line: "-replace name -string Bob x.json", stdout: "",
            leaves: ("x.json", json.replacingOccurrences(of: "Ada", with: "Bob")), source: .manual),
        Case(
            line: "-replace inner.k -json [1,2] x.json", stdout: "",
            leaves: ("x.json", json.replacingOccurrences(of: #""v""#, with: "[1,2]")), source: .help),
        Case(
            line: "-remove on x.json", stdout: "",
            leaves: ("x.json", json.replacingOccurrences(of: #","on":true"#, with: "")), source: .manual),
        Case(
            line: "-remove missing x.json", stdout: "", status: 1, stderr: "no value at missing to remove",
            source: .readme),
        Case(
            line: "-replace count -integer 4 -o - x.json", stdout: json.replacingOccurrences(of: "3", with: "4") + "\n",
            source: .manual),
        Case(line: "-create xml1 new.plist", stdout: "", leaves: ("new.plist", emptyXML), source: .manual),
        Case(line: "-create json -", stdout: "{}\n", source: .manual),
        // Printing.
        Case(
            line: "-p x.plist",
            stdout: "{\n  \"blob\" => {length = 3, bytes = 0x00ff10}\n  \"when\" => 2026-12-04T08:00:00Z\n}\n",
            source: .readme),
    ]

    static let emptyXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict/>
        </plist>

        """

    static var xmlOfJSON: String {
        let tree = try? JSONTreeFormat().readTree(Data(json.utf8), limits: .default)
        return String(decoding: (try? XMLPropertyListWriter().write(tree ?? .null)) ?? Data(), as: UTF8.self)
    }

    /// ``json`` with `insertion` after the first `anchor`, and a final newline as written.
    static func edited(_ insertion: String, after anchor: String) -> String {
        guard let range = json.range(of: anchor) else { return json }
        var text = json
        text.insert(contentsOf: insertion, at: range.upperBound)
        return text
    }

    @Test(arguments: cases)
    func commandLine(_ item: Case) {
        let run = ToolRun.run(item.line.split(separator: " ").map(String.init), files: Self.files, name: "plutil")
        #expect(run.status == item.status, "\(item.source.rawValue): \(run.messagesText)")
        if let stdout = item.stdout {
            #expect(run.outputText == stdout, "\(item.source.rawValue)")
        }
        if let (name, contents) = item.leaves {
            let written = run.files[name].map { String(decoding: $0, as: UTF8.self) }
            // JSON and XML written to a file end with a newline.
            #expect(
                written == contents || written == contents + "\n", "\(item.source.rawValue): \(written ?? "nothing")")
        }
        if let words = item.stderr {
            #expect(run.messagesText.contains(words), "\(item.source.rawValue): \(run.messagesText)")
        }
        if item.status == 0, item.stderr == nil {
            #expect(run.messages.isEmpty, "\(run.messagesText)")
        }
    }

    /// Under its own name, a first argument that is a plutil command option selects plutil's
    /// syntax too; otherwise the verbs are rawcoding's.
    @Test func rawcodingTakesPlutilsCommandLineToo() {
        let run = ToolRun.run(["-extract", "name", "raw", "x.json"], files: Self.files)
        #expect(run.outputText == "Ada\n")
        let own = ToolRun.run(["extract", "name", "x.json", "--to", "raw"], files: Self.files)
        #expect(own.outputText == "Ada\n")
        // Under the name plutil, rawcoding's verbs are file names.
        let named = ToolRun.run(["convert", "x.json"], files: Self.files, name: "plutil")
        #expect(named.status == 1)
        #expect(named.outputText.contains("convert: cannot read: no such file"), "\(named.outputText)")
    }

    /// `ln -s rawcoding plutil`, then `plutil -convert json -o - x.plist`: the binary under a
    /// link takes plutil's command line.
    @Test func aLinkNamedPlutilTakesPlutilsCommandLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plutil-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("plutil")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: try ChildProcess.product("rawcoding"))
        let file = folder.appendingPathComponent("x.plist")
        try Data(Self.xml.utf8).write(to: file)
        let run = try ChildProcess.run(link, ["-convert", "json", "-o", "-", file.path])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == #"{"blob":"data:;base64,AP8Q","when":"2026-12-04T08:00:00Z"}"#)
        let lint = try ChildProcess.run(link, [file.path])
        #expect(lint.output == "\(file.path): OK\n")
        let usage = try ChildProcess.run(link, ["-convert", "nonsense", file.path])
        #expect(usage.status == 1)
        #expect(usage.errors.hasPrefix("plutil: -convert needs a format before the files"), "\(usage.errors)")
    }
}
