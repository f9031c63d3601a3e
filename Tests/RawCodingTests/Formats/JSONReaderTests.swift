import Foundation
import RawCoding
import Testing

/// The JSON reader against vectors written for this project, one group for each category of
/// JSONTestSuite (`y_` must be accepted, `n_` rejected, `i_` is ours to decide and documented
/// in `JSONReader`).
@Suite("JSON reader")
struct JSONReaderTests {
    static let reader = JSONReader()

    func read(_ text: String) throws(RawCodingError) -> StoredValue {
        try Self.reader.read(Data(text.utf8))
    }

    func read(bytes: [UInt8]) throws(RawCodingError) -> StoredValue {
        try Self.reader.read(Data(bytes))
    }

    // MARK: y_: accepted, with the value they denote

    static let accepted: [(String, StoredValue)] = [
        // arrays
        ("[]", []), ("[[]]", [[]]), (" [ 1 , 2 ] ", [1, 2]), ("[\"a\",null,true,false]", ["a", .null, true, false]),
        ("[1,[2,[3,[4]]]]", [1, [2, [3, [4]]]]), ("[\n\t\r 1]", [1]), ("[{}]", [[:]]),
        // objects
        ("{}", [:]), ("{\"a\":1}", ["a": 1]), ("{ \"a\" : [ ] , \"b\" : { } }", ["a": [], "b": [:]]),
        ("{\"\":0}", ["": 0]), ("{\"a\":1,\"a\":2}", ["a": 2]), ("{\"a\\u0000b\":1}", ["a\u{0}b": 1]),
        ("{\"é\":1,\"e\\u0301\":2}", ["é": 1, "e\u{301}": 2]),
        // numbers
        ("0", 0), ("-0", .double(-0.0)), ("123", 123), ("-123", -123), ("1.5", 1.5), ("-1.5", -1.5),
        ("1E22", 1e22), ("1e-2", 0.01), ("1E+2", 100.0), ("0e1", 0.0), ("0e+1", 0.0), ("20e1", 200.0),
        ("123.456e78", 123.456e78), ("123e65", 123e65), ("0.1", 0.1),
        ("2.2250738585072014e-308", 2.2250738585072014e-308),
        ("9223372036854775807", .int(.max)), ("-9223372036854775808", .int(.min)),
        ("9223372036854775808", .uint(9_223_372_036_854_775_808)), ("18446744073709551615", .uint(.max)),
        ("9007199254740993", .int(9_007_199_254_740_993)),
        ("-0.000000000000000000000000000000000000000000000000000000000000000000000000000001", .double(-1e-78)),
        // strings
        ("\"\"", ""), ("\"abc\"", "abc"), ("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"", "\" \\ / \u{8} \u{C} \n \r \t"),
        ("\"\\u0000\\u001f\\u007F\"", "\u{0}\u{1F}\u{7F}"), ("\"\\u00e9\\u00E9\"", "éé"), ("\"\\ud83d\\ude00\"", "😀"),
        ("\"\\uD834\\uDD1E\"", "𝄞"), ("\"é日本語🙂\"", "é日本語🙂"), ("\"\u{7F}\u{2028}\u{2029}\"", "\u{7F}\u{2028}\u{2029}"),
        ("\"\\uFFFF\u{10FFFF}\"", "\u{FFFF}\u{10FFFF}"), ("\"\\u0061\\u30af\\u30EA\\u30b9\"", "aクリス"),
        // top-level scalars and whitespace
        ("true", true), ("false", false), ("null", .null), (" 42 ", 42), ("\"x\"\n", "x"), ("\u{FEFF}{}", [:]),
    ]

    @Test(arguments: accepted.indices)
    func acceptsValidJSON(_ index: Int) throws {
        let (text, expected) = Self.accepted[index]
        let value = try read(text)
        #expect(value == expected, "\(text.debugDescription)")
        if case .double(let number) = expected, number == 0 {
            #expect(value.doubleValue?.sign == number.sign, "the sign of zero is kept: \(text)")
        }
    }

    @Test func numbersWithMoreDigitsThanADoubleStayExact() throws {
        let value = try read("[12345678901234567890.123456789, 0.1000000000000000055511151231257827]")
        #expect(
            value == [
                .decimal(Decimal(string: "12345678901234567890.123456789")!),
                .decimal(Decimal(string: "0.1000000000000000055511151231257827")!),
            ])
        #expect(
            try JSONCodec.json.decode(Decimal.self, from: "12345678901234567890.123456789")
                == Decimal(string: "12345678901234567890.123456789"))
        #expect(
            try JSONCodec.json.decode(Double.self, from: "12345678901234567890.123456789")
                == 12345678901234567890.123456789)
    }

    // MARK: n_: rejected, with a position

    static let rejected: [(String, String)] = [
        // structure
        ("", "empty input"), (" \n ", "only whitespace"), ("[", "end of input"), ("]", "unexpected character ']'"),
        ("[1,]", "expected a value"), ("[1,,2]", "expected a value"), ("[,1]", "expected a value"),
        ("{\"a\":1,}", "expected a string key"),
        ("{,}", "expected a string key"), ("{\"a\" 1}", "expected ':'"), ("{\"a\":}", "expected a value"),
        ("{1:1}", "expected a string key"),
        ("{'a':1}", "expected a string key"), ("{a:1}", "expected a string key"), ("[1 2]", "expected ',' or ']'"),
        ("{\"a\":1 \"b\":2}", "expected ',' or '}'"), ("[1]]", "after the JSON value"), ("1 2", "after the JSON value"),
        ("[1]x", "after the JSON value"), ("{\"a\":1", "end of input"), ("[\"a\"", "end of input"),
        ("[1] // comment", "after the JSON value"), ("/* c */ [1]", "unexpected character '/'"),
        ("[1,/**/2]", "expected a value"),
        ("\u{FEFF}", "only whitespace"), ("[\u{0C}1]", "expected a value"), ("[\u{A0}1]", "expected a value"),
        // literals
        ("tru", "expected 'true'"), ("nul", "expected 'null'"), ("True", "unexpected character 'T'"),
        ("[nulll]", "expected ',' or ']'"),
        ("NaN", "unexpected character 'N'"), ("[Infinity]", "unexpected character 'I'"),
        ("[-Infinity]", "expected a digit"),
        // numbers
        ("01", "leading zero"), ("-01", "leading zero"), ("[.5]", "unexpected character '.'"),
        ("[5.]", "after the decimal point"),
        ("[1e]", "in the exponent"), ("[1e+]", "in the exponent"), ("[+1]", "unexpected character '+'"),
        ("[-]", "expected a digit"),
        ("[0x10]", "expected ',' or ']'"), ("[1.2.3]", "expected ',' or ']'"), ("[1e1.5]", "expected ',' or ']'"),
        ("[- 1]", "expected a digit"),
        ("[1_000]", "expected ',' or ']'"), ("[１]", "unexpected byte"),
        // strings
        ("\"abc", "unterminated string"), ("[\"a\tb\"]", "unescaped control character"),
        ("[\"a\nb\"]", "unescaped control character"),
        ("[\"\\a\"]", "invalid escape"), ("[\"\\x41\"]", "invalid escape"), ("[\"\\'\"]", "invalid escape"),
        ("[\"\\u00G0\"]", "not a hexadecimal digit"),
        ("[\"\\u12\"]", "not a hexadecimal digit"), ("[\"\\", "unterminated"), ("['a']", "unexpected character '''"),
        ("[\"\\ud800\"]", "lone surrogate"), ("[\"\\udc00\"]", "lone surrogate"),
        ("[\"\\ud800\\u0041\"]", "lone surrogate"),
        ("[\"\\ud800x\"]", "lone surrogate"), ("[\"\\udbff\\udbff\"]", "lone surrogate"),
    ]

    @Test(arguments: rejected.indices)
    func rejectsInvalidJSON(_ index: Int) {
        let (text, words) = Self.rejected[index]
        let error = #expect(throws: RawCodingError.self, "\(text.debugDescription)") { try read(text) }
        #expect(error?.kind == .decodingFailed, "\(text.debugDescription)")
        #expect(error?.reason.contains(words) == true, "\(text.debugDescription): \(error?.reason ?? "")")
        #expect(error?.position?.line != nil, "\(text.debugDescription)")
    }

    static let invalidUTF8: [[UInt8]] = [
        [0x22, 0xFF, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22],
        [0x22, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xF8, 0x88, 0x80, 0x80, 0x80, 0x22],
        [0x22, 0x61, 0x5C, 0x6E, 0xE9, 0x22],  // after an escape: "a\né" in Latin-1
    ]

    @Test(arguments: invalidUTF8)
    func rejectsInvalidUTF8InStrings(_ bytes: [UInt8]) {
        let error = #expect(throws: RawCodingError.self) { try read(bytes: bytes) }
        #expect(error?.reason.contains("UTF-8") == true, "\(error?.reason ?? "")")
    }

    /// UTF-16 and UTF-32 are read as JSONDecoder reads them (CoreFoundationRulesTests has each form).
    @Test func readsUTF16Input() throws {
        let utf16 = Array("[\"a\"]".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(try read(bytes: utf16) == ["a"])
        #expect(try read(bytes: [0xFF, 0xFE] + utf16) == ["a"])
    }

    // MARK: i_: the choices JSONReader documents

    @Test func integersBeyond64BitsAreExactDecimalsUpTo38DigitsAndAnErrorBeyond() throws {
        let exact = [
            "100000000000000000000", "-9223372036854775809", "18446744073709551616",
            "99999999999999999999999999999999999999", "-12345678901234567890123456789012345678",
            "1000000000000000000000000000000000000000000000000000",  // one significant digit
        ]
        for text in exact {
            #expect(try read("[\(text)]") == [.decimal(Decimal(string: text)!)], "\(text)")
        }
        // 39 digits below 2^128 still fit a Decimal's mantissa.
        #expect(
            try read("[340282366920938463463374607431768211455]") == [
                .decimal(Decimal(string: "340282366920938463463374607431768211455")!)
            ])
        for text in [
            "[-237462374673276894279832749832423479823246327846]", "[340282366920938463463374607431768211456]",
        ] {
            let error = #expect(throws: RawCodingError.self) { _ = try read(text) }
            #expect(error?.reason.contains("more significant digits than any number type holds") == true, "\(text)")
            #expect(error?.position?.column == 2, "\(text)")
        }
    }

    @Test func fractionsBeyondThirtyEightDigitsAreTheNearestDoubleAndOverflowIsAnError() throws {
        let long = "0." + String(repeating: "1234567890", count: 5)
        #expect(try read(long) == .double(Double(long)!))
        #expect(try read("123456789.123456789") == .decimal(Decimal(string: "123456789.123456789")!))
        // 17 digits a Double does not keep stay exact; 17 that are a Double's shortest text do not.
        #expect(try read("0.10000000000000001") == .decimal(Decimal(string: "0.10000000000000001")!))
        // 16 digits, within the fast path's exact mantissas, that a Double still rounds.
        #expect(try read("8.999999999999999") == .decimal(Decimal(string: "8.999999999999999")!))
        #expect(try read("9.007199254740002") == .decimal(Decimal(string: "9.007199254740002")!))
        #expect(try read("1.000000000000001") == .double(1.000000000000001))
        #expect(try read("0.30000000000000004") == .double(0.1 + 0.2))
        #expect(try read("3.0000000000000004e-1") == .double(0.1 + 0.2))
        for text in ["1e400", "-1e400", "[1, 2e999]"] {
            let error = #expect(throws: RawCodingError.self) { _ = try read(text) }
            #expect(error?.reason.contains("too large for a Double") == true, "\(text)")
        }
        #expect(try read("0e-400") == .double(0))
    }

    @Test func numbersBeyondADoubleAreAnErrorAndSoAreTinyOnes() throws {
        for text in ["[1.5e+9999]", "[-1e+9999]", "[123123e100000]", "[0.4e00669999999999999999999999999999999999999]"]
        {
            let error = #expect(throws: RawCodingError.self) { try read(text) }
            #expect(error?.reason.contains("too large for a Double") == true, "\(text)")
        }
        // JSONDecoder refuses these too: read as 0 they would be another number.
        for text in ["1e-400", "[123.456e-789]", "[123e-10000000]", "[-5e-999]"] {
            let error = #expect(throws: RawCodingError.self) { try read(text) }
            #expect(error?.reason.contains("too small for a Double") == true, "\(text)")
        }
        #expect(try read("[0.000e-10000000]") == [0.0])
    }

    @Test func nestingUpToTheLimitIsAcceptedAndDeeperIsALimitError() throws {
        _ = try read(String(repeating: "[", count: 500) + String(repeating: "]", count: 500))
        _ = try read(String(repeating: "{\"a\":", count: 512) + "1" + String(repeating: "}", count: 512))
        for depth in [513, 100_000] {
            let error = #expect(throws: RawCodingError.self) {
                try read(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
            }
            #expect(error?.kind == .limitExceeded)
            #expect(error?.reason.contains("deeper than 512 levels") == true)
            #expect(error?.position?.column == 513)
        }
    }

    @Test func aByteOrderMarkIsSkippedOnlyAtTheStart() throws {
        #expect(try read("\u{FEFF}[1]") == [1])
        #expect(throws: RawCodingError.self) { try read("[\u{FEFF}1]") }
    }

    // MARK: Positions and limits

    @Test func errorsGiveLineAndColumn() {
        let text = "{\n  \"name\": \"Ada\",\n  \"tags\": [1, 2,]\n}"
        let error = #expect(throws: RawCodingError.self) { try read(text) }
        #expect(error?.position?.line == 3)
        #expect(error?.position?.column == 17)
        #expect(error?.position?.byteOffset == 35)
        #expect(error?.description.contains("line 3, column 17") == true, "\(error?.description ?? "")")
    }

    @Test func columnsCountCharactersNotBytes() {
        let error = #expect(throws: RawCodingError.self) { try read("[\"日本\", x]") }
        #expect(error?.position?.column == 8)
    }

    @Test func limitsAreEnforced() throws {
        let small = JSONReader(limits: Limits(maximumInputBytes: 10))
        let size = #expect(throws: RawCodingError.self) { try small.read(Data("[1,2,3,4,5,6]".utf8)) }
        #expect(size?.kind == .limitExceeded)
        let few = JSONReader(limits: Limits(maximumValueCount: 5))
        _ = try few.read(Data("[1,2,3,4]".utf8))
        let count = #expect(throws: RawCodingError.self) { try few.read(Data("[1,2,3,4,5]".utf8)) }
        #expect(count?.kind == .limitExceeded)
        #expect(count?.reason.contains("Limits.maximumValueCount") == true)
        let shallow = JSONReader(limits: Limits(maximumDepth: 2))
        _ = try shallow.read(Data("[[1]]".utf8))
        #expect(throws: RawCodingError.self) { try shallow.read(Data("[[[1]]]".utf8)) }
        let deep = JSONReader(limits: Limits(maximumDepth: 1_000_000))
        let ceiling = #expect(throws: RawCodingError.self) {
            try deep.read(Data((String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)).utf8))
        }
        #expect(ceiling?.reason.contains("deeper than \(Limits.depthCeiling) levels") == true)
    }

    @Test func codecErrorsNameTheTypeAndThePosition() {
        struct Settings: Decodable { var theme: String }
        let error = #expect(throws: RawCodingError.self) {
            try JSONCodec.json.decode(Settings.self, from: "{\"theme\": \"dark\",}")
        }
        #expect(error?.typeName.hasSuffix("Settings") == true)
        #expect(error?.position?.column == 18)
    }
}

/// Every reader reaches the depth ceiling on a thread with the default 8 MiB stack, in debug
/// builds too (up to about 3 KB per level there; see `Limits.maximumDepth`).
@Suite("Depth ceiling")
struct DepthCeilingTests {
    /// Runs `body` on a thread with an 8 MiB stack and waits for it.
    func onSmallStack(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        done.wait()
    }

    @Test func readersReachTheCeilingOnAnEightMegabyteStack() {
        let depth = Limits.depthCeiling
        let limits = Limits(maximumDepth: depth)
        let results = Collected<String>()
        onSmallStack {
            let json = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let xml =
                "<plist version=\"1.0\">" + String(repeating: "<array>", count: depth)
                + String(repeating: "</array>", count: depth) + "</plist>"
            var binary = BinaryPropertyListBuilder()
            binary.referenceSize = 2
            binary.offsetSize = 4
            for index in 0..<(depth - 1) {
                binary.add([0xA1] + BinaryPropertyListBuilder.bigEndian(UInt64(index + 1), size: 2))
            }
            binary.add([0xA0])
            do {
                _ = try JSONReader(limits: limits).read(Data(json.utf8))
                results.append("json")
                _ = try XMLPropertyListReader(limits: limits).read(Data(xml.utf8))
                results.append("xml")
                _ = try BinaryPropertyListReader(limits: limits).read(binary.build())
                results.append("binary")
            } catch {
                results.append("\(error)")
            }
        }
        #expect(results.all == ["json", "xml", "binary"])
    }
}
