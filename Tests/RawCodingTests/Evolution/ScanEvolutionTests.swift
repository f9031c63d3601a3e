import Foundation
import RawCoding
import Testing

/// `JSONCodec.decodeStored(_:from:)` reads straight from a flat scan of the bytes where it can
/// (and plainly, where nothing can be filled or kept); reading the tree `readTree` reads is the
/// reference. Both must give the same value, version, filled keys and unknown keys, or the same
/// error, for every document and type.
@Suite("Evolving decode from the scan")
struct ScanEvolutionTests {
    struct Item: Codable, Equatable, StoredDefault {
        var id: Int
        var name: String
        var flag: Bool
        var note: String?
        static let defaultValue = Item(id: -1, name: "unnamed", flag: true, note: "default note")
    }

    /// Reads `count` as a model that tolerates its absence would, taking 5 when the decode
    /// fails: an evolving decode fills 9 from the default instead, so a plain read that
    /// merely succeeds is not the evolving result.
    struct Lenient: Codable, Equatable, StoredDefault {
        var count: Int
        var label: String?
        static let defaultValue = Lenient(count: 9, label: "default")

        init(count: Int, label: String?) {
            self.count = count
            self.label = label
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            count = (try? container.decode(Int.self, forKey: .count)) ?? 5
            label = try container.decodeIfPresent(String.self, forKey: .label)
        }
    }

    /// Reads `inner` through a super decoder, which exists even where the key does not.
    struct ThroughSuper: Codable, Equatable, StoredDefault {
        var inner: Item
        static let defaultValue = ThroughSuper(inner: Item(id: 7, name: "seven", flag: false, note: nil))

        init(inner: Item) { self.inner = inner }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            inner = try Item(from: container.superDecoder(forKey: .inner))
        }
    }

    struct Settings: Codable, Equatable, StoredDefault {
        struct Inner: Codable, Equatable {
            var level: Int
            var tags: [String]
        }
        var volume: Double
        var items: [Item]
        var inner: Inner
        var theme: String?
        static let defaultValue = Settings(
            volume: 0.5, items: [], inner: Inner(level: 3, tags: ["a"]), theme: "light")
    }

    struct Outcome: Equatable, CustomStringConvertible {
        let text: String
        var description: String { text }
    }

    static func outcome<Value>(_ body: () throws -> StoredDecoding<Value>) -> Outcome {
        do {
            let read = try body()
            return Outcome(
                text:
                    "\(read.value) version \(String(describing: read.storedVersion)) filled \(read.filledKeyPaths) unknown \(read.unknownKeys) \(read.unknownKeys.hashValue)"
            )
        } catch let error as RawCodingError {
            return Outcome(
                text:
                    "\(error.kind) at \(error.codingPathDescription): \(error.reason) \(String(describing: error.position))"
            )
        } catch {
            return Outcome(text: "not a RawCodingError: \(error)")
        }
    }

    static func compare<Value: Decodable>(_ type: Value.Type, _ text: String, defaultValue: Value? = nil) {
        let codec = JSONCodec()
        let bytes = Data(text.utf8)
        let scanned = outcome { try codec.decodeStored(type, from: bytes, defaultValue: defaultValue) }
        let fromTree = outcome {
            try codec.decodeStored(type, fromTree: try codec.readTree(from: bytes), defaultValue: defaultValue)
        }
        #expect(scanned == fromTree, "\(type) from \(text)")
    }

    static let documents = [
        #"[{"id":1,"name":"a","flag":false},{"id":2,"name":"b","flag":true,"note":"n"}]"#,
        #"[{"id":1,"name":"a"},{"name":"b","flag":true}]"#,
        #"[{"id":1,"name":"a","flag":false,"extra":[1,{"deep":true}]}]"#,
        #"[{"id":"one","name":"a","flag":false}]"#,
        #"[{"id":1,"name":"a","flag":false,"id":2}]"#,
        #"[{"i\u0064":1,"name":"a","flag":false}]"#,
        #"[{"count":3},{"label":"x"},{"count":"three","label":"y"},{}]"#,
        #"[{"inner":{"id":1,"name":"a","flag":true}},{"other":1},{"inner":null}]"#,
        #"[[{"id":1}]]"#,
        #"[]"#,
        #"{"id":1,"name":"a","flag":false}"#,
        #"{"count":1,"unknown":{"a":1}}"#,
        #"{"volume":1,"items":[{"id":1,"name":"a","flag":true,"x":1}],"inner":{"level":1,"tags":[],"new":2},"more":[1]}"#,
        #"{"volume":1,"inner":{"tags":["b"]}}"#,
        #"{"items":[{"name":"a"}],"inner":{"level":"high","tags":[]}}"#,
        #"{"volume":1e999,"items":[],"inner":{"level":1,"tags":[]}}"#,
        #"{"volume":1,"items":[],"inner":{"level":1,"tags":[]},"theme":null,"theme2":"\u00e9"}"#,
        #"[{"id":1,"name":"a","flag":false}"#,
        "",
        "null",
        "3",
    ]

    @Test(arguments: documents)
    func givesWhatTheTreeGives(_ text: String) {
        Self.compare([Item].self, text)
        Self.compare([[Item]].self, text)
        Self.compare(Item.self, text)
        Self.compare([Lenient].self, text)
        Self.compare(Lenient.self, text)
        Self.compare([ThroughSuper].self, text)
        Self.compare(Settings.self, text)
        Self.compare([StoredValue].self, text)
        Self.compare([Item].self, text, defaultValue: [Item.defaultValue])
        Self.compare(
            Settings.self, text, defaultValue: Settings(volume: 2, items: [], inner: .init(level: 0, tags: [])))
    }

    /// Random arrays of objects with random subsets of the keys, of the right type or not.
    @Test func givesWhatTheTreeGivesOnRandomDocuments() {
        var generator = SeededGenerator(state: 0x5CA_E701)
        let values: [String: [String]] = [
            "id": ["1", "-4", "\"1\"", "null", "2.5"],
            "name": ["\"a\"", "\"é\\n\"", "3", "null"],
            "flag": ["true", "false", "0"],
            "note": ["\"n\"", "null", "[]"],
            "count": ["3", "\"x\"", "null"],
            "label": ["\"l\"", "1"],
            "inner": ["{\"id\":1,\"name\":\"i\",\"flag\":true}", "{\"name\":\"j\"}", "{}", "1"],
            "extra": ["{\"a\":[1,2]}", "[]", "\"e\""],
        ]
        let keys = values.keys.sorted()
        var filled = 0
        for _ in 0..<300 {
            let objects = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                let chosen = keys.filter { _ in Bool.random(using: &generator) }
                let entries = chosen.map { key in "\"\(key)\":\(values[key]!.randomElement(using: &generator)!)" }
                return "{" + entries.joined(separator: ",") + "}"
            }
            let text = "[" + objects.joined(separator: ",") + "]"
            Self.compare([Item].self, text)
            Self.compare([Lenient].self, text)
            Self.compare([ThroughSuper].self, text)
            if let read = try? JSONCodec().decodeStored([Item].self, from: Data(text.utf8)),
                !read.filledKeyPaths.isEmpty
            {
                filled += 1
            }
        }
        // Both the plain read and filling are exercised.
        #expect(filled > 20)
    }

    /// Reads nothing of what it is given: every key of an object there is unknown to it.
    struct Ignoring: Codable, Equatable {
        init() {}
        init(from decoder: any Decoder) throws {}
        func encode(to encoder: any Encoder) throws {}
    }

    /// An object of everything a model may do with a key: decode a type, read a dictionary or
    /// a tree whole, ignore the value, look only at whether it is there.
    struct Holder: Codable, Equatable {
        var item: Item?
        var map: [String: Int]?
        var raw: StoredValue?
        var ignored: Ignoring?
        var present: Bool

        enum CodingKeys: String, CodingKey { case item, map, raw, ignored, flagged }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            item = try container.decodeIfPresent(Item.self, forKey: .item)
            map = try container.decodeIfPresent([String: Int].self, forKey: .map)
            raw = try container.decodeIfPresent(StoredValue.self, forKey: .raw)
            ignored = try container.decodeIfPresent(Ignoring.self, forKey: .ignored)
            present = container.contains(.flagged)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(item, forKey: .item)
            try container.encodeIfPresent(map, forKey: .map)
            try container.encodeIfPresent(raw, forKey: .raw)
            try container.encodeIfPresent(ignored, forKey: .ignored)
            if present { try container.encode(true, forKey: .flagged) }
        }
    }

    /// A value for each key `Holder` reads, in each way it may hold one, and a key it does not
    /// read.
    static let randomObjectValues: [String: [String]] = [
        "item": [
            "{\"id\":1,\"name\":\"i\",\"flag\":true}", "{\"id\":1,\"name\":\"i\",\"flag\":true,\"new\":{}}", "{}",
            "null", "[]",
        ],
        "map": ["{\"a\":1}", "{}", "{\"a\":{\"b\":1}}", "null"],
        "raw": ["{\"x\":{\"y\":[1]}}", "[{}]", "2"],
        "ignored": ["{\"gone\":1}", "{}", "[1]", "\"text\""],
        "flagged": ["true", "{\"inside\":1}"],
        "extra": ["1", "{\"a\":1}", "[{\"b\":2}]"],
    ]

    /// An object of some of ``randomObjectValues``' keys, each with one of its values.
    static func randomObject(using generator: inout SeededGenerator) -> String {
        let chosen = randomObjectValues.keys.sorted().filter { _ in Bool.random(using: &generator) }
        let entries = chosen.map { key in
            "\"\(key)\":\(randomObjectValues[key]!.randomElement(using: &generator)!)"
        }
        return "{" + entries.joined(separator: ",") + "}"
    }

    /// Objects at the top and inside, each key read in one of the ways `Holder` reads, or not
    /// at all: the plain read is taken only where the evolving one would keep no key.
    @Test func givesWhatTheTreeGivesOnRandomObjects() {
        var generator = SeededGenerator(state: 0x0B_1EC7)
        var kept = 0
        var plain = 0
        for _ in 0..<400 {
            let text = Self.randomObject(using: &generator)
            Self.compare(Holder.self, text)
            Self.compare([Holder].self, "[\(text)]")
            Self.compare(Ignoring.self, text)
            if let read = try? JSONCodec().decodeStored(Holder.self, from: Data(text.utf8)) {
                if read.unknownKeys == .none { plain += 1 } else { kept += 1 }
            }
        }
        // Both outcomes are exercised.
        #expect(kept > 50)
        #expect(plain > 20)
    }

    /// Where the plain read would succeed, the default still fills what is missing.
    @Test func fillsWhatAPlainReadWouldTolerate() throws {
        let read = try JSONCodec().decodeStored([Lenient].self, from: Data(#"[{"label":"x"},{"count":2}]"#.utf8))
        #expect(read.value == [Lenient(count: 9, label: "x"), Lenient(count: 2, label: nil)])
        #expect(read.filledKeyPaths == ["[0].count"])
        let plain = try JSONCodec().decode([Lenient].self, from: Data(#"[{"label":"x"}]"#.utf8))
        #expect(plain == [Lenient(count: 5, label: "x")])
    }
}
