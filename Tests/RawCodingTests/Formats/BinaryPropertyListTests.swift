import Foundation
import RawCoding
import Testing

@Suite("Binary property lists")
struct BinaryPropertyListTests {
    typealias Builder = BinaryPropertyListBuilder

    func write(_ value: StoredValue) throws -> [UInt8] {
        Array(try BinaryPropertyListWriter().write(value))
    }

    func read(_ data: Data, limits: Limits = .default) throws(RawCodingError) -> StoredValue {
        try BinaryPropertyListReader(limits: limits).read(data)
    }

    /// The objects of a file we wrote, by the offset table.
    func objects(_ bytes: [UInt8]) -> (count: Int, referenceSize: Int, offsetSize: Int) {
        let trailer = bytes.count - 32
        let count = bytes[(trailer + 8)..<(trailer + 16)].reduce(0) { $0 << 8 | Int($1) }
        return (count, Int(bytes[trailer + 7]), Int(bytes[trailer + 6]))
    }

    // MARK: Writer

    @Test func integersTakeTheSmallestWidth() throws {
        let cases: [(StoredValue, [UInt8])] = [
            (0, [0x10, 0]), (255, [0x10, 0xFF]), (256, [0x11, 1, 0]), (65_535, [0x11, 0xFF, 0xFF]),
            (65_536, [0x12, 0, 1, 0, 0]), (.int(1 << 32), [0x13, 0, 0, 0, 1, 0, 0, 0, 0]),
            (-1, [0x13] + Array(repeating: 0xFF, count: 8)),
            (.int(.max), [0x13, 0x7F] + Array(repeating: 0xFF, count: 7)),
            (.uint(.max), [0x14] + Array(repeating: 0, count: 8) + Array(repeating: 0xFF, count: 8)),
            (true, [0x09]), (false, [0x08]), (1.5, [0x23, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0]),
            (.date(Date(timeIntervalSinceReferenceDate: -1)), [0x33, 0xBF, 0xF0, 0, 0, 0, 0, 0, 0]),
            ("abc", [0x53, 0x61, 0x62, 0x63]), ("é", [0x61, 0x00, 0xE9]), ("🙂", [0x62, 0xD8, 0x3D, 0xDE, 0x42]),
            (.data(Data([7])), [0x41, 7]), (.null, [0x55] + Array("$null".utf8)),
        ]
        for (value, object) in cases {
            let bytes = try write(value)
            #expect(Array(bytes[8..<(8 + object.count)]) == object, "\(value)")
            #expect(objects(bytes).count == 1)
        }
    }

    @Test func countsFromFifteenFollowTheMarker() throws {
        let text = String(repeating: "x", count: 15)
        #expect(Array(try write(.string(text))[8..<11]) == [0x5F, 0x10, 15])
        let list = try write(.array(Array(repeating: 1, count: 300)))
        #expect(Array(list[8..<12]) == [0xAF, 0x11, 0x01, 0x2C])
    }

    @Test func equalScalarsAreWrittenOnceAndReferencesWidenWithTheObjectCount() throws {
        let shared: StoredValue = ["a": "same", "b": "same", "c": ["same", 1, 1.0, 1]]
        // The dictionary, its 3 keys, "same" once, the array, 1 once and 1.0: eight objects.
        #expect(objects(try write(shared)).count == 8)
        // Kinds never share: true, 1, 1.0, the date 1 s after 2001 and -0.0 against 0.0.
        let kinds: StoredValue = [true, 1, 1.0, .date(Date(timeIntervalSinceReferenceDate: 1)), 0.0, -0.0, 1, true]
        #expect(try objects(write(kinds)).count == 7)
        #expect(try BinaryPropertyListReader().read(Data(write(kinds))) == kinds)
        // Canonically equivalent but different strings stay two objects.
        #expect(objects(try write(["é", "e\u{301}"])).count == 3)

        let wide = StoredValue.array((0..<300).map { .int(Int64($0)) })
        #expect(objects(try write(wide)).referenceSize == 2)
        let huge = StoredValue.array((0..<70_000).map { .int(Int64($0)) })
        let hugeBytes = try write(huge)
        #expect(objects(hugeBytes).referenceSize == 4)
        #expect(objects(hugeBytes).offsetSize == 4)
        #expect(try read(Data(hugeBytes)) == huge)
    }

    /// `NSKeyedArchiver`'s UIDs read as `["CF$UID": N]` (Core Foundation's XML form), and that
    /// dictionary is written as a UID again, in the smallest width, shared like other scalars.
    @Test func uidsReadAsCFUIDDictionariesAndAreWrittenBack() throws {
        let widths: [(UInt64, [UInt8])] = [
            (0, [0x80, 0]), (255, [0x80, 0xFF]), (256, [0x81, 1, 0]), (65_536, [0x83, 0, 1, 0, 0]),
            (1 << 32, [0x87, 0, 0, 0, 1, 0, 0, 0, 0]),
        ]
        for (value, object) in widths {
            let tree: StoredValue = ["CF$UID": .int(Int64(value))]
            #expect(try read(Self.single(object)) == tree, "\(value)")
            let bytes = try write(tree)
            #expect(Array(bytes[8..<(8 + object.count)]) == object, "\(value)")
            #expect(objects(bytes).count == 1)
            #expect(try write(try read(Data(bytes))) == bytes)
        }
        // The same UID twice is one object; the XML and JSON forms are that dictionary.
        let archive: StoredValue = ["$top": ["root": ["CF$UID": 1]], "$objects": ["$null", ["CF$UID": 1]]]
        // The root, its 2 keys, the array, "$null", the UID once, the inner dictionary and its key.
        #expect(objects(try write(archive)).count == 8)
        let xml = try XMLPropertyListWriter().write(archive)
        #expect(String(decoding: xml, as: UTF8.self).contains("<key>CF$UID</key>\n\t\t\t<integer>1</integer>"))
        #expect(try write(try XMLPropertyListReader().read(xml)) == write(archive))
        // Anything else named CF$UID stays a dictionary.
        for other: StoredValue in [["CF$UID": "1"], ["CF$UID": -1], ["CF$UID": 1, "more": 2], ["CF$UID": 1.0]] {
            let bytes = try write(other)
            #expect(bytes[8] >> 4 == 0xD, "\(other)")
            #expect(try read(Data(bytes)) == other)
        }
        // Decoding, a UID is the keyed container it reads as; encoding that type writes a UID.
        struct Reference: Codable, Equatable {
            var uid: Int
            enum CodingKeys: String, CodingKey { case uid = "CF$UID" }
        }
        let codec = PropertyListCodec(format: .binary)
        let encoded = try codec.encode(["root": Reference(uid: 7)])
        #expect(Array(encoded) == (try write(["root": .dictionary(["CF$UID": 7])])))
        #expect(try codec.decode(Reference.self, from: Self.single([0x80, 7])) == Reference(uid: 7))
    }

    @Test func foundationReadsWhatWeWriteAndWeReadWhatFoundationWrites() throws {
        let value = try StoredValueEncoder().encode(SampleSettings.sample)
        let ours = try BinaryPropertyListWriter().write(value)
        let object = try PropertyListSerialization.propertyList(from: ours, format: nil)
        #expect(try StoredValue(propertyList: object) == value)

        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let theirs = try encoder.encode(SampleSettings.sample)
        #expect(
            try PropertyListCodec.propertyList(.binary).decode(SampleSettings.self, from: theirs)
                == SampleSettings.sample)
    }

    @Test func writingIsDeterministicWhateverTheDictionaryOrder() throws {
        let forward = StoredValue.dictionary(StoredDictionary((0..<40).map { ("k\($0)", .int(Int64($0))) }))
        let backward = StoredValue.dictionary(StoredDictionary((0..<40).reversed().map { ("k\($0)", .int(Int64($0))) }))
        #expect(try write(forward) == write(backward))
        let (first, second) = try equalDictionariesInOtherOrders()
        let codec = PropertyListCodec.propertyList(.binary)
        #expect(try codec.encode(first) == codec.encode(second))
    }

    // MARK: Reader: one vector per class of defect in the peer suites

    static func single(_ object: [UInt8], configure: (inout Builder) -> Void = { _ in }) -> Data {
        var builder = Builder()
        builder.add(object)
        configure(&builder)
        return builder.build()
    }

    static func withTrailer(_ edit: (inout [UInt8]) -> Void) -> Data {
        var bytes = Array(single([0x10, 0x01]))
        edit(&bytes)
        return Data(bytes)
    }

    static let defects: [(String, Data, String)] = {
        let trailer = Array(single([0x10, 0x01])).count - 32
        return [
            ("too short", Data("bplist00".utf8), "too short"),
            ("not a bplist", Data("bplist10".utf8 + [UInt8](repeating: 0, count: 40)), "does not start with"),
            ("offset size 0", single([0x10, 1]) { $0.offsetSize = 0 }, "offsets of 0 bytes"),
            ("reference size 0", single([0x10, 1]) { $0.referenceSize = 0 }, "references of 0 bytes"),
            ("offset table past the trailer", withTrailer { $0[trailer + 31] = 0xF0 }, "offset table"),
            (
                "offset table offset overflows", withTrailer { for i in 24..<32 { $0[trailer + i] = 0xFF } },
                "offset table"
            ),
            ("top object too large", single([0x10, 1]) { $0.root = 1 }, "root object 1"),
            ("top object overflows", single([0x10, 1]) { $0.root = .max }, "root object"),
            ("too many objects", single([0x10, 1]) { $0.claimedObjectCount = 2 }, "offset table"),
            ("object count overflows", single([0x10, 1]) { $0.claimedObjectCount = .max }, "objects, impossible"),
            ("object count of zero", single([0x10, 1]) { $0.claimedObjectCount = 0 }, "0 objects"),
            ("offset past the objects", withTrailer { $0[9 + 2 - 1] = 0xF0 }, "outside the objects"),
            ("array size past the end", single([0xA5, 0x00]), "past the end of the objects"),
            ("array size of 2^32", single([0xAF, 0x12, 0xFF, 0xFF, 0xFF, 0xFF]), "past the end of the objects"),
            ("array size of 2^63", single([0xAF, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]), "claims"),
            ("array size overflows", single([0xAF, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]), "claims"),
            ("length is not an integer", single([0x5F, 0x23, 0, 0, 0, 0, 0, 0, 0, 0]), "not an integer"),
            ("reference past the objects", single([0xA1, 0x05]), "reference to object 5"),
            ("reference overflows", single([0xA1, 0xFF, 0xFF]) { $0.referenceSize = 2 }, "reference to object 65535"),
            ("data size past the end", single([0x45, 0x00]), "past the end of the objects"),
            ("ASCII size past the end", single([0x5F, 0x10, 0x40, 0x61]), "past the end of the objects"),
            ("ASCII size overflows", single([0x5F, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]), "claims"),
            ("non-ASCII byte in an ASCII string", single([0x52, 0x61, 0xE9]), "ASCII string"),
            ("UTF-16 size past the end", single([0x65, 0x00, 0x41]), "past the end of the objects"),
            ("UTF-16 size of 2^62", single([0x6F, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x41]), "claims"),
            ("lone high surrogate", single([0x62, 0xD8, 0x3D, 0x00, 0x41]), "lone high surrogate"),
            ("lone low surrogate", single([0x61, 0xDE, 0x42]), "lone low surrogate"),
            ("integer size 32 bytes", single([0x15] + [UInt8](repeating: 0, count: 32)), "invalid size"),
            (
                "16-byte integer beyond 64 bits",
                single([0x14, 0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8)), "does not fit in 64 bits"
            ),
            ("real of 2 bytes", single([0x21, 0, 0]), "invalid size"),
            ("date of 4 bytes", single([0x32, 0, 0, 0, 0]), "invalid size"),
            ("NaN date", single([0x33, 0x7F, 0xF8, 0, 0, 0, 0, 0, 0]), "dates must be finite"),
            ("infinite date", single([0x33, 0x7F, 0xF0, 0, 0, 0, 0, 0, 0]), "dates must be finite"),
            ("date of 1.5e300 seconds", single([0x33, 0x7E, 0, 0, 0, 0, 0, 0, 0]), "within 2^53 seconds"),
            ("date of -1.5e300 seconds", single([0x33, 0xFE, 0, 0, 0, 0, 0, 0, 0]), "within 2^53 seconds"),
            ("unknown marker", single([0x70]), "unknown object marker"),
            ("fill byte", single([0x0F]), "unknown object marker"),
            ("UID of 3 bytes", single([0x82, 0, 0, 1]), "a UID takes 1, 2, 4 or 8"),
            ("UID past the end", single([0x83, 0x01]), "UID at 8 claims 4 bytes, past the end"),
            ("set", single([0xC0]), "set object"),
            ("truncated integer", single([0x13, 0x01]), "past the end of the objects"),
        ]
    }()

    @Test(arguments: defects.indices)
    func rejectsEachClassOfDefect(_ index: Int) {
        let (name, data, words) = Self.defects[index]
        let error = #expect(throws: RawCodingError.self, "\(name)") { try read(data) }
        #expect(error?.kind == .decodingFailed || error?.kind == .limitExceeded, "\(name)")
        #expect(error?.reason.contains(words) == true, "\(name): \(error?.reason ?? "")")
        #expect(error?.position != nil, "\(name)")
    }

    @Test func rejectsStructuralDefects() {
        var cycle = Builder()
        cycle.add([0xD1, 0x01, 0x00])  // { "k": <itself> }
        cycle.add([0x51, 0x6B])
        let loop = #expect(throws: RawCodingError.self) { try read(cycle.build()) }
        #expect(loop?.reason.contains("object 0 contains itself: a reference cycle") == true, "\(loop?.reason ?? "")")

        var arrayKey = Builder()
        arrayKey.add([0xD1, 0x01, 0x01])  // { []: [] }
        arrayKey.add([0xA0])
        let key = #expect(throws: RawCodingError.self) { try read(arrayKey.build()) }
        #expect(key?.reason.contains("not a string") == true)

        var emptyTable = Array(Self.single([0x10, 0x01]))
        emptyTable.removeSubrange((emptyTable.count - 33)..<(emptyTable.count - 32))  // drop the one offset
        let table = #expect(throws: RawCodingError.self) { try read(Data(emptyTable)) }
        #expect(table?.reason.contains("offset table") == true, "\(table?.reason ?? "")")
    }

    /// Dates: the reader takes any finite time within 2^53 seconds of 2001 (Date holds it; Python's
    /// datetime does not hold years past 9999, which is why CPython rejects these two).
    @Test func acceptsFarDatesWithinTheDocumentedRange() throws {
        #expect(
            try read(Self.single([0x33, 0x42, 0x50, 0, 0, 0, 0, 0, 0]))
                == .date(Date(timeIntervalSinceReferenceDate: 274_877_906_944)))
        #expect(
            try read(Self.single([0x33, 0x42, 0xE0, 0, 0, 0, 0, 0, 0]))
                == .date(Date(timeIntervalSinceReferenceDate: 140_737_488_355_328)))
        #expect(
            try read(
                Self.single(
                    [0x33]
                        + BinaryPropertyListBuilder.bigEndian(
                            Date.distantPast.timeIntervalSinceReferenceDate.bitPattern, size: 8)))
                == .date(.distantPast))
    }

    @Test func sharedReferencesCountEveryPlaceTheyAppear() throws {
        // Object i is [i+1, i+1]: 20 objects expand to 2^20 values.
        var builder = Builder()
        for index in 0..<20 { builder.add([0xA2, UInt8(index + 1), UInt8(index + 1)]) }
        builder.add([0x10, 0x01])
        // By default 42 bytes may expand to 65,536 values, not 2^20.
        let bounded = #expect(throws: RawCodingError.self) { _ = try read(builder.build()) }
        #expect(bounded?.kind == .limitExceeded)
        #expect(bounded?.reason.contains("Limits.maximumExpansion") == true)
        let error = #expect(throws: RawCodingError.self) {
            _ = try read(builder.build(), limits: Limits(maximumValueCount: 1_000_000, maximumExpansion: .max))
        }
        #expect(error?.kind == .limitExceeded)
        #expect(error?.reason.contains("Limits.maximumValueCount") == true)
        // Within the value count, the tree still takes about 13 MB to write back, so it reads only
        // where the input limit would let those bytes be read too.
        let expansion = #expect(throws: RawCodingError.self) {
            _ = try read(builder.build(), limits: Limits(maximumValueCount: 1 << 21, maximumExpansion: .max))
        }
        #expect(expansion?.kind == .limitExceeded)
        #expect(expansion?.reason.contains("shares containers that, written back") == true)
        let raised = Limits(maximumInputBytes: 64 << 20, maximumValueCount: 1 << 21, maximumExpansion: .max)
        let tree = try read(builder.build(), limits: raised)
        let written = try PropertyListCodec(format: .binary, limits: raised)
            .writeTree(tree)
        #expect(written.count > 8 << 20)
    }

    @Test func nullAndOneByteReferencesRead() throws {
        // The null object reads as the marker the writers write for null, so a rewrite of
        // the file reads back the same tree; the codec decodes it as nil.
        #expect(try read(Self.single([0x00])) == "$null")
        let rewritten = try PropertyListCodec(format: .binary).writeTree(try read(Self.single([0x00])))
        #expect(try PropertyListCodec(format: .binary).readTree(from: rewritten) == "$null")
        #expect(try PropertyListCodec(format: .binary).decode(Int?.self, from: Data(Self.single([0x00]))) == nil)
        var builder = Builder()
        builder.add([0xA2, 0x01, 0x02])
        builder.add([0x09])
        builder.add([0x22, 0x3F, 0xC0, 0x00, 0x00])  // Float 1.5
        #expect(try read(builder.build()) == [true, 1.5])
    }
}
