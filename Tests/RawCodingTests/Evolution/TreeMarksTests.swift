import Foundation
import Testing

@testable import RawCoding

/// A stored decode from a tree takes the plain decode when the model missed no key and asked
/// for every key the evolving decode's ledger would look into (`TreeMarks`). The reference is
/// the evolving decode alone, which these tests call directly: whatever the shortcut returns
/// must be what it returns, value, unknown keys, filled keys and errors alike.
@Suite("Plain stored decode from a tree")
struct TreeMarksTests {
    typealias Models = ScanEvolutionTests

    /// The evolving decode alone, as the tree path ran it before the shortcut.
    static func evolving<Value: Decodable>(
        _ type: Value.Type, _ tree: StoredValue, codec: some Codec, defaultValue: Value?
    ) throws -> StoredDecoding<Value> {
        let defaults = try StoredEvolution.defaults(of: Value.self, given: defaultValue)
        let decoded = try StoredEvolution.decode(type, from: tree, codec: codec, defaults: defaults)
        return StoredDecoding(
            value: decoded.value, unknownKeys: decoded.unknownKeys, storedVersion: nil,
            filledKeyPaths: decoded.filledKeyPaths)
    }

    static func compare<Value: Decodable>(
        _ type: Value.Type, _ tree: StoredValue, codec: some Codec, defaultValue: Value? = nil
    ) {
        let read = Models.outcome { try codec.decodeStored(type, fromTree: tree, defaultValue: defaultValue) }
        let reference = Models.outcome { try evolving(type, tree, codec: codec, defaultValue: defaultValue) }
        #expect(read == reference, "\(type) from \(tree)")
    }

    /// Random objects, each key read in one of the ways a model reads a key, or not at all,
    /// at the top, inside an object and inside an array.
    @Test func givesWhatTheEvolvingDecodeGivesOnRandomObjects() throws {
        var generator = SeededGenerator(state: 0x7_12EE)
        let json = JSONCodec()
        let binary = PropertyListCodec(format: .binary)
        var plain = 0
        var kept = 0
        for _ in 0..<400 {
            let text = Models.randomObject(using: &generator)
            let tree = try json.readTree(from: Data(text.utf8))
            for codec in [json as any Codec, binary] {
                Self.compare(Models.Holder.self, tree, codec: codec)
                Self.compare([Models.Holder].self, [tree], codec: codec)
                Self.compare(Models.Ignoring.self, tree, codec: codec)
                Self.compare([String: Models.Holder].self, ["inner": tree], codec: codec)
            }
            if let read = try? json.decodeStored(Models.Holder.self, fromTree: tree) {
                if read.unknownKeys == .none { plain += 1 } else { kept += 1 }
            }
        }
        // Both outcomes are exercised.
        #expect(kept > 50)
        #expect(plain > 20)
    }

    /// Defaults, missing keys and nested models: the documents the scan's tests use.
    @Test func givesWhatTheEvolvingDecodeGivesOnTheScanDocuments() {
        let json = JSONCodec()
        for text in Models.documents {
            guard let tree = try? json.readTree(from: Data(text.utf8)) else { continue }
            Self.compare([Models.Item].self, tree, codec: json)
            Self.compare([Models.Lenient].self, tree, codec: json)
            Self.compare(Models.Settings.self, tree, codec: json)
            Self.compare(
                Models.Settings.self, tree, codec: json,
                defaultValue: Models.Settings(volume: 2, items: [], inner: .init(level: 1, tags: []), theme: nil))
            Self.compare([Models.ThroughSuper].self, tree, codec: json)
        }
    }

    /// A codec whose tree decoder leaves the marks untaken gets the evolving decode.
    @Test func marksUntakenGiveTheEvolvingDecode() {
        let marks = TreeMarks()
        #expect(!marks.askedForEveryKey(in: ["a": 1]))
        #expect(!marks.askedForEveryKey(in: [:]))
    }
}
