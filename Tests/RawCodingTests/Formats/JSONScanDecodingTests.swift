import Foundation
import RawCoding
import Testing

/// `JSONCodec.decode` reads a model straight from a flat scan of the bytes; decoding the tree
/// `readTree` reads is the reference. Both must give the same value or the same error for every
/// document and type.
@Suite("JSON decoding from the scan")
struct JSONScanDecodingTests {
    struct Mixed: Codable, Equatable {
        var name: String?
        var age: Int8?
        var value: Double?
        var tags: [String]?
        var since: Date?
        var x: Float?
    }

    struct Holder: Codable, Equatable {
        var value: StoredValue
    }

    struct Numbers: Codable, Equatable {
        var doubles: [Double]?
        var floats: [Float]?
        var ints: [Int]?
        var decimals: [Decimal]?
        var bools: [Bool]?
        var unsigned: [UInt64]?
    }

    /// The outcome of a decode: the value, or the error's kind, path, reason and position (the
    /// type it names is checked on its own: a read failure of the reference names
    /// `StoredValue`, which `readTree` was reading).
    static func outcome<Value>(_ body: () throws -> Value) -> Result<Value, Failure> {
        do {
            return .success(try body())
        } catch let error as RawCodingError {
            return .failure(
                Failure(
                    text:
                        "\(error.kind) at \(error.codingPathDescription): \(error.reason) \(String(describing: error.position))"
                ))
        } catch {
            return .failure(Failure(text: "not a RawCodingError: \(error)"))
        }
    }

    struct Failure: Error, Equatable { let text: String }

    static func compare<Value: Decodable & Equatable>(_ type: Value.Type, _ bytes: Data, codec: JSONCodec) {
        let scanned = outcome { try codec.decode(type, from: bytes) }
        let fromTree = outcome { try codec.decode(type, fromTree: try codec.readTree(from: bytes)) }
        let same: Bool
        switch (scanned, fromTree) {
        case (.success(let a), .success(let b)): same = a == b || "\(a)" == "\(b)"  // NaN is not equal to itself
        case (.failure(let a), .failure(let b)): same = a == b
        default: same = false
        }
        #expect(same, "\(type) from \(String(decoding: bytes, as: UTF8.self)): \(scanned) against \(fromTree)")
        do {
            _ = try codec.decode(type, from: bytes)
        } catch {
            #expect(error.typeName == String(reflecting: type))
        }
    }

    /// Whether the scan alone (as `rawcoding lint` uses it) takes `bytes`, checking that it
    /// takes only what the tree reader reads.
    @discardableResult
    static func checkTaking(_ bytes: Data, codec: JSONCodec) -> Bool {
        let taken = JSONTreeFormat().acceptsWithoutTree(bytes, limits: codec.limits) == true
        if taken {
            #expect(throws: Never.self, "taken without a tree: \(String(decoding: bytes, as: UTF8.self))") {
                try codec.readTree(from: bytes)
            }
        }
        return taken
    }

    static func compareAll(_ bytes: Data, codec: JSONCodec = JSONCodec()) {
        checkTaking(bytes, codec: codec)
        compare(EngineErrorTests.Person.self, bytes, codec: codec)
        compare(TreeNode.self, bytes, codec: codec)
        compare([String: [Int8]].self, bytes, codec: codec)
        compare(SampleSettings.self, bytes, codec: codec)
        compare([OptionalFields?].self, bytes, codec: codec)
        compare(Mixed.self, bytes, codec: codec)
        compare([Mixed].self, bytes, codec: codec)
        compare(Holder.self, bytes, codec: codec)
        compare(Numbers.self, bytes, codec: codec)
        compare([Double].self, bytes, codec: codec)
        compare([[Int]].self, bytes, codec: codec)
        compare([String].self, bytes, codec: codec)
        compare([Float].self, bytes, codec: codec)
        compare([Bool].self, bytes, codec: codec)
        compare([Decimal].self, bytes, codec: codec)
        compare([String: StoredValue].self, bytes, codec: codec)
        compare(Double.self, bytes, codec: codec)
        compare(String.self, bytes, codec: codec)
        compare(Int.self, bytes, codec: codec)
        compare(Date.self, bytes, codec: codec)
        compare(Data.self, bytes, codec: codec)
    }

    @Test func randomDocumentsDecodeAsTheirTreesDo() throws {
        var generator = SeededGenerator(state: 2_026)
        let codec = JSONCodec()
        var documents = 0
        var taken = 0
        for _ in 0..<1_500 {
            let tree = StoredValue.random(using: &generator, depth: 4)
            guard let bytes = try? codec.writeTree(tree) else { continue }  // NaN and the like: not a document
            documents += 1
            Self.compareAll(bytes, codec: codec)
            if Self.checkTaking(bytes, codec: codec) { taken += 1 }
        }
        #expect(documents > 1_000)
        // The scan alone takes most of what the writer writes (not keys with escapes).
        #expect(taken > documents / 2)
    }

    /// Texts the scan hands to the tree reader or reads on paths of its own.
    @Test func unusualTextsDecodeAsTheirTreesDo() {
        // A repeated key a model reads, in an object too large to compare keys pairwise.
        let fillers: String = (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let repeatedInLargeObject = #"{"name":"Ada","# + fillers + #","name":"Bob","age":3}"#
        let texts = [
            #"{"name":"Ada","name":"Bob","age":3}"#,  // a repeated key: the last value wins
            #"{"n\u0061me":"Ada","age":3}"#,  // a key with an escape
            #"{"name":"A\nda \u00e9 \ud83d\ude00","age":-0}"#,
            #"{"name":"é名前","value":-65.613616999999977,"x":3.4028235e+38}"#,
            #"{"value":0.10000000000000001,"x":1e39}"#,
            #"{"value":123456789012345678901234567890,"age":128}"#,
            #"[1e400]"#, #"[1,]"#, #"{"a":1"#, "", " ", "\u{FEFF}[1]", "[\"\u{1}\"]",
            #"{"doubles":[1,2.5,-0,1e-320,17976931348623157e292],"ints":[1,9223372036854775807,-9223372036854775808]}"#,
            #"{"ints":[1.0,2e0],"floats":[1e39],"unsigned":[18446744073709551615,-1]}"#,
            #"{"decimals":[0.1,1e-130,12345678901234567890.123456789],"bools":[true,false,null]}"#,
            #"[[1,2],[3,"4"],null]"#, #"[1.5]"#, #""2001-01-01""#, #""AAEC""#, "17", "null",
            #"{"value":{"a":[1,{"b":null}],"a":2}}"#, #"{"value":"NaN"}"#, #"[{"name":null}]"#,
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
            "{" + (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + #","k7":0}"#,
            "{" + (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}",
            repeatedInLargeObject,
            #"{"name":"\#(String(repeating: "abcdefgh", count: 9))","age":1}"#,
            "{\"name\"  :\n  \"Ada\" ,\t\"age\" : 1 }",
            "\u{FF}", #"["\#u{FF}"]"#, #"{"\#u{C3}":1}"#,
        ]
        for text in texts { Self.compareAll(Data(text.utf8)) }
        // Invalid UTF-8 inside strings and keys, as raw bytes; also where the scan reads eight
        // bytes at a time (a byte that is not UTF-8 among ASCII, in the first word and later)...
        let ascii: [UInt8] = Array("abcdefgh".utf8)
        let inFirstWord: [UInt8] = Array("[\"abcdefg".utf8) + [0xFF] + ascii + Array("\"]".utf8)
        let inLaterWord: [UInt8] = Array("[\"abcdefghabc".utf8) + [0xC3] + ascii + Array("\"]".utf8)
        let inKey: [UInt8] = Array("{\"".utf8) + [0xFF] + ascii + Array("\":1}".utf8)
        // ... and in the word that holds the closing quote, of a string and of a key.
        let beforeQuote: [UInt8] = Array("[\"ab".utf8) + [0xFF] + Array("\",\"abcdefgh\"]".utf8)
        let beforeKeyQuote: [UInt8] = Array("{\"a".utf8) + [0xC3] + Array("\":1,\"abcdefgh\":2}".utf8)
        let valid: [UInt8] = Array("{\"k\":\"名前é名前é\"}".utf8)
        for bytes: [UInt8] in [
            [0x5B, 0x22, 0xC3, 0x22, 0x5D], [0x7B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x3A, 0x31, 0x7D],
            inFirstWord, inLaterWord, inKey, beforeQuote, beforeKeyQuote, valid,
        ] {
            Self.compareAll(Data(bytes))
        }
    }

    /// Strings whose escapes are one character each (`\/` in every URL `JSONEncoder` writes) are
    /// unescaped by the scan itself; the rest by the parser. Both as the tree reader reads them.
    @Test func simplyEscapedStringsDecodeAsTheirTreesDo() throws {
        let url = #"["https:\/\/api.example.com\/v1\/albums?offset=0&limit=20"]"#
        #expect(
            try JSONCodec().decode([String].self, from: Data(url.utf8)) == [
                "https://api.example.com/v1/albums?offset=0&limit=20"
            ])
        let every = #"["\" \\ \/ \b \f \n \r \t"]"#
        #expect(try JSONCodec().decode([String].self, from: Data(every.utf8)) == ["\" \\ / \u{8} \u{C} \n \r \t"])
        let texts = [
            url, every,
            #"["\/"]"#, #"["abcdefg\/"]"#, #"["abcdefgh\/abcdefgh\/"]"#, #"["\/\/\/\/\/\/\/\/\/"]"#,
            #"["é\/名前\n"]"#, #"["\/\u00e9\/"]"#, #"["\/\ud83d\ude00"]"#, #"{"name":"A\/da","age":1}"#,
            #"["\/\x"]"#, #"["abc\"]"#, #"["abc\"#, #"["abc\/"#, #"["a\/\#u{1}"]"#, #"["a\/b"#,
        ]
        for text in texts { Self.compareAll(Data(text.utf8)) }
        // Bytes that are not UTF-8 beside escapes, in the first word and later.
        let slash: [UInt8] = Array("\\/".utf8)
        for bytes: [UInt8] in [
            Array("[\"".utf8) + slash + [0xFF] + Array("\"]".utf8),
            Array("[\"abcdefghij".utf8) + [0xC3] + slash + [0xA9] + Array("\"]".utf8),
            Array("[\"".utf8) + [0xC3, 0xA9] + slash + Array("abcdefgh".utf8) + [0xED, 0xA0, 0x80] + Array("\"]".utf8),
            // The only such byte in a whole word read after an escape.
            Array("[\"".utf8) + slash + Array("abcdefg".utf8) + [0xFF] + Array("abcdefgh\"]".utf8),
        ] {
            Self.compareAll(Data(bytes))
        }
    }

    @Test func limitsRefuseAsTheTreeReaderDoes() {
        let tight = JSONCodec(limits: Limits(maximumDepth: 3, maximumValueCount: 6))
        for text in [#"[[[1]]]"#, #"[[[[1]]]]"#, #"[1,2,3,4,5]"#, #"[1,2,3,4,5,6]"#, #"{"a":[1,2],"b":{"c":3}}"#] {
            Self.compareAll(Data(text.utf8), codec: tight)
        }
    }

    /// A decoder a type keeps past its `init(from:)` still reads valid memory.
    @Test func aKeptDecoderOutlivesTheDecode() throws {
        final class Keeper: Decodable, @unchecked Sendable {
            let decoder: any Decoder
            init(from decoder: any Decoder) throws { self.decoder = decoder }
        }
        let keeper = try JSONCodec().decode(Keeper.self, from: Data(#"{"name":"Ada","age":3}"#.utf8))
        let mixed = try Mixed(from: keeper.decoder)
        #expect(mixed.name == "Ada" && mixed.age == 3)
    }

    /// The scan reuses a decoder whose value is done for the next value at its level, but only
    /// one nothing else holds: decoders models keep, in arrays and side by side in an object,
    /// keep their own places; reused decoders report theirs, in values and in errors.
    @Test func decodersAreReusedOnlyWhenNothingHoldsThem() throws {
        final class Keeper: Decodable, @unchecked Sendable {
            let decoder: any Decoder
            init(from decoder: any Decoder) throws { self.decoder = decoder }
        }
        struct Pair: Decodable {
            var first: Keeper
            var second: Keeper
            var plain: [Mixed]
        }
        let text =
            #"[{"first":{"name":"a"},"second":{"name":"b"},"plain":[{"age":1},{"age":2}]},"#
            + #"{"first":{"name":"c"},"second":{"name":"d"},"plain":[{"age":3}]}]"#
        let pairs = try JSONCodec().decode([Pair].self, from: Data(text.utf8))
        let keepers = pairs.flatMap { [$0.first, $0.second] }
        #expect(
            keepers.map { $0.decoder.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } } == [
                ["0", "first"], ["0", "second"], ["1", "first"], ["1", "second"],
            ])
        #expect(try keepers.map { try Mixed(from: $0.decoder).name } == ["a", "b", "c", "d"])
        #expect(pairs.flatMap { $0.plain.map(\.age) } == [1, 2, 3])
        // A failure in a later element names that element's path.
        let wrong = #"[{"age":1},{"age":2},{"age":"three"}]"#
        #expect {
            try JSONCodec().decode([Mixed].self, from: Data(wrong.utf8))
        } throws: { error in
            (error as? RawCodingError)?.description.contains("[2].age") == true
        }
        Self.compareAll(Data(wrong.utf8))
    }
}
