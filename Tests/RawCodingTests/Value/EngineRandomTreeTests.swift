import Foundation
import RawCoding
import Testing

/// A small deterministic generator (SplitMix64), so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension StoredValue {
    /// A random tree up to `depth` levels (with `propertyListSafe`: no null, no NaN and no
    /// U+0000, so it fits an XML property list and equals itself), using names the test models use as keys so that
    /// decoding gets past the first key more often than not.
    static func random(using generator: inout SeededGenerator, depth: Int, propertyListSafe: Bool = false)
        -> StoredValue
    {
        let keys = ["name", "age", "address", "city", "floor", "tags", "friends", "since", "value", "children", "x"]
        let pick = Int.random(in: 0..<(depth > 0 ? 11 : 9), using: &generator)
        switch pick {
        case 0: return propertyListSafe ? .bool(false) : .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .int(Int64.random(in: -1_000...1_000, using: &generator))
        case 3: return .int(Int64.random(in: .min ... .max, using: &generator))
        case 4: return .uint(UInt64.random(in: UInt64(Int64.max) + 1 ... .max, using: &generator))
        case 5:
            return .double(
                [0.5, -0.0, .infinity, 1e300, 3, .nan][
                    Int.random(in: 0..<(propertyListSafe ? 5 : 6), using: &generator)])
        case 6:
            let control = propertyListSafe ? "\u{1}" : "\u{0}"
            return .string(["", "Ada", "é", control, "123"][Int.random(in: 0..<5, using: &generator)])
        case 7: return .data(Data((0..<Int.random(in: 0..<4, using: &generator)).map { UInt8($0) }))
        case 8:
            return .date(
                Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -1_000...1_000, using: &generator))))
        case 9:
            return .array(
                (0..<Int.random(in: 0..<4, using: &generator)).map { _ in
                    random(using: &generator, depth: depth - 1, propertyListSafe: propertyListSafe)
                })
        default:
            var dictionary = StoredDictionary()
            for _ in 0..<Int.random(in: 0..<5, using: &generator) {
                dictionary[keys[Int.random(in: 0..<keys.count, using: &generator)]] =
                    random(using: &generator, depth: depth - 1, propertyListSafe: propertyListSafe)
            }
            return .dictionary(dictionary)
        }
    }
}

@Suite("StoredValue engine on random trees")
struct EngineRandomTreeTests {
    /// Decoding any tree into any type succeeds or throws a DecodingError; it never traps.
    @Test func randomTreesDecodeOrThrowDecodingErrors() {
        var generator = SeededGenerator(state: 42)
        var decoded = 0
        var rejected = 0
        for _ in 0..<3_000 {
            let tree = StoredValue.random(using: &generator, depth: 5)
            for attempt in [
                { _ = try StoredValueDecoder().decode(EngineErrorTests.Person.self, from: tree) },
                { _ = try StoredValueDecoder().decode(TreeNode.self, from: tree) },
                { _ = try StoredValueDecoder().decode([String: [Int8]].self, from: tree) },
                { _ = try StoredValueDecoder().decode(SampleSettings.self, from: tree) },
                { _ = try StoredValueDecoder().decode([OptionalFields?].self, from: tree) },
            ] as [() throws -> Void] {
                do {
                    try attempt()
                    decoded += 1
                } catch is DecodingError {
                    rejected += 1
                } catch {
                    Issue.record("not a DecodingError: \(error) for \(tree)")
                }
            }
        }
        #expect(rejected > 0 && decoded > 0)
    }

    /// Trees without null survive the trip to property-list objects and back.
    @Test func randomTreesCrossTheBridgeUnchanged() throws {
        var generator = SeededGenerator(state: 7)
        for _ in 0..<1_000 {
            let tree = StoredValue.random(using: &generator, depth: 4, propertyListSafe: true)
            let back = try StoredValue(propertyList: tree.propertyListObject())
            #expect(back == tree, "\(tree)")
        }
    }
}
