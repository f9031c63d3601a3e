import Foundation
import RawCoding
import Testing

/// JSON to binary property lists without a tree: the same values, errors and limits as
/// reading the JSON and writing the tree.
@Suite("Streaming JSON to binary property list")
struct StreamingConversionTests {
    typealias Failure = JSONToBinaryPropertyList.Failure<Never>

    /// The conversion of `text`, checked to be the same (bytes or failure) whether strings go
    /// through the transform or, as the transform returns them unchanged, straight to the writer.
    func stream(_ text: String, limits: Limits = .default) throws(Failure) -> Data {
        func convert(stringsUnchanged: Bool) -> Result<[UInt8], Failure> {
            Result { () throws(Failure) in
                try JSONToBinaryPropertyList.convert(
                    Data(text.utf8), limits: limits, stringsUnchanged: stringsUnchanged
                ) { value, _ in value }
            }
        }
        let direct = convert(stringsUnchanged: true)
        let transformed = convert(stringsUnchanged: false)
        #expect("\(direct)" == "\(transformed)", "\(text)")
        // Handed on in pieces, the same file, or the same failure.
        for pieceSize in [1, 64] {
            var pieces: [[UInt8]] = []
            let pieced = Result { () throws(Failure) -> [UInt8] in
                try JSONToBinaryPropertyList.convert(
                    Data(text.utf8), limits: limits, stringsUnchanged: true, pieceSize: pieceSize,
                    emit: { pieces.append($0) }
                ) { value, _ in value }
                #expect(pieces.dropLast().allSatisfy { $0.count >= pieceSize } && !pieces.contains([]))
                return pieces.flatMap { $0 }
            }
            #expect("\(pieced)" == "\(direct)", "\(text), pieces of \(pieceSize)")
        }
        return Data(try direct.get())
    }

    /// JSON's values: no dates or bytes, no NaN, no null (property lists have none).
    static func jsonSafe(_ value: StoredValue) -> StoredValue? {
        switch value {
        case .null, .date, .data: return nil
        case .double(let double) where !double.isFinite: return nil
        case .array(let elements): return .array(elements.compactMap(jsonSafe))
        case .dictionary(let dictionary):
            return .dictionary(
                StoredDictionary(dictionary.compactMap { entry in jsonSafe(entry.value).map { (entry.key, $0) } }))
        default: return value
        }
    }

    @Test func randomDocumentsGiveTheTreesValues() throws {
        var generator = SeededGenerator(state: 0x5757_EA11)
        var checked = 0
        for _ in 0..<1_000 {
            guard let tree = Self.jsonSafe(StoredValue.random(using: &generator, depth: 5, propertyListSafe: true))
            else {
                continue
            }
            let text = String(decoding: try JSONWriter().write(tree), as: UTF8.self)
            let expected = try JSONReader().read(Data(text.utf8))
            let binary = try stream(text)
            #expect(try BinaryPropertyListReader().read(binary) == expected, "\(text)")
            checked += 1
        }
        #expect(checked > 500)
    }

    /// What `emit` throws ends the conversion as `emitting`, with nothing after it emitted.
    @Test func aFailureToEmitEndsTheConversion() throws {
        struct Full: Error {}
        let text = "[" + (0..<200).map { #"{"n":\#($0),"s":"text \#($0)"}"# }.joined(separator: ",") + "]"
        var emitted = 0
        var thrown: Failure?
        do throws(Failure) {
            try JSONToBinaryPropertyList.convert(
                Data(text.utf8), limits: .default, pieceSize: 256,
                emit: { _ in
                    emitted += 1
                    if emitted == 2 { throw Full() }
                }
            ) { value, _ in value }
        } catch {
            thrown = error
        }
        guard case .emitting(let failure) = try #require(thrown) else {
            Issue.record("expected emitting, got \(String(describing: thrown))")
            return
        }
        #expect(failure is Full)
        #expect(emitted == 2)
    }

    @Test func errorsAndLimitsMatchTheReader() throws {
        let cases = [
            #"{"a":[1,2,}"#, #"{"a" 1}"#, "[1] x", "", #"{"k":[true,fals]}"#, "[[[[1]]]]", #"{"s":"\uD800"}"#,
            "[1 2]", #"{"a":1 "b":2}"#, #"{"a":[[1],[2 3]]}"#, #"{"a":{"b":1,}}"#,
            // Keys read as bytes and as text: escaped, non-ASCII, longer than a shared string.
            #"{"k\u00e9":{"é":[1,}}"#, #"{"é" 1}"#, "{\"\(String(repeating: "k", count: 70))\":[1 2]}",
            "{\"a\u{1}\":1}", #"{"a":1,"b":{"c":[[[1]]]}}"#,
        ]
        let limits = Limits(maximumInputBytes: 1 << 20, maximumDepth: 3, maximumValueCount: 100)
        for text in cases {
            let expected = #expect(throws: RawCodingError.self) { try JSONReader(limits: limits).read(Data(text.utf8)) }
            var thrown: FormatFailure?
            do throws(Failure) {
                _ = try stream(text, limits: limits)
            } catch {
                // Malformed JSON and the reader's limits are reading failures.
                if case .reading(let failure) = error { thrown = failure }
            }
            let failure = try #require(thrown, "\(text) should fail while reading")
            let streamed = RawCodingError(failure, subject: StoredValue.self)
            #expect(streamed.reason == expected?.reason, "\(text)")
            #expect(streamed.position == expected?.position, "\(text)")
            #expect(streamed.codingPathDescription == expected?.codingPathDescription, "\(text)")
        }
    }

    @Test func whatAPropertyListCannotHoldIsRefusedWithItsPath() throws {
        for (text, path, words) in [
            (#"{"a":{"b":[1,null]}}"#, "a.b[1]", "no null"),
            (#"{"café":{"n\u0061me":[1,null]}}"#, "café.name[1]", "no null"),
            (#"[0.10000000000000001]"#, "[0]", "not exactly a real"),
        ] {
            var thrown: FormatFailure?
            do throws(Failure) {
                _ = try stream(text)
            } catch {
                // What the property list cannot hold is a writing failure.
                if case .writing(let failure) = error { thrown = failure }
            }
            let error = RawCodingError(
                try #require(thrown, "\(text) should fail while writing"), subject: StoredValue.self)
            #expect(error.codingPathDescription == path)
            #expect(error.reason.contains(words), "\(error)")
        }
        // More values and keys than the reader of the result takes.
        #expect {
            try stream(#"{"a":1,"b":2,"c":3}"#, limits: Limits(maximumValueCount: 6))
        } throws: { error in
            if case .writing = error as? Failure { return true }
            return false
        }
        #expect(
            try BinaryPropertyListReader().read(stream(#"{"a":1,"b":2,"c":3}"#, limits: Limits(maximumValueCount: 7)))
                == ["a": 1, "b": 2, "c": 3])
    }

    @Test(Python.required) func plistlibReadsTheStreamingLayout() throws {
        let binary = try stream(
            #"{"name":"Ada","tags":["math","🙂",""],"n":[1,-2,3.5,18446744073709551615],"t":true,"f":false}"#)
        let result = try Python.run(
            "import plistlib,sys; v=plistlib.load(open(sys.argv[1],'rb')); print(sorted(v.items()))", input: binary)
        #expect(
            result.output
                == "[('f', False), ('n', [1, -2, 3.5, 18446744073709551615]), ('name', 'Ada'), ('t', True), ('tags', ['math', '🙂', ''])]\n",
            "\(result.errors)")
    }
}
