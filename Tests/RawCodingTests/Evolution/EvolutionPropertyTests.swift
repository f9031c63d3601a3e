import Foundation
import RawCoding
import Testing

/// A model that knows a few of the keys the random trees use; every property is optional, so
/// many trees decode, and the rest of each tree is unknown to it.
private struct Partial: Codable, Equatable {
    struct Address: Codable, Equatable {
        var city: String?
        var floor: StoredValue?
    }
    var name: String?
    var value: StoredValue?
    var address: Address?
    var tags: [StoredValue]?
}

/// The same model, versioned: stored trees without a version read as version 1.
private struct VersionedPartial: Codable, Equatable, StoredVersioned {
    var name: String?
    var address: Partial.Address?
    static let storedVersion = 2
    static let migrations: [StoredMigration] = [.tree(from: 1) { _ in }]
}

@Suite("Stored forms on random trees")
struct EvolutionPropertyTests {
    /// `count` random trees, each an object at the top, with the payload `codec` writes for it;
    /// trees it cannot store (JSON has no dates or bytes, for one) are left out.
    static func storedObjects(
        _ count: Int, seed: UInt64, codec: any Codec
    ) -> [(tree: StoredValue, payload: Data)] {
        var generator = SeededGenerator(state: seed)
        return (0..<count).compactMap { _ in
            var tree = StoredValue.random(using: &generator, depth: 4, propertyListSafe: true)
            if tree.dictionaryValue == nil { tree = ["value": tree, "x": tree] }
            return (try? codec.writeTree(tree)).map { (tree, $0) }
        }
    }

    /// Whatever a stored tree holds, reading it with a model that knows part of it and writing
    /// the value back unchanged, with its unknown keys, gives the same tree: nothing is lost,
    /// and reading that again gives the same value and the same unknown keys.
    @Test(arguments: CodecCase.allCases)
    func writingBackAnUnchangedValueGivesTheStoredTreeBack(_ codecCase: CodecCase) throws {
        let codec = codecCase.codec
        var decoded = 0
        var withUnknownKeys = 0
        let seed = 0xE70_1A7 &+ UInt64(codecCase.rawValue.count)
        for (tree, payload) in Self.storedObjects(600, seed: seed, codec: codec) {
            let stored = try codec.readTree(from: payload)

            guard let read = try? codec.decodeStored(Partial.self, from: payload) else { continue }
            decoded += 1
            if !read.unknownKeys.isEmpty { withUnknownKeys += 1 }
            let written = try codec.encodeStored(read.value, keeping: read.unknownKeys)
            #expect(try codec.readTree(from: written) == stored, "\(tree)")
            let again = try codec.decodeStored(Partial.self, from: written)
            #expect(again.value == read.value)
            #expect(again.unknownKeys == read.unknownKeys)

            let versioned = try codec.decodeStored(VersionedPartial.self, from: payload)
            #expect(versioned.storedVersion == 1)
            let rewritten = try codec.readTree(
                from: codec.encodeStored(versioned.value, keeping: versioned.unknownKeys))
            var expected = stored
            expected["$version"] = 2
            #expect(rewritten == expected, "\(tree)")
        }
        // Both outcomes are exercised.
        #expect(decoded > 150)
        #expect(withUnknownKeys > 100)
    }

    /// With no unknown keys, `encodeStored` writes a built-in codec's own encode, not the tree
    /// it used to write: the bytes must be those of the tree path, versions included.
    @Test(arguments: CodecCase.allCases)
    func encodeStoredWritesWhatTheTreePathWrites(_ codecCase: CodecCase) throws {
        let codec = codecCase.codec
        var compared = 0
        var modelled = 0
        let seed = 0x5_70_4ED &+ UInt64(codecCase.rawValue.count)
        for (tree, payload) in Self.storedObjects(400, seed: seed, codec: codec) {
            let whole = try codec.readTree(from: payload)
            #expect(try codec.encodeStored(whole) == codec.writeTree(codec.encodeStoredTree(whole)), "\(tree)")
            // The models read many of the trees (not all: a key may hold another kind).
            if let partial = try? codec.decode(Partial.self, from: payload) {
                #expect(
                    try codec.encodeStored(partial) == codec.writeTree(codec.encodeStoredTree(partial)), "\(tree)")
                modelled += 1
            }
            if let versioned = try? codec.decode(VersionedPartial.self, from: payload) {
                #expect(
                    try codec.encodeStored(versioned) == codec.writeTree(codec.encodeStoredTree(versioned)),
                    "\(tree)")
                modelled += 1
            }
            compared += 1
        }
        #expect(compared > 250)
        #expect(modelled > 150)
    }
}
