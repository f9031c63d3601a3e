import Foundation
import RawCoding
import RawCodingCommandLine
import Testing

/// JSON to JSON piece by piece, as the tool converts large inputs: the same bytes as reading the
/// tree and writing it (keys in order, compact or pretty), and, for anything the tree path would
/// report, a stop that leaves the document to it.
@Suite("Streaming JSON to JSON")
struct StreamingJSONConversionTests {
    /// The streamed output, pieces joined; `nil` when the conversion left the document to the
    /// tree path.
    static func stream(_ text: String, pretty: Bool, limits: Limits = .default, pieceSize: Int = 1) throws -> [UInt8]? {
        var bytes: [UInt8] = []
        do throws(JSONToXMLPropertyList.Stop) {
            try JSONToJSON.convert(
                Data(text.utf8), pretty: pretty, limits: limits, pieceSize: pieceSize,
                emit: { piece in
                    #expect(!piece.isEmpty)
                    bytes += piece
                }
            ) { (value, _) throws(RawCodingError) -> StoredValue in value }
            return bytes
        } catch {
            switch error {
            case .leftToTree: return nil
            case .emitting(let failure): throw failure
            }
        }
    }

    /// What the tree path writes for `text`, or `nil` where it fails.
    static func throughTree(_ text: String, pretty: Bool, limits: Limits = .default) -> [UInt8]? {
        do throws(FormatFailure) {
            let tree = try JSONTreeFormat().readTree(Data(text.utf8), limits: limits)
            return try JSONTreeFormat(formatting: pretty ? .pretty : .compact).writeTree(
                tree, limits: limits, loss: .allow)
        } catch {
            return nil
        }
    }

    @Test func randomDocumentsGiveTheTreePathsBytes() throws {
        var generator = SeededGenerator(state: 0x5757_0E2)
        var checked = 0
        for _ in 0..<600 {
            guard
                let tree = StreamingConversionTests.jsonSafe(
                    StoredValue.random(using: &generator, depth: 5, propertyListSafe: false))
            else { continue }
            // Written in the tree's own key order and with spaces, so the conversion reorders.
            var text = String(
                decoding: try JSONWriter(formatting: .pretty, sortsKeys: false).write(tree), as: UTF8.self)
            if checked % 2 == 0 { text = "[\(text),\(text),[\(text)]]" }
            for pretty in [false, true] {
                for pieceSize in [1, 64, 1 << 20] {
                    let streamed = try #require(try Self.stream(text, pretty: pretty, pieceSize: pieceSize), "\(text)")
                    #expect(streamed == Self.throughTree(text, pretty: pretty), "\(text)")
                }
            }
            checked += 1
        }
        #expect(checked > 300)
    }

    @Test func whatTheTreePathWouldReportIsLeftToIt() throws {
        let tight = Limits(maximumInputBytes: 1 << 20, maximumDepth: 3, maximumValueCount: 8)
        for text in [
            #"{"a":[1,2,}"#, "[1] x", "", #"{"s":"\uD800"}"#, "[1 2]", #"{"a":1,"b":2,"a":3}"#,
            #"[{"x":[{"y":1,"y":2}]}]"#, "[[[[1]]]]", "[1,2,3,4,5,6,7,8,9]",
        ] {
            #expect(try Self.stream(text, pretty: false, limits: tight) == nil, "\(text)")
        }
        let small = Limits(maximumInputBytes: 400)
        let long = #"["\#(String(repeating: "x", count: 300))",1]"#
        #expect(try Self.stream(long + long, pretty: true, limits: small) == nil)
        #expect(
            try Self.stream(long, pretty: false, limits: small) == Self.throughTree(long, pretty: false, limits: small))
    }

    /// Through the tool: a JSON document over the streaming threshold converts to the tree
    /// path's bytes, compact and pretty, with the tree path's notes.
    @Test func theToolStreamsLargeDocumentsToJSON() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rawcoding-json-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // About 17 MB in few values, so the test stays quick in a debug build.
        let long = String(repeating: "abcdefgh", count: 8_000)
        let elements = (0..<280).map {
            #"{"z":[true,{},null],"n":\#($0),"text":"\#(long)","r":2.0,"a":"é\n","d":1.5e300}"#
        }
        let text = "[" + elements.joined(separator: ",") + "]"
        let input = folder.appendingPathComponent("big.json")
        try Data(text.utf8).write(to: input)
        let toolLimits = Limits(maximumInputBytes: 4 << 30, maximumDepth: 512, maximumValueCount: 1 << 27)
        for (format, pretty) in [("json", false), ("json-pretty", true)] {
            let output = folder.appendingPathComponent("out-\(format).json")
            let (status, messages) = StreamingXMLConversionTests.runOnFiles([
                "convert", input.path, "--to", format, "-o", output.path,
            ])
            #expect(status == 0, "\(messages)")
            let expected = try #require(Self.throughTree(text, pretty: pretty, limits: toolLimits))
            #expect(try Array(Data(contentsOf: output)) == expected + (pretty ? [UInt8(ascii: "\n")] : []))
            // The mapping's note for reals with a whole value (2.0 and 1.5e300), as through the tree.
            #expect(messages.contains { $0.contains("560 real(s) with a whole value") }, "\(messages)")
        }
    }
}
