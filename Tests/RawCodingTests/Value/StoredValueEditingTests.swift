import Foundation
import RawCoding
import Testing

/// `StoredValue` as a value users hold: edited through its subscripts, merged, and `Codable`
/// through every codec and through Foundation's coders.
@Suite("StoredValue editing and coding")
struct StoredValueEditingTests {
    @Test func subscriptsEditInPlaceAndNeverCrashOnAnotherKind() {
        var tree: StoredValue = ["theme": "dark", "recent": ["a.txt", "b.txt"], "count": 3]
        tree["theme"] = "light"
        tree["volume"] = 0.5
        tree["count"] = nil
        tree["recent"]?[1] = "c.txt"
        tree["window"] = .null
        tree["window"]?["width"] = 800
        #expect(tree == ["theme": "light", "recent": ["a.txt", "c.txt"], "volume": 0.5, "window": ["width": 800]])
        #expect(tree.dictionaryValue?.keys == ["theme", "recent", "volume", "window"])

        // Another kind, or an index outside the array: the value stays as it was.
        let before = tree
        tree["theme"]?["accent"] = "blue"
        tree["recent"]?[5] = "x"
        tree["recent"]?[0] = nil
        tree["volume"]?[0] = 1
        #expect(tree == before)
    }

    @Test func mergingLaysOneTreeOverAnotherRecursively() {
        let defaults: StoredValue = [
            "theme": "light", "volume": 0.5, "account": ["plan": "free", "seats": 1], "tags": ["a"],
        ]
        let stored: StoredValue = ["theme": "dark", "account": ["seats": 3], "tags": ["b", "c"], "extra": true]
        let merged = defaults.merging(stored)
        #expect(
            merged == [
                "theme": "dark", "volume": 0.5, "account": ["plan": "free", "seats": 3], "tags": ["b", "c"],
                "extra": true,
            ])
        // Keys only the base has keep their places; new ones come after.
        #expect(merged.dictionaryValue?.keys == ["theme", "volume", "account", "tags", "extra"])
        // A dictionary against another kind: the other tree wins, whole.
        let nested: StoredValue = ["a": ["b": 1]]
        #expect(nested.merging(["a": 2]) == ["a": 2])
        #expect(StoredValue.int(1).merging(["a": 1]) == ["a": 1])
    }

    struct Preferences: Codable, Equatable {
        var version = 2
        var extras: [String: StoredValue]
    }

    static let extras: [String: StoredValue] = [
        "window": ["width": 800, "zoom": 1.5, "fullScreen": false], "recent": ["a", "b"], "big": .uint(UInt64.max),
        "snake_key": "kept", "camelKey": "kept",
    ]

    @Test func aModelHoldsAnyValueThroughEveryCodec() throws {
        let preferences = Preferences(extras: Self.extras)
        let codecs: [any Codec] = [
            JSONCodec(), JSONCodec(keys: .snakeCase), PropertyListCodec(format: .xml),
            PropertyListCodec(format: .binary),
        ]
        for codec in codecs {
            #expect(try codec.decode(Preferences.self, from: codec.encode(preferences)) == preferences, "\(codec)")
        }
        // Keys inside a StoredValue are data: a key strategy leaves them alone.
        let text = try JSONCodec(keys: .snakeCase).encodeToString(preferences)
        #expect(text.contains(#""camelKey":"kept""#) && text.contains(#""snake_key":"kept""#), "\(text)")
        // Null and dates and bytes where the format keeps them.
        let rich: StoredValue = [
            "none": .null, "when": .date(Date(timeIntervalSinceReferenceDate: 12)), "bytes": .data(Data([1, 2])),
        ]
        let binary = PropertyListCodec(format: .binary)
        #expect(try binary.decode(StoredValue.self, from: binary.encode(rich)) == rich)
        #expect(
            try JSONCodec().decode(StoredValue.self, from: JSONCodec().encode(rich)) == [
                "none": .null, "when": 12, "bytes": "AQI=",
            ])
    }

    @Test func foundationCodersReadAndWriteItToo() throws {
        let preferences = Preferences(extras: Self.extras)
        let data = try JSONEncoder().encode(preferences)
        #expect(try JSONDecoder().decode(Preferences.self, from: data) == preferences)
        #expect(try JSONCodec().decode(Preferences.self, from: data) == preferences)
        let plist = try PropertyListEncoder().encode(preferences)
        #expect(try PropertyListDecoder().decode(Preferences.self, from: plist) == preferences)
        let mixed: StoredValue = [true, 1, -1, 1.5, "s", .null, ["k": [1]]]
        #expect(try JSONDecoder().decode(StoredValue.self, from: JSONEncoder().encode(mixed)) == mixed)
    }
}
