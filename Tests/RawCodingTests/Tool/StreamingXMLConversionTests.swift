import Foundation
import RawCoding
import RawCodingCommandLine
import Testing

/// JSON to XML property lists piece by piece: the same bytes as reading the tree and writing it,
/// and, for anything the tree path would report, a stop that leaves the document to it.
@Suite("Streaming JSON to XML property list")
struct StreamingXMLConversionTests {
    /// The streamed output, pieces joined, and how many pieces there were; `nil` when the
    /// conversion left the document to the tree path.
    static func stream(
        _ text: String, limits: Limits = .default, pieceSize: Int = 1,
        transform: (StoredValue) throws(RawCodingError) -> StoredValue = { $0 }
    ) throws -> (bytes: [UInt8], pieces: Int)? {
        var bytes: [UInt8] = []
        var pieces = 0
        do throws(JSONToXMLPropertyList.Stop) {
            try JSONToXMLPropertyList.convert(
                Data(text.utf8), limits: limits, pieceSize: pieceSize,
                emit: { piece in
                    #expect(!piece.isEmpty)
                    bytes += piece
                    pieces += 1
                }
            ) { (value, _) throws(RawCodingError) -> StoredValue in try transform(value) }
            return (bytes, pieces)
        } catch {
            switch error {
            case .leftToTree: return nil
            case .emitting(let failure): throw failure
            }
        }
    }

    /// What the tree path writes for `text`, or `nil` where it fails.
    static func throughTree(_ text: String, limits: Limits = .default) -> [UInt8]? {
        do throws(FormatFailure) {
            let tree = try JSONTreeFormat().readTree(Data(text.utf8), limits: limits)
            return try XMLPropertyListTreeFormat().writeTree(tree, limits: limits, loss: .allow)
        } catch {
            return nil
        }
    }

    @Test func randomDocumentsGiveTheTreePathsBytes() throws {
        var generator = SeededGenerator(state: 0x5757_0E1)
        var checked = 0
        var manyPieces = 0
        for _ in 0..<800 {
            guard
                let tree = StreamingConversionTests.jsonSafe(
                    StoredValue.random(using: &generator, depth: 5, propertyListSafe: true))
            else { continue }
            var text = String(decoding: try JSONWriter().write(tree), as: UTF8.self)
            // Half in an array, whose finished elements go out while the rest is read.
            if checked % 2 == 0 { text = "[\(text),\(text),[\(text)]]" }
            // Pieces of every size: each finished byte as soon as it is finished, and whole.
            for pieceSize in [1, 64, 1 << 20] {
                let streamed = try #require(try Self.stream(text, pieceSize: pieceSize), "\(text)")
                #expect(streamed.bytes == Self.throughTree(text), "\(text)")
                if pieceSize == 1, streamed.pieces > 3 { manyPieces += 1 }
            }
            checked += 1
        }
        #expect(checked > 400)
        #expect(manyPieces > 40)
    }

    @Test func whatTheTreePathWouldReportIsLeftToIt() throws {
        let tight = Limits(maximumInputBytes: 1 << 20, maximumDepth: 3, maximumValueCount: 8)
        for text in [
            #"{"a":[1,2,}"#, "[1] x", "", #"{"k":[true,fals]}"#, #"{"s":"\uD800"}"#, "[1 2]",
            #"{"a":1,"b":2,"a":3}"#, #"[{"x":[{"y":1,"y":2}]}]"#, "[[[[1]]]]", "[1,2,3,4,5,6,7,8,9]",
        ] {
            #expect(try Self.stream(text, limits: tight) == nil, "\(text)")
        }
        // The transform's refusal.
        let refusing = { (value: StoredValue) throws(RawCodingError) -> StoredValue in
            if value == .int(2) { throw RawCodingError(kind: .encodingFailed, typeName: "T", reason: "no twos") }
            return value
        }
        #expect(try Self.stream("[1,[2]]", transform: refusing) == nil)
        // What the writer refuses, and output over the size limit.
        #expect(try Self.stream("[0.10000000000000001]") == nil)
        #expect(Self.throughTree("[0.10000000000000001]") == nil)
        let small = Limits(maximumInputBytes: 400)
        let long = #"["\#(String(repeating: "x", count: 300))"]"#
        #expect(try Self.stream(long, limits: small) == nil)
        #expect(Self.throughTree(long, limits: small) == nil)
        #expect(try Self.stream(#"["x"]"#, limits: small)?.bytes == Self.throughTree(#"["x"]"#, limits: small))
    }

    /// Runs the tool on real files (the process's reading and writing), keeping its messages.
    static func runOnFiles(_ arguments: [String]) -> (status: Int32, messages: [String]) {
        final class Lines: @unchecked Sendable { var lines: [String] = [] }
        let lines = Lines()
        var io = ToolIO.process
        io.message = { lines.lines.append($0) }
        io.messagesGoToTerminal = false
        let status = Tool.run(arguments, io: io)
        return (status, lines.lines)
    }

    /// Through the tool: a JSON document over the streaming threshold converts to the tree
    /// path's bytes, written atomically; one that fails at its end leaves no file behind.
    @Test func theToolStreamsLargeDocuments() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rawcoding-xml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // About 17 MB in few values, so the test stays quick in a debug build.
        let long = String(repeating: "abcdefgh", count: 8_000)
        let elements = (0..<280).map {
            #"{"n":\#($0),"text":"\#(long)","z":[true,{}],"a":"é","d":"2026-12-03T10:00:00Z"}"#
        }
        let text = "[" + elements.joined(separator: ",") + "]"
        let input = folder.appendingPathComponent("big.json")
        try Data(text.utf8).write(to: input)
        let output = folder.appendingPathComponent("big.plist")
        let (status, messages) = Self.runOnFiles(["convert", input.path, "--to", "xml", "-o", output.path])
        #expect(status == 0, "\(messages)")
        let toolLimits = Limits(maximumInputBytes: 4 << 30, maximumDepth: 512, maximumValueCount: 1 << 27)
        #expect(try Array(Data(contentsOf: output)) == Self.throughTree(text, limits: toolLimits))

        // To binary, streamed too: strings skip the mapping only where it leaves them as they
        // are, so --restore dates still turns the date text into dates.
        let binary = folder.appendingPathComponent("big.bplist")
        for (restoring, expected) in [(false, StoredValue.string("2026-12-03T10:00:00Z") as StoredValue?), (true, nil)]
        {
            let arguments =
                ["convert", input.path, "--to", "binary", "-o", binary.path]
                + (restoring ? ["--restore", "dates"] : [])
            let (converted, notes) = Self.runOnFiles(arguments)
            #expect(converted == 0, "\(notes)")
            let read = try BinaryPropertyListReader(limits: toolLimits).read(Data(contentsOf: binary))
            let date = read.arrayValue?.last?["d"]
            if let expected {
                #expect(date == expected)
            } else {
                #expect(date?.dateValue != nil, "\(String(describing: date))")
            }
        }
        try FileManager.default.removeItem(at: binary)

        // Malformed at the very end: the tree path's message (for XML; the reader's for binary),
        // and no output or temporary file.
        let broken = folder.appendingPathComponent("broken.json")
        try Data((text.dropLast() + ",]").utf8).write(to: broken)
        // To binary, the pieces already written are removed with the temporary file.
        for format in ["xml", "binary"] {
            let (failed, failure) = Self.runOnFiles([
                "convert", broken.path, "--to", format, "-o", folder.path + "/out.plist",
            ])
            #expect(failed == 1)
            #expect(failure.joined().contains("JSON error at"), "\(failure)")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            #expect(left == ["big.json", "big.plist", "broken.json"])
        }
    }

    /// The tool writes pieces on a thread of its own: in order, and a failure to write is
    /// thrown, never lost.
    @Test func piecesAreWrittenInOrderAndWriteFailuresThrown() throws {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("rawcoding-pieces-\(UUID().uuidString)")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: file) }
        let pieces = (0..<64).map { [UInt8](repeating: UInt8($0), count: 4_000 + $0) }
        let handle = try FileHandle(forWritingTo: file)
        let returned = try PieceWriter.writing(to: handle) { emit in
            for piece in pieces { try emit(piece) }
            return 7
        }
        try handle.close()
        #expect(returned == 7)
        #expect(Array(try Data(contentsOf: file)) == pieces.flatMap { $0 })

        // /dev/full refuses every write (Linux; Apple systems have no such device).
        #if os(Linux)
            let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
            #expect(throws: (any Error).self) {
                try PieceWriter.writing(to: full) { emit in
                    for piece in pieces { try emit(piece) }
                }
            }
        #endif
    }
}
