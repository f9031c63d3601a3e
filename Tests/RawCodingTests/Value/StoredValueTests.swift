import Foundation
import RawCoding
import RawCodingFuzzTargets
import Testing

@Suite("StoredValue")
struct StoredValueTests {
    @Test func literalsBuildTheExpectedCases() {
        let tree: StoredValue = [
            "name": "Ada", "age": 36, "ratio": 0.5, "admin": true, "tags": ["a", .null], "none": .null,
        ]
        #expect(tree["name"] == .string("Ada"))
        #expect(tree["age"] == .int(36))
        #expect(tree["ratio"] == .double(0.5))
        #expect(tree["admin"] == .bool(true))
        #expect(tree["tags"] == .array([.string("a"), .null]))
        #expect(tree["none"]?.isNull == true)
        #expect(tree["missing"] == nil)
        #expect(tree["tags"]?[1] == .null)
        #expect(tree["tags"]?[2] == nil)
    }

    @Test func accessorsConvertOnlyWhatFits() {
        #expect(StoredValue.int(-1).uint64Value == nil)
        #expect(StoredValue.int(5).uint64Value == 5)
        #expect(StoredValue.uint(UInt64.max).int64Value == nil)
        #expect(StoredValue.integer(UInt64.max) == .uint(UInt64.max))
        #expect(StoredValue.integer(7) == .int(7))
        #expect(StoredValue.int(3).doubleValue == 3)
        #expect(StoredValue.string("3").doubleValue == nil)
        #expect(StoredValue.bool(true).int64Value == nil)
        #expect(StoredValue.double(1).boolValue == nil)
    }

    @Test func dictionariesKeepInsertionOrderAndCompareWithoutIt() {
        var first = StoredDictionary()
        first["b"] = 1
        first["a"] = 2
        first["b"] = 3  // replaces in place
        #expect(first.keys == ["b", "a"])
        #expect(first["b"] == .int(3))
        let second: StoredDictionary = ["a": 2, "b": 3]
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(Set([StoredValue.dictionary(first), .dictionary(second)]).count == 1)
        var third = second
        third["c"] = nil
        #expect(third == second)
        third["a"] = nil
        #expect(third.keys == ["b"])
        #expect(third != second)
    }

    @Test func largeDictionariesLookUpEveryKey() {
        var dictionary = StoredDictionary()
        for index in 0..<500 { dictionary["key\(index)"] = .int(Int64(index)) }
        #expect(dictionary.count == 500)
        #expect((0..<500).allSatisfy { dictionary["key\($0)"] == .int(Int64($0)) })
        dictionary["key10"] = nil
        #expect(dictionary["key10"] == nil && dictionary["key11"] == .int(11) && dictionary["key499"] == .int(499))
        #expect(dictionary.keys.first == "key0" && dictionary.count == 499)
        dictionary["key10"] = .bool(true)
        #expect(dictionary.keys.last == "key10")
    }

    @Test func descriptionIsReadable() {
        let tree: StoredValue = [
            "s": "a\"b\n", "n": .null, "d": .data(Data([0, 255])), "t": .date(Date(timeIntervalSince1970: 0)),
            "list": [1, 2.5, false], "u": .uint(UInt64.max),
        ]
        #expect(
            tree.description
                == #"{"s": "a\"b\n", "n": null, "d": data(2 bytes: 00ff), "t": date(1970-01-01T00:00:00.000Z), "list": [1, 2.5, false], "u": 18446744073709551615}"#
        )
    }

    /// Equality recurses a few levels and queues the rest: trees nested far deeper compare on a
    /// 64 KiB stack, equal when built apart (no shared storage), with dictionaries in other
    /// orders, and unequal wherever one value differs, above or below the recursion's reach.
    @Test func deepTreesCompareInBoundedStack() {
        /// A tree `depth` levels deep, arrays and dictionaries in turn, with `leaf` at the
        /// bottom and `mark` in the dictionary at level `markedLevel`.
        func tree(depth: Int, leaf: StoredValue = 0, markedLevel: Int = -1, reversed: Bool = false) -> StoredValue {
            var value = leaf
            for level in (0..<depth).reversed() {
                if level % 2 == 0 {
                    value = .array([.int(Int64(level)), value])
                } else {
                    var entries: [(String, StoredValue)] = [
                        ("level", .int(Int64(level))), ("mark", .bool(level == markedLevel)), ("next", value),
                    ]
                    if reversed { entries.reverse() }
                    value = .dictionary(StoredDictionary(entries))
                }
            }
            return value
        }
        final class Outcome: @unchecked Sendable { var results: [Bool] = [] }
        let outcome = Outcome()
        let base = tree(depth: 600)
        let others = [
            tree(depth: 600), tree(depth: 600, reversed: true), tree(depth: 600, leaf: 1),
            tree(depth: 600, markedLevel: 3), tree(depth: 600, markedLevel: 301), tree(depth: 599),
            tree(depth: 600, leaf: .double(0)),
        ]
        SmallStackThread.run(stackSize: 64 << 10) {
            outcome.results = others.map { base == $0 }
        }
        #expect(outcome.results == [true, true, false, false, false, false, false])
    }

    @Test func equalityDistinguishesKinds() {
        #expect(StoredValue.int(1) != .double(1))
        #expect(StoredValue.int(1) != .bool(true))
        #expect(StoredValue.string("1") != .int(1))
        #expect(StoredValue.double(.nan) != .double(.nan))
    }

    /// Keys match by their bytes whatever form their `String` takes: a literal, one decoded
    /// from bytes, one built in a larger buffer (a native string that is not small), one of
    /// 15 bytes and one of 16 (the largest small string and the smallest that is not).
    @Test func keysMatchWhateverTheirStringsForm() throws {
        func built(_ text: String) -> String {
            String(unsafeUninitializedCapacity: 64) { buffer in
                let bytes = Array(text.utf8)
                _ = buffer.initialize(from: bytes)
                return bytes.count
            }
        }
        for key in ["inStock", "é", "abcdefghijklmno", "abcdefghijklmnop", "", "café édition x"] {
            let forms = [key, String(decoding: Array(key.utf8), as: UTF8.self), built(key), String(key[...])]
            for stored in forms {
                // Neighbours that differ in one byte, in length, or only in case.
                let dictionary = StoredDictionary([
                    (key + "s", .int(2)), (key.uppercased() == key ? key + "x" : key.uppercased(), .int(3)),
                    (stored, .int(1)),
                ])
                for asked in forms {
                    #expect(dictionary[asked] == .int(1), "\(key.debugDescription)")
                }
                #expect(dictionary[key + "t"] == nil)
            }
        }
    }
}
