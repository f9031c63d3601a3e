import Foundation
import RawCoding
import Testing

@Suite("OpenStep property lists and .strings files")
struct OpenStepPropertyListTests {
    func read(_ text: String, limits: Limits = .default) throws(RawCodingError) -> StoredValue {
        try read(Data(text.utf8), limits: limits)
    }

    func read(_ data: Data, limits: Limits = .default) throws(RawCodingError) -> StoredValue {
        do {
            return try OpenStepPropertyListTreeFormat().readTree(data, limits: limits)
        } catch {
            throw RawCodingError(error, subject: StoredValue.self)
        }
    }

    /// The error for `text`: its reason and position.
    func failure(_ text: String, limits: Limits = .default) -> RawCodingError? {
        failure(Data(text.utf8), limits: limits)
    }

    func failure(_ data: Data, limits: Limits = .default) -> RawCodingError? {
        do {
            let value = try read(data, limits: limits)
            Issue.record("read \(value)")
            return nil
        } catch {
            return error
        }
    }

    @Test func readsEveryKindOfValue() throws {
        let text = """
            // a comment
            {
                Name = "Ada Lovelace";
                Born = 1815; /* a string: the format has no numbers */
                Tags = (math, 'single', "poetry \\"and\\" science", );
                Seal = <0fbd 7777 A0>;
                Nested = { Empty = (); Dict = {}; Text = "caf\\U00e9 \\UD83D\\UDE42 \\101\\t\\n\\\\"; };
                Path = /usr/local/bin:$HOME.x-y_z;
            }
            """
        let expected: StoredValue = [
            "Name": "Ada Lovelace", "Born": "1815", "Tags": ["math", "single", "poetry \"and\" science"],
            "Seal": .data(Data([0x0F, 0xBD, 0x77, 0x77, 0xA0])),
            "Nested": ["Empty": [], "Dict": [:], "Text": "café 🙂 A\t\n\\"], "Path": "/usr/local/bin:$HOME.x-y_z",
        ]
        #expect(try read(text) == expected)
        // Key order is the file's.
        #expect(try read(text).dictionaryValue?.keys.first == "Name")
    }

    @Test func readsStringsFilesInUTF8AndUTF16() throws {
        let text = "/* Localizable */\n\"greeting\" = \"Bonjour\";\n\"self\";\nbare = \"word\";\n\"café\" = \"🙂\";\n"
        let expected: StoredValue = ["greeting": "Bonjour", "self": "self", "bare": "word", "café": "🙂"]
        #expect(try read(text) == expected)
        #expect(try read(Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8)) == expected)
        var little = Data([0xFF, 0xFE])
        var big = Data([0xFE, 0xFF])
        for unit in text.utf16 {
            little += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            big += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        #expect(try read(little) == expected)
        #expect(try read(big) == expected)
        #expect(try read("") == [:])
        #expect(try read("  // nothing\n") == [:])
        #expect(try read("\"just a string\"") == "just a string")
        #expect(try read("(a, b)") == ["a", "b"])
    }

    @Test func errorsSayWhatAndWhere() {
        let cases: [(String, String, line: Int, column: Int)] = [
            ("{ a = b; c = d }", "expected ';' after the value of \"c\", found '}'", 1, 16),
            ("{ a = b;", "the dictionary opened here is not closed with '}'", 1, 1),
            ("(a, b", "the array opened here is not closed with ')'", 1, 1),
            ("(a b)", "expected ',' or ')' in the array, found 'b'", 1, 4),
            ("{ a b; }", "expected '=' after the key \"a\", found 'b'", 1, 5),
            ("\"open", "the string opened here is not closed", 1, 1),
            ("/* open", "a /* comment is not closed", 1, 1),
            ("<0fb>", "data holds an odd number of hex digits", 1, 5),
            ("<0fbz>", "data holds 'z', not a hex digit", 1, 5),
            ("{ a = 1;\n  a = 2; }", "the key \"a\" appears twice in one dictionary", 2, 3),
            ("(a) b", "'b' after the property list's value, which ended before it", 1, 5),
            ("{ (a) = b; }", "a dictionary key must be a string, not '('", 1, 3),
            ("(a, })", "'}' cannot start a value", 1, 5),
            ("\"\\UD83D\"", "\\U escape of a lone high surrogate", 1, 2),
            ("\"\\UDE42\"", "\\U escape of a lone low surrogate", 1, 2),
            ("\"\\U\"", "\\U must be followed by hex digits", 1, 2),
            ("\"\\376\"", "the octal escape \\376 names no character (the byte 0xFE of the NeXTSTEP encoding", 1, 2),
            ("\"a\\777\"", "the octal escape \\777 names no character (the byte 0xFF", 1, 3),
            ("{ a = ", "the input ends where a value should start", 1, 7),
        ]
        for (text, reason, line, column) in cases {
            let error = failure(text)
            #expect(error?.reason.hasPrefix(reason) == true, "\(text): \(error?.reason ?? "")")
            #expect(
                error?.position?.line == line && error?.position?.column == column, "\(text): \(error?.position as Any)"
            )
        }
        // The path to the value that failed.
        #expect(failure("{ a = { b = (x, <1>); }; }")?.codingPathDescription == "a.b[1]")
        // Not UTF-8, and no byte-order mark.
        let latin1 = failure(Data([0x22, 0xE9, 0x22]))
        #expect(latin1?.reason.contains("0xE9 is not UTF-8") == true, "\(latin1?.reason ?? "")")
        #expect(latin1?.position?.byteOffset == 1)
    }

    /// Octal escapes read as Core Foundation's own OpenStep reader reads them: up to three
    /// digits, the value kept to a byte (`\501` is `A`, as Foundation reads it), and a byte above
    /// 0x7F a character of the NeXTSTEP encoding, with Foundation's `.nextstep` conversion as the
    /// oracle; the two bytes that encoding leaves undefined are refused, as Core Foundation
    /// refuses them ("Unable to convert octet-stream").
    @Test func octalEscapesReadAsCoreFoundationReadsThem() throws {
        #expect(try read(#"("\101", "\501", "\5", "\0055", "\12x")"#) == ["A", "A", "\u{5}", "\u{5}5", "\nx"])
        for value in 0o200...0o777 {
            let byte = UInt8(truncatingIfNeeded: value)
            let text = "\"\\\(String(value, radix: 8))\""
            if let expected = String(data: Data([byte]), encoding: .nextstep) {
                #expect(try read(text) == .string(expected), "\(text)")
            } else {
                #expect(failure(text)?.reason.contains("names no character") == true, "\(text)")
                #expect(byte >= 0xFE, "\(text)")
            }
        }
        #expect(try read(#""\200\341""#) == "\u{A0}Æ")
    }

    /// In UTF-16 input the line and column are the text's and the byte offset is the input's.
    @Test func utf16ErrorsGiveTheInputsByteOffset() {
        func utf16(_ text: String) -> Data {
            var data = Data([0xFF, 0xFE])
            for unit in text.utf16 { data += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
            return data
        }
        let missing = failure(utf16("\"é\" = \"x\"\n\"b\" = \"y\""))
        #expect(missing?.reason.hasPrefix("expected ';' after the value of \"é\"") == true, "\(missing?.reason ?? "")")
        #expect(missing?.position?.line == 2 && missing?.position?.column == 1)
        #expect(missing?.position?.byteOffset == 2 + 2 * 10)
        #expect(failure(Data([0xFF, 0xFE, 0x41]))?.reason.contains("odd number of bytes") == true)
        let lone = failure(Data([0xFF, 0xFE, 0x22, 0x00, 0x3D, 0xD8, 0x22, 0x00]))
        #expect(lone?.reason == "a lone high surrogate in UTF-16 text")
        #expect(lone?.position?.byteOffset == 4)
    }

    @Test func limitsHoldAsInTheOtherReaders() {
        let deep = String(repeating: "(", count: 40) + String(repeating: ")", count: 40)
        let depth = failure(deep, limits: Limits(maximumDepth: 32))
        #expect(depth?.kind == .limitExceeded && depth?.reason.contains("deeper than 32 levels") == true)
        let many = failure("(a, b, c, d, e)", limits: Limits(maximumValueCount: 4))
        #expect(many?.kind == .limitExceeded && many?.reason.contains("more than 4 values") == true)
        // Keys count, as in JSON.
        #expect(failure("{ a = b; c = d; }", limits: Limits(maximumValueCount: 4))?.kind == .limitExceeded)
        let size = failure("(a, b, c)", limits: Limits(maximumInputBytes: 4))
        #expect(size?.kind == .limitExceeded && size?.reason.contains("over the limit of 4 bytes") == true)
        // 100,000 levels: refused by the depth limit, no stack overflow.
        let hostile = failure(String(repeating: "{a=", count: 100_000))
        #expect(hostile?.kind == .limitExceeded)
    }

    @Test func detectionTellsOpenStepFromJSON() {
        let openStep = [
            "(a)", "// c\n{}", "{ a = b; }", "{ \"a\" = \"b\"; }", "\"k\" = \"v\";", "\"k\";", "key = v;", "word",
            "{ /* c */ }", "{ 'a' = b; }",
        ]
        for text in openStep {
            #expect(TreeFormats.detect(Data(text.utf8)) is OpenStepPropertyListTreeFormat, "\(text)")
        }
        for text in ["{}", "{\"a\": 1}", "{ \"a\\\"=\" : 1 }", "[1]", "\"s\"", "12", "-1", "true", "null", "false"] {
            #expect(TreeFormats.detect(Data(text.utf8)) is JSONTreeFormat, "\(text)")
        }
        #expect(TreeFormats.detect(Data([0xFF, 0xFE, 0x7B, 0x00])) is OpenStepPropertyListTreeFormat)
        for bytes: [UInt8] in [[0x89, 0x50, 0x4E, 0x47], [0x00, 0x01], Array("%PDF-1.7".utf8), Array("]".utf8)] {
            let format = TreeFormats.detect(Data(bytes))
            #expect(format is UnrecognizedTreeFormat, "\(bytes)")
            #expect(throws: FormatFailure.self) { _ = try format.readTree(Data(bytes), limits: .default) }
        }
    }

    @Test func writingIsRefusedNamingTheFormatsThatAreWritten() {
        #expect(throws: FormatFailure.self) {
            _ = try OpenStepPropertyListTreeFormat().writeTree(["a": "b"], limits: .default, loss: .allow)
        }
    }
}
