import Foundation
import RawCoding
import Testing

/// Inputs that crash, hang or exhaust Foundation's decoders end in a thrown error here.
@Suite("Hostile input")
struct HostileInputTests {
    static let binary = PropertyListCodec.propertyList(.binary)

    func expectRejected(
        _ data: Data, as kind: RawCodingError.Kind = .decodingFailed, mentioning words: String...,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = #expect(throws: RawCodingError.self, sourceLocation: sourceLocation) {
            try Self.binary.decode(AnyNested.self, from: data)
        }
        #expect(error?.kind == kind, sourceLocation: sourceLocation)
        #expect(error?.position != nil, "binary errors carry the byte offset", sourceLocation: sourceLocation)
        for word in words {
            #expect(
                error?.description.contains(word) == true, "\(String(describing: error))",
                sourceLocation: sourceLocation)
        }
    }

    @Test func rejectsAUTF16StringWhoseCountOverrunsItsObject() {
        var builder = BinaryPropertyListBuilder()
        builder.add([0x65, 0x00, 0x41])  // claims 5 UTF-16 units, holds half of one
        expectRejected(builder.build(), mentioning: "UTF-16 string", "past the end of the objects")
        var long = BinaryPropertyListBuilder()
        long.add([0x6F, 0x13] + BinaryPropertyListBuilder.bigEndian(UInt64.max / 2, size: 8) + [0x00, 0x41])
        expectRejected(long.build(), mentioning: "claims")
    }

    @Test func rejectsAnArrayThatContainsItself() throws {
        var builder = BinaryPropertyListBuilder()
        builder.add([0xA2, 0x01, 0x00])  // [ "x", <itself> ]
        builder.add([0x51, 0x78])
        expectRejected(builder.build(), mentioning: "object 0 contains itself: a reference cycle")

        // A longer cycle: 0 → 1 → 2 → 0, found at the object that closes it.
        var longer = BinaryPropertyListBuilder()
        longer.add([0xA1, 0x01])
        longer.add([0xD1, 0x03, 0x02])
        longer.add([0xA1, 0x00])
        longer.add([0x51, 0x6B])
        expectRejected(longer.build(), mentioning: "object 0 contains itself: a reference cycle")

        // Sharing is not a cycle: [ [], [] ] with both elements the same object reads.
        var shared = BinaryPropertyListBuilder()
        shared.add([0xA2, 0x01, 0x01])
        shared.add([0xA0])
        #expect(try Self.binary.decode([[Int]].self, from: shared.build()) == [[], []])
    }

    @Test func rejectsSharedReferencesThatExpandPastTheLimit() throws {
        // Object i is [i+1, i+1]: 30 objects expand to 2^30 values.
        var builder = BinaryPropertyListBuilder()
        for index in 0..<30 { builder.add([0xA2, UInt8(index + 1), UInt8(index + 1)]) }
        builder.add([0x10, 0x01])
        // The reader first: without its bound it returns the shared tree at once, and decoding
        // that (below) would walk all 2^30 values.
        _ = try #require(throws: RawCodingError.self) { _ = try BinaryPropertyListReader().read(builder.build()) }
        // With the default limits, the expansion bound refuses it first: 62 bytes, not 2^30 values.
        expectRejected(builder.build(), as: .limitExceeded, mentioning: "more than", "Limits.maximumExpansion")
        let raised = Limits(maximumExpansion: .max)
        let error = try #require(throws: RawCodingError.self) {
            _ = try BinaryPropertyListReader(limits: raised).read(builder.build())
        }
        #expect(error.reason.contains("Limits.maximumValueCount"))
    }

    @Test func rejectsBrokenTrailersOffsetsAndReferences() {
        var tooShort = BinaryPropertyListBuilder()
        tooShort.add([0x10, 0x01])
        expectRejected(tooShort.build().prefix(20), mentioning: "too short")

        var badCount = BinaryPropertyListBuilder()
        badCount.add([0x10, 0x01])
        badCount.claimedObjectCount = 1 << 40
        expectRejected(badCount.build(), mentioning: "objects, impossible in")

        var badReference = BinaryPropertyListBuilder()
        badReference.add([0xA1, 0x09])
        expectRejected(badReference.build(), mentioning: "reference to object 9")

        var badMarker = BinaryPropertyListBuilder()
        badMarker.add([0x70])
        expectRejected(badMarker.build(), mentioning: "unknown object marker 0x70")

        var badRoot = BinaryPropertyListBuilder()
        badRoot.add([0x10, 0x01])
        badRoot.root = 5
        expectRejected(badRoot.build(), mentioning: "root object 5")

        var wideOffsets = BinaryPropertyListBuilder()
        wideOffsets.add([0x10, 0x01])
        wideOffsets.offsetSize = 9
        expectRejected(wideOffsets.build(), mentioning: "offsets of 9 bytes")
    }

    /// References are checked at their exact boundary: the last object is a valid target, the
    /// object count is not. The 43-byte array below crashes a reader whose check is off by one.
    @Test func rejectsAReferenceToTheObjectJustPastTheLast() throws {
        typealias File = BinaryPropertyListBuilder
        let array = File(objects: [[0xA1, 0x01]]).build()  // [ <object 1> ] in a file of one object
        #expect(array.count == 43)
        expectRejected(array, mentioning: "reference to object 1, but there are 1 objects")
        // [ <object 1>, <object 2> ] with two-byte references, { <2>: <1> } and { <1>: <2> }.
        let wide = File(objects: [[0xA2, 0x00, 0x01, 0x00, 0x02], [0x10, 0x07]], referenceSize: 2).build()
        expectRejected(wide, mentioning: "reference to object 2, but there are 2 objects")
        expectRejected(
            File(objects: [[0xD1, 0x02, 0x01], [0x10, 0x07]]).build(),
            mentioning: "reference to object 2, but there are 2 objects")
        expectRejected(
            File(objects: [[0xD1, 0x01, 0x02], [0x51, 0x6B]]).build(),
            mentioning: "reference to object 2, but there are 2 objects")
        expectRejected(
            File(objects: [[0x10, 0x07]], root: 1).build(), mentioning: "root object 1 is not one of its 1 objects")

        // One less is the last object, and reads.
        let last = File(objects: [[0xD1, 0x01, 0x02], [0x51, 0x6B], [0xA2, 0x03, 0x03], [0x10, 0x07]]).build()
        #expect(try Self.binary.decode([String: [Int]].self, from: last) == ["k": [7, 7]])
        #expect(
            try Self.binary.decode(Int.self, from: File(objects: [[0x10, 0x06], [0x10, 0x07]], root: 1).build()) == 7)
    }

    @Test func rejectsALoneSurrogateInAUTF16String() {
        var builder = BinaryPropertyListBuilder()
        builder.add([0x62, 0x00, 0x41, 0xD8, 0x3D])  // "A" and half a surrogate pair
        #expect(throws: RawCodingError.self) { try Self.binary.decode(String.self, from: builder.build()) }
    }

    @Test func acceptsSharedReferencesWithinTheLimit() throws {
        var builder = BinaryPropertyListBuilder()
        builder.add([0xA2, 0x01, 0x01])
        builder.add([0x10, 0x07])
        #expect(try Self.binary.decode([Int].self, from: builder.build()) == [7, 7])
    }

    @Test func rejectsDeepNestingInEveryFormat() throws {
        let depth = 100_000
        let xml =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\">"
            + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
        let xmlError = #expect(throws: RawCodingError.self) {
            try PropertyListCodec.propertyList(.xml).decode(AnyNested.self, from: xml)
        }
        #expect(xmlError?.description.contains("deeper than 512") == true)
        #expect(xmlError?.kind == .limitExceeded)

        var builder = BinaryPropertyListBuilder()
        builder.referenceSize = 4
        builder.offsetSize = 4
        for index in 0..<depth { builder.add([0xA1] + BinaryPropertyListBuilder.bigEndian(UInt64(index + 1), size: 4)) }
        builder.add([0xA0])
        let binaryError = #expect(throws: RawCodingError.self) {
            try Self.binary.decode(AnyNested.self, from: builder.build())
        }
        #expect(binaryError?.description.contains("deeper than 512") == true)
        #expect(binaryError?.kind == .limitExceeded)

        let json = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let jsonError = #expect(throws: RawCodingError.self) { try JSONCodec.json.decode(AnyNested.self, from: json) }
        #expect(jsonError?.description.contains("deeper than 512") == true)
        #expect(jsonError?.kind == .limitExceeded)
        #expect(jsonError?.position?.column == 513)
    }

    @Test func acceptsNestingUpToTheLimit() throws {
        let depth = 500
        let xml =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\">"
            + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
        _ = try PropertyListCodec.propertyList(.xml).decode(AnyNested.self, from: xml)
        _ = try JSONCodec.json.decode(
            AnyNested.self, from: String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
    }

    @Test func commentsAndCDATADoNotCountAsNesting() throws {
        let comment = "<!-- " + String(repeating: "<array>", count: 1_000) + " -->"
        let cdata = "<![CDATA[" + String(repeating: "<dict>", count: 1_000) + "]]>"
        let xml =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><array>\(comment)<string>\(cdata)</string></array></plist>"
        #expect(
            try PropertyListCodec.propertyList(.xml).decode([String].self, from: xml) == [
                String(repeating: "<dict>", count: 1_000)
            ])
    }

    @Test func rejectsXMLEntityDeclarationsInsteadOfExpandingThem() {
        let entities = (1...6).map { level in
            "<!ENTITY e\(level) \"" + String(repeating: level == 1 ? "a" : "&e\(level - 1);", count: 16) + "\">"
        }.joined(separator: "\n")
        let xml =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n\(entities)\n]>\n<plist version=\"1.0\"><string>&e6;</string></plist>"
        let error = #expect(throws: RawCodingError.self) {
            try PropertyListCodec.propertyList(.xml).decode(String.self, from: xml)
        }
        #expect(error?.kind == .decodingFailed)
        #expect(
            error?.reason.contains("internal subset is not accepted: entity declarations are never expanded") == true,
            "\(String(describing: error))")
        // Where the subset starts: line 2, after "<!DOCTYPE plist ".
        #expect(error?.position?.line == 2, "\(String(describing: error?.position))")
    }

    @Test func rejectsTruncationsOfAValidBinaryPropertyList() throws {
        let valid = try Self.binary.encode(SampleSettings.sample)
        for length in stride(from: 0, to: valid.count, by: 7) {
            #expect(throws: RawCodingError.self, "length \(length)") {
                try Self.binary.decode(SampleSettings.self, from: valid.prefix(length))
            }
        }
    }

    @Test func survivesSingleByteCorruptionOfABinaryPropertyList() throws {
        // Every single-byte change either decodes or throws a RawCodingError; none may crash the
        // test process or escape as another error type.
        let valid = try Self.binary.encode(SampleSettings.sample)
        var rejected = 0
        for index in valid.indices {
            for replacement: UInt8 in [0x00, 0xFF, valid[index] ^ 0x0F] where replacement != valid[index] {
                var corrupt = valid
                corrupt[index] = replacement
                do {
                    _ = try Self.binary.decode(SampleSettings.self, from: corrupt)
                } catch {
                    rejected += 1
                    #expect(error.kind == .decodingFailed, "byte \(index) → \(replacement): \(error)")
                }
            }
        }
        #expect(rejected > valid.count)
    }
}
