import Foundation
import Testing

@Suite("Expansion bombs")
struct ExpansionBombTests {
    /// Object i is [i+1, i+1] for `levels` objects, then one leaf: a tree of 2^levels leaves
    /// from a file of a few dozen bytes that shares every container.
    static func bomb(levels: Int) -> Data {
        var builder = BinaryPropertyListBuilder()
        for index in 0..<levels { builder.add([0xA2, UInt8(index + 1), UInt8(index + 1)]) }
        builder.add([0x10, 0x01])
        return builder.build()
    }

    /// The tool's logic on `arguments` in a fresh process (`ReaderSoak tool`), which reports
    /// its own peak resident memory.
    static func measure(_ arguments: [String]) throws -> (status: Int32, peakBytes: Int, messages: String) {
        let run = try ChildProcess.run(try ChildProcess.product("ReaderSoak"), ["tool"] + arguments)
        let fields = run.output.split(whereSeparator: \.isWhitespace)
        let status = try #require(fields.count == 4 ? Int32(fields[1]) : nil, "ReaderSoak printed \(run.output)")
        let peak = try #require(Int(fields[3]), "ReaderSoak printed \(run.output)")
        return (status, peak * 1024, run.errors)
    }

    static func temporaryFile(_ data: Data) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bomb-\(UUID().uuidString).plist")
        try data.write(to: file)
        return file
    }

    /// A sanitizer's quarantine and shadow memory start the process larger.
    static let slack = (Sanitizers.any ? 256 : 64) << 20

    @Test func aSmallFileThatExpandsToMillionsIsRefusedByDefaultNamingTheFlag() throws {
        let data = Self.bomb(levels: 22)
        #expect(data.count < 160)
        let file = try Self.temporaryFile(data)
        defer { try? FileManager.default.removeItem(at: file) }
        for format in ["json", "binary"] {
            let run = try Self.measure(["convert", file.path, "--to", format])
            #expect(run.status == 1, "\(format): \(run.messages)")
            #expect(run.messages.contains("--max-expansion"), "\(run.messages)")
            // Refused before the tree grows (the conversion took 430 MB to JSON, 900 MB to binary).
            #expect(run.peakBytes < Self.slack, "\(format): peak \(run.peakBytes >> 20) MB")
        }
    }

    @Test func withTheFlagRaisedASharedTreeConvertsWithinThreeTimesItsOutput() throws {
        // 2^18 leaves: about 1 MB of JSON, quick in a debug build too.
        let file = try Self.temporaryFile(Self.bomb(levels: 18))
        defer { try? FileManager.default.removeItem(at: file) }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bomb-\(UUID().uuidString).json")
        let run = try Self.measure(["convert", file.path, "--to", "json", "--max-expansion", "1000000"])
        #expect(run.status == 0, "\(run.messages)")
        // The output's size, from the real tool.
        let written = ToolRun.run([
            "convert", file.path, "--to", "json", "--max-expansion", "1000000", "-o", output.path,
        ])
        #expect(written.status == 0, "\(written.messagesText)")
        let size = try #require(written.files[output.path]).count
        #expect(size > 1 << 19)
        #expect(run.peakBytes <= 3 * size + Self.slack, "peak \(run.peakBytes >> 20) MB for \(size >> 10) KB of JSON")
    }
}
