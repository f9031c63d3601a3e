import Foundation
import RawCoding
import Testing

/// JSON5 reading (`JSONCodec(syntax: .json5)`, `JSONReader(syntax: .json5)`): what it reads, and
/// that hostile input is a clear error in bounded time and stack. swift-foundation's own JSON5
/// cases are in `FoundationCoderPortTests`.
@Suite("JSON5 reading")
struct JSON5ReaderTests {
    struct Settings: Codable, Equatable {
        var theme: String
        var size: Int
        var ratio: Double
        var tags: [String]
    }

    static let text = """
        // Settings, as people write them by hand.
        {
            theme: 'dark',        /* single quotes */
            size: 0x0E,           // hexadecimal
            ratio: .5,
            tags: ["a", 'b',],    // trailing commas
        }
        """

    @Test func readsWhatPeopleWriteByHand() throws {
        let expected = Settings(theme: "dark", size: 14, ratio: 0.5, tags: ["a", "b"])
        let codec = JSONCodec(syntax: .json5)
        #expect(try codec.decode(Settings.self, from: Self.text) == expected)
        #expect(try codec.decodeStored(Settings.self, from: Self.text).value == expected)
        #expect(try JSONReader(syntax: .json5).read(Data(Self.text.utf8))["size"] == 14)
        // What it writes is strict JSON, which both syntaxes read.
        let written = try codec.encodeToString(expected)
        #expect(try JSONCodec().decode(Settings.self, from: written) == expected)
        #expect(throws: RawCodingError.self) { try JSONCodec().decode(Settings.self, from: Self.text) }
    }

    @Test func aDocumentWithoutBracesIsADictionaryWhenAsked() throws {
        let codec = JSONCodec(syntax: .json5, assumesTopLevelDictionary: true)
        #expect(try codec.decode([String: Int].self, from: "a: 1, b: 2,") == ["a": 1, "b": 2])
        let strict = JSONCodec(assumesTopLevelDictionary: true)
        #expect(try strict.decode([String: Int].self, from: #""a": 1, "b": 2"#) == ["a": 1, "b": 2])
        #expect(try strict.decode([String: Int].self, from: "  ") == [:])
        let trailing = #expect(throws: RawCodingError.self) { try strict.decode([String: Int].self, from: #""a": 1,"#) }
        #expect(trailing?.reason.contains("expected a string key") == true, "\(String(describing: trailing))")
        // Without the option, a string is a document of its own.
        #expect(try JSONCodec().decode(String.self, from: #""a""#) == "a")
        #expect(throws: RawCodingError.self) { try strict.decode(String.self, from: #""a""#) }
    }

    @Test func errorsNameThePositionAndPath() {
        let error = #expect(throws: RawCodingError.self) {
            try JSONCodec(syntax: .json5).decode([String: [Int]].self, from: "{a: [1, 2, x]}")
        }
        #expect(error?.codingPathDescription == "a[2]")
        #expect(error?.position?.column == 12, "\(String(describing: error))")
        for (text, reason) in [
            ("'abc", "unterminated string"), ("/* open", "unterminated comment"), ("{a: 1} /", "a comment"),
            ("'a\nb'", "line break in a string"), ("\"\\0\"", "not an escape"), ("[.e1]", "a digit after '.'"),
            ("{1a: 2}", "expected a key"), ("-Infinityx", "expected a value"),
        ] {
            let error = #expect(throws: RawCodingError.self, "\(text)") {
                try JSONReader(syntax: .json5).read(Data(text.utf8))
            }
            #expect(error?.reason.contains(reason) == true, "\(text): \(String(describing: error))")
        }
    }

    @Test func hostileInputIsABoundedError() {
        let reader = JSONReader(syntax: .json5)
        for text in [
            String(repeating: "[", count: 100_000), String(repeating: "{a:", count: 100_000),
            String(repeating: "[/**/", count: 50_000),
        ] {
            let error = #expect(throws: RawCodingError.self) { try reader.read(Data(text.utf8)) }
            #expect(error?.kind == .limitExceeded, "\(String(describing: error))")
        }
        // The nesting limit is the reader's own, not only the stack's.
        let shallow = JSONReader(limits: Limits(maximumDepth: 8), syntax: .json5)
        #expect(throws: Never.self) { try shallow.read(Data("[[[[{a:[[[1]]]}]]]]".utf8)) }
        let deep = #expect(throws: RawCodingError.self) { try shallow.read(Data("[[[[{a:[[[[1]]]]}]]]]".utf8)) }
        #expect(deep?.reason.contains("deeper than 8 levels") == true, "\(String(describing: deep))")
        let limited = JSONReader(limits: Limits(maximumValueCount: 10), syntax: .json5)
        let tooMany = #expect(throws: RawCodingError.self) { try limited.read(Data("[1,2,3,4,5,6,7,8,9,10,11,]".utf8)) }
        #expect(tooMany?.kind == .limitExceeded)
        // Long runs of comments, space and string are read in one pass.
        let long =
            "/*" + String(repeating: "*", count: 1_000_000) + "*/ '" + String(repeating: "x", count: 1_000_000) + "'"
        #expect(throws: Never.self) { try reader.read(Data(long.utf8)) }
    }
}
