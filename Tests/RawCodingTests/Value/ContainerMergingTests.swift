import Foundation
import RawCoding
import Testing

/// Containers asked for more than once, for one key or at one level, behave as in
/// `JSONEncoder` (swift-foundation's `redundantKeys`, `superEncoders` and nested-container
/// tests): they merge, the last value wins, and nothing is silently lost. Where `JSONEncoder`
/// stops the program (a keyed and an unkeyed container for one key, a value replaced by a
/// container), every codec throws an `EncodingError` naming the path instead.
@Suite("Containers that merge, never drop")
struct ContainerMergingTests {
    enum K: String, CodingKey { case top, first, second, key, other }

    /// Every way to encode: the three codecs (sink path, falling back to the tree) and the
    /// engine (tree path), each giving its value back as a tree to compare.
    static let encoders: [(name: String, encode: @Sendable (any Encodable) throws -> StoredValue)] = [
        ("JSONCodec", { try JSONCodec().decode(StoredValue.self, from: JSONCodec().encode($0)) }),
        (
            "PropertyListCodec(.xml)",
            {
                let codec = PropertyListCodec(format: .xml)
                return try codec.decode(StoredValue.self, from: codec.encode($0))
            }
        ),
        (
            "PropertyListCodec(.binary)",
            {
                let codec = PropertyListCodec(format: .binary)
                return try codec.decode(StoredValue.self, from: codec.encode($0))
            }
        ),
        ("StoredValueEncoder", { try StoredValueEncoder().encode($0) }),
    ]

    /// What `JSONEncoder` writes, as a tree.
    static func foundation(_ value: some Encodable) throws -> StoredValue {
        try JSONCodec().decode(StoredValue.self, from: JSONEncoder().encode(value))
    }

    /// Every encoder gives `expected` (Foundation's own output where it has one).
    static func expectEveryEncoder(
        _ value: some Encodable, gives expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let tree = try JSONCodec().decode(StoredValue.self, from: expected)
        for encoder in encoders {
            #expect(try encoder.encode(value) == tree, "\(encoder.name)", sourceLocation: sourceLocation)
        }
    }

    /// Every encoder throws an `EncodingError` (inside the codecs' `RawCodingError`) at `path`.
    static func expectEveryEncoderRefuses(
        _ value: some Encodable, at path: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for encoder in encoders {
            do {
                let tree = try encoder.encode(value)
                Issue.record("\(encoder.name) wrote \(tree)", sourceLocation: sourceLocation)
            } catch let error as RawCodingError {
                #expect(error.kind == .encodingFailed, "\(encoder.name): \(error)", sourceLocation: sourceLocation)
                #expect(
                    error.underlyingError is EncodingError, "\(encoder.name): \(error)", sourceLocation: sourceLocation)
                #expect(
                    error.codingPath.map(\.stringValue).joined(separator: ".") == path, "\(encoder.name): \(error)",
                    sourceLocation: sourceLocation)
                #expect(
                    error.reason.contains("would be lost"), "\(encoder.name): \(error)", sourceLocation: sourceLocation)
            } catch let error as EncodingError {
                guard case .invalidValue(_, let context) = error else {
                    Issue.record("\(encoder.name): \(error)", sourceLocation: sourceLocation)
                    continue
                }
                #expect(
                    context.codingPath.map(\.stringValue).joined(separator: ".") == path, "\(encoder.name): \(error)",
                    sourceLocation: sourceLocation)
                #expect(
                    context.debugDescription.contains("would be lost"), "\(encoder.name): \(error)",
                    sourceLocation: sourceLocation)
            } catch {
                Issue.record("\(encoder.name) threw \(error)", sourceLocation: sourceLocation)
            }
        }
    }

    // MARK: Merging

    /// The issue's reproduction: two nested containers for one key.
    struct TwoNested: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: K.self)
            var a = container.nestedContainer(keyedBy: K.self, forKey: .top)
            try a.encode("one", forKey: .first)
            var b = container.nestedContainer(keyedBy: K.self, forKey: .top)
            try b.encode("two", forKey: .second)
        }
    }

    @Test func twoNestedContainersForOneKeyMerge() throws {
        #expect(
            try Self.foundation(TwoNested())
                == JSONCodec().decode(StoredValue.self, from: #"{"top":{"first":"one","second":"two"}}"#))
        try Self.expectEveryEncoder(TwoNested(), gives: #"{"top":{"first":"one","second":"two"}}"#)
        #expect(try JSONCodec().encodeToString(TwoNested()) == #"{"top":{"first":"one","second":"two"}}"#)
    }

    /// Writes into the first nested container after the second was made.
    struct InterleavedNested: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: K.self)
            var a = container.nestedContainer(keyedBy: K.self, forKey: .top)
            var b = container.nestedContainer(keyedBy: K.self, forKey: .top)
            try b.encode("two", forKey: .second)
            try a.encode("one", forKey: .first)
            var list = container.nestedUnkeyedContainer(forKey: .other)
            try list.encode(1)
            var again = container.nestedUnkeyedContainer(forKey: .other)
            try again.encode(2)
        }
    }

    @Test func nestedContainersForOneKeyShareTheirEntriesInAnyOrder() throws {
        let expected = #"{"top":{"first":"one","second":"two"},"other":[1,2]}"#
        #expect(try Self.foundation(InterleavedNested()) == JSONCodec().decode(StoredValue.self, from: expected))
        try Self.expectEveryEncoder(InterleavedNested(), gives: expected)
    }

    /// swift-foundation's `redundantKeyedContainer`: the keyed container asked for twice.
    struct RedundantKeyedContainer: Encodable {
        func encode(to encoder: any Encoder) throws {
            var first = encoder.container(keyedBy: K.self)
            try first.encode("one", forKey: .first)
            var second = encoder.container(keyedBy: K.self)
            try second.encode("two", forKey: .second)
            try first.encode("three", forKey: .other)
        }
    }

    @Test func theKeyedContainerAskedForTwiceIsOneContainer() throws {
        let expected = #"{"first":"one","second":"two","other":"three"}"#
        #expect(try Self.foundation(RedundantKeyedContainer()) == JSONCodec().decode(StoredValue.self, from: expected))
        try Self.expectEveryEncoder(RedundantKeyedContainer(), gives: expected)
    }

    /// A dictionary encoded as the single value, then a keyed container at the same level.
    struct SingleDictionaryThenKeyed: Encodable {
        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            try single.encode(["first": "one"])
            var keyed = encoder.container(keyedBy: K.self)
            try keyed.encode("two", forKey: .second)
        }
    }

    /// An array encoded for a key, then a nested unkeyed container for the same key.
    struct ArrayThenUnkeyed: Encodable {
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: K.self)
            try keyed.encode([1], forKey: .key)
            var list = keyed.nestedUnkeyedContainer(forKey: .key)
            try list.encode(2)
            try keyed.encode(["a": 1], forKey: .other)
            var nested = keyed.nestedContainer(keyedBy: K.self, forKey: .other)
            try nested.encode(2, forKey: .first)
        }
    }

    @Test func aContainerAddsToTheDictionaryOrArrayEncodedBeforeIt() throws {
        #expect(
            try Self.foundation(SingleDictionaryThenKeyed())
                == JSONCodec().decode(StoredValue.self, from: #"{"first":"one","second":"two"}"#))
        try Self.expectEveryEncoder(SingleDictionaryThenKeyed(), gives: #"{"first":"one","second":"two"}"#)
        let expected = #"{"key":[1,2],"other":{"a":1,"first":2}}"#
        #expect(try Self.foundation(ArrayThenUnkeyed()) == JSONCodec().decode(StoredValue.self, from: expected))
        try Self.expectEveryEncoder(ArrayThenUnkeyed(), gives: expected)
    }

    // MARK: Last value wins

    /// swift-foundation's `redundantKeys`: a value or container, then a value for the same key.
    struct RedundantKeys: Encodable {
        enum Replaced: CaseIterable { case value, keyedContainer, unkeyedContainer }
        let replaced: Replaced
        let useSuperEncoder: Bool

        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: K.self)
            switch replaced {
            case .value: try keyed.encode(0, forKey: .key)
            case .keyedContainer:
                var nested = keyed.nestedContainer(keyedBy: K.self, forKey: .key)
                try nested.encode(1, forKey: .first)
            case .unkeyedContainer:
                var nested = keyed.nestedUnkeyedContainer(forKey: .key)
                try nested.encode(1)
            }
            if useSuperEncoder {
                var single = keyed.superEncoder(forKey: .key).singleValueContainer()
                try single.encode(42)
            } else {
                try keyed.encode(42, forKey: .key)
            }
        }
    }

    @Test(arguments: RedundantKeys.Replaced.allCases, [false, true])
    func theLastValueForAKeyWins(replaced: RedundantKeys.Replaced, useSuperEncoder: Bool) throws {
        let value = RedundantKeys(replaced: replaced, useSuperEncoder: useSuperEncoder)
        #expect(try String(decoding: JSONEncoder().encode(value), as: UTF8.self) == #"{"key":42}"#)
        try Self.expectEveryEncoder(value, gives: #"{"key":42}"#)
    }

    /// swift-foundation's `superEncoders`.
    struct SuperEncoders: Encodable {
        enum Keys: String, CodingKey { case firstSuper, secondSuper, unkeyed, direct }
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: Keys.self)
            let keyedSuper1 = keyed.superEncoder(forKey: .firstSuper)
            let keyedSuper2 = keyed.superEncoder(forKey: .secondSuper)
            var keyedSingle1 = keyedSuper1.singleValueContainer()
            var keyedSingle2 = keyedSuper2.singleValueContainer()
            try keyedSingle1.encode("First")
            try keyedSingle2.encode("Second")
            var unkeyed = keyed.nestedUnkeyedContainer(forKey: .unkeyed)
            try unkeyed.encode(0)
            let unkeyedSuper1 = unkeyed.superEncoder()
            let unkeyedSuper2 = unkeyed.superEncoder()
            try unkeyed.encode(42)
            var unkeyedSingle1 = unkeyedSuper1.singleValueContainer()
            var unkeyedSingle2 = unkeyedSuper2.singleValueContainer()
            try unkeyedSingle1.encode("First")
            try unkeyedSingle2.encode("Second")
            try ["direct": "super"].encode(to: keyed.superEncoder(forKey: .direct))
        }
    }

    @Test func superEncodersWriteWhereTheyWereMade() throws {
        let expected =
            #"{"firstSuper":"First","secondSuper":"Second","unkeyed":[0,"First","Second",42],"direct":{"direct":"super"}}"#
        #expect(try Self.foundation(SuperEncoders()) == JSONCodec().decode(StoredValue.self, from: expected))
        try Self.expectEveryEncoder(SuperEncoders(), gives: expected)
    }

    // MARK: Conflicts: thrown, never dropped

    /// swift-foundation's `preconditionFailuresForContainerReplacement` and
    /// `encodingConflictedTypeNestedContainersWithTheSameTopLevelKey`: `JSONEncoder` stops the
    /// program for each.
    struct Conflict: Encodable {
        enum Subcase: CaseIterable {
            case valueThenKeyed, valueThenUnkeyed, keyedThenUnkeyed, unkeyedThenKeyed
        }
        let subcase: Subcase

        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: K.self)
            var nested = keyed.nestedContainer(keyedBy: K.self, forKey: .top)
            switch subcase {
            case .valueThenKeyed:
                try nested.encode(42, forKey: .key)
                _ = nested.nestedContainer(keyedBy: K.self, forKey: .key)
            case .valueThenUnkeyed:
                try nested.encode(42, forKey: .key)
                _ = nested.nestedUnkeyedContainer(forKey: .key)
            case .keyedThenUnkeyed:
                var first = nested.nestedContainer(keyedBy: K.self, forKey: .key)
                try first.encode("kept?", forKey: .first)
                var second = nested.nestedUnkeyedContainer(forKey: .key)
                try second.encode("second")
            case .unkeyedThenKeyed:
                var first = nested.nestedUnkeyedContainer(forKey: .key)
                try first.encode("kept?")
                var second = nested.nestedContainer(keyedBy: K.self, forKey: .key)
                try second.encode("second", forKey: .second)
            }
        }
    }

    @Test(arguments: Conflict.Subcase.allCases)
    func aKeyedAndAnUnkeyedContainerForOneKeyThrowWithThePath(subcase: Conflict.Subcase) {
        Self.expectEveryEncoderRefuses(Conflict(subcase: subcase), at: "top.key")
    }

    /// Two single values into one encoder, or a single value beside a container: one would be
    /// lost (`JSONEncoder` stops the program for the first; for the second it drops the value).
    struct SingleConflict: Encodable {
        enum Subcase: CaseIterable { case twoSingles, singleThenKeyed, keyedThenSingle, unkeyedThenKeyed }
        let subcase: Subcase

        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: K.self)
            try SingleConflictBody(subcase: subcase).encode(to: keyed.superEncoder(forKey: .top))
        }
    }

    struct SingleConflictBody: Encodable {
        let subcase: SingleConflict.Subcase

        func encode(to encoder: any Encoder) throws {
            switch subcase {
            case .twoSingles:
                var single = encoder.singleValueContainer()
                try single.encode("first")
                try single.encode(2)
            case .singleThenKeyed:
                var single = encoder.singleValueContainer()
                try single.encode(1)
                var keyed = encoder.container(keyedBy: K.self)
                try keyed.encode(2, forKey: .key)
            case .keyedThenSingle:
                var keyed = encoder.container(keyedBy: K.self)
                try keyed.encode(2, forKey: .key)
                var single = encoder.singleValueContainer()
                try single.encode(1)
            case .unkeyedThenKeyed:
                var list = encoder.unkeyedContainer()
                try list.encode(1)
                var keyed = encoder.container(keyedBy: K.self)
                try keyed.encode(2, forKey: .key)
            }
        }
    }

    @Test(arguments: SingleConflict.Subcase.allCases)
    func aSecondValueAtOneLevelThrowsWithThePath(subcase: SingleConflict.Subcase) {
        Self.expectEveryEncoderRefuses(SingleConflict(subcase: subcase), at: "top")
    }
}
