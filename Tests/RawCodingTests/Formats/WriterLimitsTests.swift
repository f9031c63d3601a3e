import Foundation
import RawCoding
import Testing

/// The public writers take the readers' `Limits`: what a writer writes, the matching reader with
/// the same limits reads; what that reader would refuse, the writer refuses.
@Suite("Writers take the readers' limits")
struct WriterLimitsTests {
    struct Pair: CustomTestStringConvertible, Sendable {
        var name: String
        var write: @Sendable (StoredValue, Limits) throws -> Data
        var read: @Sendable (Data, Limits) throws -> StoredValue
        var testDescription: String { name }
    }

    static let pairs: [Pair] = [
        Pair(
            name: "JSON", write: { try JSONWriter(limits: $1).write($0) }, read: { try JSONReader(limits: $1).read($0) }
        ),
        Pair(
            name: "JSON pretty", write: { try JSONWriter(formatting: .pretty, limits: $1).write($0) },
            read: { try JSONReader(limits: $1).read($0) }),
        Pair(
            name: "XML", write: { try XMLPropertyListWriter(limits: $1).write($0) },
            read: { try XMLPropertyListReader(limits: $1).read($0) }),
        Pair(
            name: "binary", write: { try BinaryPropertyListWriter(limits: $1).write($0) },
            read: { try BinaryPropertyListReader(limits: $1).read($0) }),
    ]

    static func nested(_ depth: Int) -> StoredValue {
        var value: StoredValue = "leaf"
        for level in 0..<depth { value = level.isMultiple(of: 2) ? [value] : ["child": value] }
        return value
    }

    static func expectLimit(_ error: (any Error)?, _ words: String, _ pair: Pair) {
        let error = error as? RawCodingError
        // A write over a limit is an encoding failure, as codecs report it; the reason names the limit.
        #expect(error?.kind == .encodingFailed, "\(pair.name): \(String(describing: error))")
        #expect(error?.reason.contains(words) == true, "\(pair.name): \(error?.reason ?? "no error")")
    }

    /// 700 levels, past the default 512: refused by the writer as by the reader; with a
    /// limit of 1,000 both take it.
    @Test(arguments: pairs)
    func depthPastTheReadersLimitIsRefused(_ pair: Pair) throws {
        let deep = Self.nested(700)
        Self.expectLimit(#expect(throws: (any Error).self) { try pair.write(deep, .default) }, "deeper than 512", pair)
        let wide = Limits(maximumDepth: 1_000)
        let data = try pair.write(deep, wide)
        #expect(try pair.read(data, wide) == deep)
        #expect(throws: (any Error).self) { try pair.read(data, .default) }
    }

    /// Output over `maximumInputBytes` and trees over `maximumValueCount` are refused, naming
    /// the limit; within them the reader gives the tree back.
    @Test(arguments: pairs)
    func sizeAndCountPastTheReadersLimitsAreRefused(_ pair: Pair) throws {
        let tree = StoredValue.array((0..<200).map { .string("value \($0)") })
        let small = Limits(maximumInputBytes: 256)
        Self.expectLimit(
            #expect(throws: (any Error).self) { try pair.write(tree, small) }, "Limits.maximumInputBytes", pair)
        let few = Limits(maximumValueCount: 100)
        Self.expectLimit(
            #expect(throws: (any Error).self) { try pair.write(tree, few) }, "Limits.maximumValueCount", pair)
        #expect(try pair.read(try pair.write(tree, .default), .default) == tree)
    }
}
