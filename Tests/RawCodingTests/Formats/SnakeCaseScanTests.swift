import Foundation
import Testing

@testable import RawCoding

/// `JSONCodec(keys: .snakeCase)` decodes from the flat scan, comparing each key converted
/// byte by byte. The references: Foundation's conversion (`KeyConversion.fromSnakeCase`, the
/// tree decoder's) for each key, and the tree decoder for each document, including objects
/// whose keys convert to one name and keys the byte-wise conversion leaves to Foundation's.
@Suite("Snake-case keys from the scan")
struct SnakeCaseScanTests {
    static let pieces = ["a", "b", "x", "Z", "Q", "_", "__", "1", "2b", "url", "URL", "é", "ß", " ", "-", "id"]

    static func randomKey(using generator: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    @Test func theByteWiseConversionIsFoundationsWhereverItDecides() {
        var generator = SeededGenerator(state: 5_151)
        var decided = 0
        for _ in 0..<20_000 {
            var key = Self.randomKey(using: &generator)
            let expected = KeyConversion.fromSnakeCase(key)
            let converted = key.withUTF8 { bytes -> String? in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bytes.count, 1)) { output in
                    KeyConversion.fromSnakeCase(bytes, into: output).map {
                        String(decoding: UnsafeBufferPointer(rebasing: output[..<$0]), as: UTF8.self)
                    }
                }
            }
            if let converted {
                decided += 1
                #expect(converted == expected, "\(key)")
            }
        }
        #expect(decided > 10_000)
    }

    /// Writing keys: the byte-wise snake case and its read-back check against Foundation's
    /// two conversions, on keys of upper- and lowercase runs, digits and underscores.
    @Test func theByteWiseSnakeCaseForWritingIsFoundationsWhereverItDecides() {
        let pieces = Self.pieces + ["Ab", "HTTP", "Server", "iD", "aBCd", "\r\n", "9"]
        var generator = SeededGenerator(state: 4_242)
        var decided = (converted: 0, unchanged: 0, refused: 0)
        for _ in 0..<20_000 {
            let key = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            let converted = KeyConversion.toSnakeCase(key)
            let expected = KeyConversion.fromSnakeCase(converted) == key ? converted : nil
            #expect(KeyConversion.snakeCaseReadingBack(key) == expected, "\(key)")
            var copy = key
            let outcome = copy.withUTF8 { bytes in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4 * bytes.count) {
                    KeyConversion.snakeCase(bytes, in: $0)
                }
            }
            switch outcome {
            case .converted(let text):
                decided.converted += 1
                #expect(text == expected && text != key, "\(key)")
            case .unchanged:
                decided.unchanged += 1
                #expect(expected == key, "\(key)")
            case .readsBackOtherwise:
                decided.refused += 1
                #expect(expected == nil, "\(key)")
            case .undecided:
                let others = key.utf8.contains {
                    $0 >= 0x80 || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "-") || $0 < 0x20
                }
                #expect(others, "\(key)")
            }
        }
        #expect(decided.converted > 1_000 && decided.unchanged > 3_000 && decided.refused > 2_000, "\(decided)")
    }

    /// The thread's table of converted keys, past its room: keys of one length (so a slot
    /// another key of that length took must not answer for it), small strings and strings on
    /// the heap, each asked twice.
    @Test func theKeyTableAnswersEachKeyItsOwnConversion() {
        let table = SnakeCaseKeyTable()
        for prefix in ["aB", "someLongerKeyPrefixN"] {
            let keys = (0..<2_000).map { "\(prefix)\(1_000 + $0)X" }
            for _ in 0..<2 {
                for key in keys {
                    let expected = KeyConversion.snakeCaseReadingBack(key)
                    #expect(table.converted(key) == expected, "\(key)")
                }
            }
        }
        #expect(table.converted("") == "")
        #expect(table.converted("myURL") == nil)
    }

    /// Every key of an object, as a decoder sees it: `allKeys`, then each looked up by name.
    struct KeyEcho: Decodable, Equatable {
        /// `key=value`, sorted (a dictionary's description has no fixed order).
        var values: [String]
        var found: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            values = []
            found = []
            for key in container.allKeys {
                values.append("\(key.stringValue)=\(try container.decode(StoredValue.self, forKey: key))")
                if container.contains(key) { found.append(key.stringValue) }
            }
            values.sort()
            found.sort()
        }
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A model whose properties are looked up by name: present, missing, or converted.
    struct Account: Codable, Equatable {
        var userName: String?
        var id: Int?
        var urlValue: String?
        var item2B: Int?
        var nested: [String: Account]?
    }

    /// A decode's value, or its error's kind, path and reason.
    static func outcome<Value>(_ body: () throws -> Value) -> String {
        do {
            return "\(try body())"
        } catch let error as RawCodingError {
            return "\(error.kind) at \(error.codingPathDescription): \(error.reason)"
        } catch {
            return "not a RawCodingError: \(error)"
        }
    }

    @Test func decodesWhatTheTreeDecodesForRandomKeys() throws {
        let codec = JSONCodec(keys: .snakeCase)
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        var generator = SeededGenerator(state: 2_718)
        var agreeWithFoundation = 0
        for round in 0..<1_500 {
            var object: [String: StoredValue] = [:]
            for index in 0..<Int.random(in: 0...6, using: &generator) {
                object[Self.randomKey(using: &generator)] = .int(Int64(index))
            }
            if round % 3 == 0 { object["user_name"] = "u" }
            if round % 4 == 0 { object["item_2b"] = 7 }
            if round % 5 == 0 { object["nested"] = ["inner_key": ["url_value": "x"]] }
            let bytes = try JSONCodec().writeTree(.dictionary(StoredDictionary(object.map { ($0.key, $0.value) })))
            let tree = try codec.readTree(from: bytes)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(
                Self.outcome { try codec.decode(KeyEcho.self, from: bytes) }
                    == Self.outcome { try codec.decode(KeyEcho.self, fromTree: tree) }, "\(text)")
            let account = Self.outcome { try codec.decode(Account.self, from: bytes) }
            #expect(account == Self.outcome { try codec.decode(Account.self, fromTree: tree) }, "\(text)")
            if let theirs = try? foundation.decode(Account.self, from: bytes) {
                #expect(account == "\(theirs)", "\(text)")
                agreeWithFoundation += 1
            }
        }
        #expect(agreeWithFoundation > 500)
    }

    /// Two keys converting to one name: the first in the document wins, as in the tree decoder
    /// and `JSONDecoder`; dictionary keys stay as they are; a missing key names the coding key.
    @Test func collidingKeysDictionariesAndMissingKeys() throws {
        let codec = JSONCodec(keys: .snakeCase)
        #expect(try codec.decode(Account.self, from: #"{"user_name":"first","userName":"second"}"#).userName == "first")
        #expect(try codec.decode(Account.self, from: #"{"userName":"first","user_name":"second"}"#).userName == "first")
        #expect(
            try codec.decode(Account.self, from: #"{"user__name":"first","user_name":"second"}"#).userName == "first")
        // Also where the search for the key starts past the first one (after `id`).
        struct IdFirst: Codable { var id: Int, userName: String }
        let idFirst = try codec.decode(IdFirst.self, from: #"{"user_name":"first","id":1,"userName":"second"}"#)
        #expect(idFirst.userName == "first")
        let nested = try codec.decode(Account.self, from: #"{"nested":{"keep_me":{"url_value":"u","i_d":1}}}"#)
        #expect(nested.nested?["keep_me"]?.urlValue == "u")
        #expect(nested.nested?["keep_me"]?.id == nil)
        struct Strict: Codable { var createdAt: Int }
        let missing = #expect(throws: RawCodingError.self) {
            _ = try codec.decode([Strict].self, from: #"[{"created_at":1},{"createdat":2}]"#)
        }
        #expect(missing?.codingPathDescription == "[1].createdAt")
    }
}
