import Foundation
import RawCoding
import RawCodingCommandLine
import Testing

/// The tool on bad, strange and large inputs.
@Suite("rawcoding on hostile, conformance and large inputs")
struct ToolInputTests {
    static let hostile = PackagePaths.fixtures.appendingPathComponent("Hostile")

    static var hostileFiles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: hostile.path)) ?? []
        return names.sorted()
    }

    /// Every file of the project's hostile corpus gives one error line and status 1, from
    /// lint and from convert. (Each takes milliseconds; `Fixtures/Hostile` is also the seed of
    /// the fuzzing work.)
    @Test func everyHostileInputGivesOneErrorLine() throws {
        let files = Self.hostileFiles
        #expect(files.count >= 18)
        for name in files {
            let path = Self.hostile.appendingPathComponent(name).path
            let lint = ToolRun.run(["lint", path])
            // An input lint takes would be converted whole (a shared-reference bomb fills memory).
            guard lint.status == 1 else {
                Issue.record("lint accepted the hostile input \(name): \(lint.outputText)")
                continue
            }
            #expect(lint.outputText.split(separator: "\n").count == 1, "\(name)")
            #expect(lint.outputText.hasPrefix("\(path): ") && lint.outputText.contains(" error at "), "\(name)")
            for target in ["json", "binary"] {
                let convert = ToolRun.run(["convert", path, "--to", target])
                #expect(convert.status == 1, "\(name) → \(target)")
                #expect(convert.output.isEmpty)
                #expect(convert.messages.count == 1, "\(name) → \(target): \(convert.messages)")
            }
        }
    }

    /// The project's own vectors for JSONTestSuite's three categories: y (must be accepted),
    /// n (must be refused) and i (either; one line, never a crash).
    @Test func jsonConformanceVectorsByCategory() {
        let accepted = [
            "[]", "{}", #"{"a":[1,2,{"b":null}]}"#, "-0", "0.5e-3", "1E22", #""\u0000""#, #""\uD834\uDD1E""#,
            " [1] ", "\u{FEFF}[1]", #"["é","日本"]"#, "123456789012345678901234567890",
        ]
        let refused = [
            "", "[", "[1,]", "{\"a\" 1}", "{'a':1}", "[01]", "[.5]", "[1.]", "[+1]", "[NaN]", "[Infinity]", "tru",
            "[1] [2]", #"["\x"]"#, "\"\u{01}\"", #"{"a":1,}"#, "[1 2]", #""\uDD1E""#, "/*c*/[]", "[0x1]",
        ]
        let either = ["1e400", "-1e-400", "[1e309]", String(repeating: "9", count: 40), #""\uFFFF""#]
        // Read as JSON: without --from, `tru` and `/*c*/[]` start like OpenStep property lists.
        func lint(_ text: String) -> ToolRun { ToolRun.run(["lint", "--from", "json", "-"], input: Data(text.utf8)) }
        for text in accepted {
            #expect(lint(text).outputText == "<stdin>: OK\n", "y: \(text)")
        }
        for text in refused {
            let run = lint(text)
            #expect(run.status == 1, "n: \(text)")
            #expect(run.outputText.hasPrefix("<stdin>: JSON error at "), "n: \(text): \(run.outputText)")
        }
        // Detected as JSON, so the error is JSON's.
        for text in ["[", "{\"a\" 1}", "{'a':1}", "[1,]", "{\"a\":1,}"] {
            let run = ToolRun.run(["lint", "-"], input: Data(text.utf8))
            #expect(run.outputText.hasPrefix("<stdin>: JSON error at "), "\(text): \(run.outputText)")
        }
        for text in either {
            let run = lint(text)
            #expect(run.outputText.split(separator: "\n").count == 1, "i: \(text)")
            #expect(run.status == (run.outputText.hasSuffix(": OK\n") ? 0 : 1), "i: \(text)")
        }
    }

    @Test func aLargeInputAnnouncesItselfOnATerminalOnly() {
        for terminal in [true, false] {
            var lines: [String] = []
            let io = ToolIO(
                read: { _ in Data() }, write: { _, _ in }, message: { lines.append($0) }, messagesGoToTerminal: terminal
            )
            LargeInputNotice.announce(bytes: LargeInputNotice.threshold + 1, path: "big.json", io: io)
            LargeInputNotice.announce(bytes: LargeInputNotice.threshold, path: "small.json", io: io)
            #expect(lines == (terminal ? ["rawcoding: reading big.json (50 MB)…"] : []))
        }
    }
}
