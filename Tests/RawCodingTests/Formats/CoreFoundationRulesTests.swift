import Foundation
import RawCoding
import Testing

/// Property lists read and written as Core Foundation reads and writes them, with Foundation on
/// this machine as the oracle (`PropertyListDecoder`, which carries CF's rules for the text of
/// numbers, and CF's own `PropertyListSerialization` for dates): the calendar before the
/// Gregorian reform, the text of numbers, the binary header's minor version, and XML in UTF-16
/// or UTF-32. JSON in UTF-16 or UTF-32 as `JSONDecoder` reads it.
@Suite("Core Foundation's property-list rules")
struct CoreFoundationRulesTests {
    static func xml(_ body: String) -> Data {
        Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\">\(body)</plist>".utf8)
    }

    static let codec = PropertyListCodec(format: .xml)

    /// The outcome of a decode: the value's description, or that it threw.
    static func outcome(_ body: () throws -> some Any) -> String {
        do { return "\(try body())" } catch { return "refused" }
    }

    // MARK: Dates before the reform

    static let dateTexts = [
        "0000-01-02T00:00:00Z", "0001-01-01T00:00:00Z", "1000-02-28T12:30:00Z", "1500-06-01T00:00:00Z",
        "1582-10-04T23:59:59Z", "1582-10-05T00:00:00Z", "1582-10-14T00:00:00Z", "1582-10-15T00:00:00Z",
        "1600-02-29T00:00:00Z", "1970-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
    ]

    /// Core Foundation's own reader (`PropertyListSerialization`, the C code `plutil` and
    /// Apple's tools use) names every day in the proleptic Gregorian calendar, as we and
    /// Python's `plistlib` do. swift-foundation's `PropertyListDecoder` uses the Julian calendar
    /// before 1582-10-15 (through ICU): a kept difference, since it reads what Apple's tools
    /// write as another day (`1500-06-01` ten days later).
    @Test(arguments: dateTexts)
    func xmlDatesReadAsCoreFoundationReadsThem(text: String) throws {
        let data = Self.xml("<date>\(text)</date>")
        let ours = try Self.codec.decode(Date.self, from: data)
        let coreFoundation = try #require(
            try PropertyListSerialization.propertyList(from: data, format: nil) as? Date)
        #expect(
            ours == coreFoundation, "\(text): \(ours.timeIntervalSince1970) vs \(coreFoundation.timeIntervalSince1970)")
        let decoder = try PropertyListDecoder().decode(Date.self, from: data)
        if text >= "1582-10-15" {
            #expect(ours == decoder, "\(text)")
        } else if text >= "0300" {
            #expect(ours != decoder, "\(text): the kept difference with PropertyListDecoder")
        }
    }

    @Test func xmlDatesAreWrittenAsCoreFoundationWritesThem() throws {
        var generator = SeededGenerator(state: 1582)
        // Whole seconds from the year 0000 to 9999, most of them before the reform.
        let dates =
            (0..<400).map { _ in -63_113_904_000 + Double(generator.next() % 50_000_000_000) }
            + (0..<100).map { _ in -63_113_904_000 + Double(generator.next() % 315_000_000_000) }
        for seconds in dates {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            let ours = String(decoding: try Self.codec.encode([date]), as: UTF8.self)
            let coreFoundation = String(
                decoding: try PropertyListSerialization.data(fromPropertyList: [date], format: .xml, options: 0),
                as: UTF8.self)
            func dateText(_ document: String) -> Substring? {
                guard let start = document.range(of: "<date>"), let end = document.range(of: "</date>") else {
                    return nil
                }
                return document[start.upperBound..<end.lowerBound]
            }
            #expect(dateText(ours) != nil && dateText(ours) == dateText(coreFoundation), "\(seconds)")
            #expect(try Self.codec.decode([Date].self, from: Data(ours.utf8)) == [date], "\(seconds)")
        }
    }

    @Test func invalidDayTextIsRefused() {
        // Kept difference: Foundation rolls these over to the next month; we refuse them.
        for text in ["1582-02-29T00:00:00Z", "1700-02-29T00:00:00Z", "2024-01-32T00:00:00Z"] {
            #expect(throws: RawCodingError.self, "\(text)") {
                try Self.codec.decode(Date.self, from: Self.xml("<date>\(text)</date>"))
            }
        }
    }

    // MARK: Number text

    static let integerTexts = [
        " +\t42", "+42", " 42", "42 ", "\t42\n", "- 42", "+-42", "0x2A", "042", " -42", "4 2", "", " ", "+", "0x",
        "-0x10", "\u{7F}7",
    ]
    static let realTexts = [
        " 1.5", "1.5 ", "+1.5", " +1.5", "\t1.5", "1.5\n", ".5", "5.", "1e5", "1E+5", "  -2", "inf", "+inf",
        "-infinity", "NaN", "nan ", " nan", "0x1p3", "1.5e", "",
    ]

    @Test(arguments: integerTexts)
    func integerTextReadsAsCoreFoundationReadsIt(text: String) {
        let data = Self.xml("<integer>\(text)</integer>")
        #expect(
            Self.outcome { try Self.codec.decode(Int.self, from: data) }
                == Self.outcome { try PropertyListDecoder().decode(Int.self, from: data) }, "\(text.debugDescription)")
    }

    @Test(arguments: realTexts)
    func realTextReadsAsCoreFoundationReadsIt(text: String) {
        let data = Self.xml("<real>\(text)</real>")
        #expect(
            Self.outcome { try Self.codec.decode(Double.self, from: data) }
                == Self.outcome { try PropertyListDecoder().decode(Double.self, from: data) },
            "\(text.debugDescription)")
    }

    // MARK: Binary header

    @Test func binaryHeadersOfAnyMinorVersionRead() throws {
        let binary = PropertyListCodec(format: .binary)
        let written = try binary.encode(["a": [1, 2]])
        #expect(written.starts(with: Data("bplist00".utf8)))
        for minor in ["1", "5", "?", "x"] {
            var data = written
            data[7] = Character(minor).asciiValue ?? 0
            #expect(try binary.decode([String: [Int]].self, from: data) == ["a": [1, 2]], "bplist0\(minor)")
            #expect(try PropertyListDecoder().decode([String: [Int]].self, from: data) == ["a": [1, 2]])
            #expect(try Self.codec.decode([String: [Int]].self, from: data) == ["a": [1, 2]], "either codec reads it")
        }
        var other = written
        other[6] = UInt8(ascii: "1")
        let error = #expect(throws: RawCodingError.self) { try BinaryPropertyListReader().read(other) }
        #expect(error?.reason.contains("does not start with \"bplist0\"") == true, "\(String(describing: error))")
    }

    // MARK: OpenStep

    struct OldStyle: Codable, Equatable {
        var a: String
        var b: [String]
        var c: [String: String]
        var d: Data?
    }

    /// `PropertyListDecoder` reads OpenStep property lists, and so does `PropertyListCodec`
    /// (either layout): scalars are strings and data.
    @Test func openStepPropertyListsDecodeAsPropertyListDecoderDecodesThem() throws {
        let text = #"{ a = x; b = (1, "two"); c = { k = v; }; d = <0fbd77>; /* note */ }"#
        let expected = OldStyle(a: "x", b: ["1", "two"], c: ["k": "v"], d: Data([0x0F, 0xBD, 0x77]))
        #expect(try PropertyListDecoder().decode(OldStyle.self, from: Data(text.utf8)) == expected)
        for codec in [Self.codec, PropertyListCodec(format: .binary)] as [any Codec] {
            #expect(try codec.decode(OldStyle.self, from: Data(text.utf8)) == expected, "\(codec)")
            #expect(try codec.decodeStored(OldStyle.self, from: Data(text.utf8)).value == expected, "\(codec)")
        }
        // A number is a string there, in both.
        struct Number: Codable { var a: Int }
        #expect(throws: (any Error).self) {
            try PropertyListDecoder().decode(Number.self, from: Data("{ a = 1; }".utf8))
        }
        let error = #expect(throws: RawCodingError.self) {
            try Self.codec.decode(Number.self, from: Data("{ a = 1; }".utf8))
        }
        #expect(error?.codingPathDescription == "a")
        // Neither XML nor OpenStep: the XML reader says why.
        let neither = #expect(throws: RawCodingError.self) {
            try Self.codec.decode(OldStyle.self, from: Data("%PDF".utf8))
        }
        #expect(
            neither?.reason.contains("XML") == true || neither?.reason.contains("<") == true,
            "\(String(describing: neither))")
    }

    // MARK: UTF-16 and UTF-32

    struct Model: Codable, Equatable {
        var a: [String]
        var b: Int
    }

    static let model = Model(a: ["x", "é😀"], b: -12)
    static let encodings: [(String, String.Encoding)] = [
        ("UTF-16 with a mark", .utf16), ("UTF-16BE", .utf16BigEndian), ("UTF-16LE", .utf16LittleEndian),
        ("UTF-32 with a mark", .utf32), ("UTF-32BE", .utf32BigEndian), ("UTF-32LE", .utf32LittleEndian),
    ]

    @Test func xmlInUTF16AndUTF32Reads() throws {
        let utf8 = try Self.codec.encode(Self.model)
        let text = String(decoding: utf8, as: UTF8.self)
            .replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
        for (name, encoding) in Self.encodings {
            let data = try #require(text.data(using: encoding))
            #expect(try Self.codec.decode(Model.self, from: data) == Self.model, "\(name)")
            #expect(try Self.codec.readTree(from: data) == Self.codec.readTree(from: utf8), "\(name)")
        }
        // Foundation reads the form with a mark.
        let marked = try #require(text.data(using: .utf16))
        #expect(try PropertyListDecoder().decode(Model.self, from: marked) == Self.model)
    }

    @Test func jsonInUTF16AndUTF32ReadsAsJSONDecoderReadsIt() throws {
        let text = try JSONCodec().encodeToString(Self.model)
        for (name, encoding) in Self.encodings {
            let data = try #require(text.data(using: encoding))
            #expect(try JSONCodec().decode(Model.self, from: data) == Self.model, "\(name)")
            #expect(try JSONCodec().decodeStored(Model.self, from: data).value == Self.model, "\(name)")
            #expect(try JSONCodec().readTree(from: data) == JSONCodec().readTree(from: Data(text.utf8)), "\(name)")
            if encoding != .utf32 {
                // JSONDecoder on Linux does not take UTF-32 with a mark; every other form it does.
                #expect(try JSONDecoder().decode(Model.self, from: data) == Self.model, "\(name)")
            }
        }
        // A bare number, two bytes of UTF-16.
        #expect(try JSONCodec().decode(Int.self, from: Data([0x37, 0x00])) == 7)
    }

    /// The encoding an 8-bit document declares is the one it is read in: UTF-8 (or US-ASCII,
    /// part of it), in any case and either quote; any other name is refused, naming it, as
    /// Foundation on this machine refuses it ("unknown encoding"), where reading the text as
    /// UTF-8 could give other characters. A wide document's mark decides, not its declaration.
    @Test func anXMLDeclarationNamingAnotherEncodingIsRefused() throws {
        func document(_ declaration: String) -> Data {
            Data("<?xml version=\"1.0\" \(declaration)?>\n<plist version=\"1.0\"><string>é</string></plist>".utf8)
        }
        let accepted = [
            "encoding=\"UTF-8\"", "encoding='utf-8'", "encoding = \"US-ASCII\"", "encoding=\"Utf8\"",
            "encoding=\"ASCII\"", "standalone=\"yes\"", "",
        ]
        for accepted in accepted {
            #expect(try Self.codec.readTree(from: document(accepted)) == "é", "\(accepted)")
        }
        for refused in ["foobar", "ISO-8859-1", "UTF-16", "windows-1252", "UTF-9", "utf-80", "utf", "asci", ""] {
            let data = document("encoding=\"\(refused)\"")
            let error = #expect(throws: RawCodingError.self) { try Self.codec.readTree(from: data) }
            #expect(error?.reason.contains("encoding \"\(refused)\"") == true, "\(String(describing: error))")
            #expect(error?.position?.byteOffset == 30, "\(String(describing: error))")
            #expect(throws: (any Error).self, "Foundation refuses it too") {
                try PropertyListDecoder().decode(String.self, from: data)
            }
        }
        // UTF-16 with a mark, declaring UTF-8: the mark decides, as for Core Foundation.
        let wide = try #require(String(decoding: document("encoding=\"UTF-8\""), as: UTF8.self).data(using: .utf16))
        #expect(try Self.codec.readTree(from: wide) == "é")
    }

    @Test func brokenUTF16IsRefusedWithItsOffset() {
        let cases: [(Data, String)] = [
            (Data([0xFF, 0xFE, 0x5B, 0x00, 0x22, 0x00, 0x00, 0xD8, 0x22, 0x00, 0x5D, 0x00]), "high surrogate"),
            (Data([0x5B, 0x00, 0x22, 0x00, 0x00, 0xDC, 0x22, 0x00, 0x5D, 0x00]), "U+DC00 is not a character"),
            (Data([0x5B, 0x00, 0x31, 0x00, 0x5D]), "cut off"),
            (Data([0x00, 0x00, 0x00, 0x5B, 0x00, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x5D]), "not a character"),
        ]
        for (data, reason) in cases {
            let error = #expect(throws: RawCodingError.self) { try JSONCodec().decode([String].self, from: data) }
            #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
            #expect(error?.position != nil)
        }
    }
}
