import Foundation
import RawCoding
import Testing

@Suite("XML property lists")
struct XMLPropertyListTests {
    func read(_ text: String, limits: Limits = .default) throws(RawCodingError) -> StoredValue {
        try XMLPropertyListReader(limits: limits).read(Data(text.utf8))
    }

    func document(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>
        """
    }

    // MARK: Writer

    /// Foundation's PropertyListEncoder is the oracle for the layout, for a model of the value
    /// kinds both write the same way.
    @Test func layoutEqualsFoundationsForTheSameModel() throws {
        struct Model: Codable {
            var name = "a <b> & \"c\" 'd' é 🙂"
            var count = 42
            var negative = Int64.min
            var big = UInt64.max
            var ratio = 0.1
            var whole = 3.0
            var flags = [true, false]
            var empty: [Int] = []
            var none: [String: Int] = [:]
            var nested = ["z": [1, 2], "a": [3]]
            var when = Date(timeIntervalSinceReferenceDate: 86_400 * 365)
            var before = Date(timeIntervalSince1970: -86_401)
            var blob = Data((0..<100).map { UInt8($0) })
            var tiny = Data()
            var deep = [[["x": Data([1, 2, 3])]]]
        }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        let ours = String(decoding: try PropertyListCodec.propertyList(.xml).encode(Model()), as: UTF8.self)
        let theirs = String(decoding: try encoder.encode(Model()), as: UTF8.self)
        #expect(ours == theirs)
    }

    @Test func scalarsAtTheTopAndSpecialReals() throws {
        let writer = XMLPropertyListWriter()
        func body(_ value: StoredValue) throws -> String {
            let text = String(decoding: try writer.write(value), as: UTF8.self)
            let start = try #require(text.range(of: "<plist version=\"1.0\">\n"))
            return String(text[start.upperBound...].dropLast("</plist>\n".count))
        }
        #expect(try body(42) == "<integer>42</integer>\n")
        #expect(try body(.double(.nan)) == "<real>nan</real>\n")
        #expect(try body(.double(.infinity)) == "<real>+infinity</real>\n")
        #expect(try body(.double(-.infinity)) == "<real>-infinity</real>\n")
        #expect(try body(.double(-0.0)) == "<real>-0</real>\n")
        #expect(try body(.null) == "<string>$null</string>\n")
        #expect(try body(.date(Date(timeIntervalSince1970: -0.5))) == "<date>1969-12-31T23:59:59Z</date>\n")
        #expect(try body(.date(.distantPast)) == "<date>0000-12-30T00:00:00Z</date>\n")
        #expect(try body(.date(.distantFuture)) == "<date>4001-01-01T00:00:00Z</date>\n")
        #expect(try body([:]) == "<dict/>\n")
        for date in [Date.distantPast, .distantFuture, Date(timeIntervalSince1970: -14_182_940)] {
            #expect(try read(String(decoding: writer.write(.date(date)), as: UTF8.self)) == .date(date))
        }
    }

    @Test func datesOutsideFourDigitYearsAreAnErrorWithThePath() {
        let error = #expect(throws: RawCodingError.self) {
            try XMLPropertyListWriter().write(["when": [.date(Date(timeIntervalSince1970: 1e12))]])
        }
        #expect(error?.kind == .encodingFailed)
        #expect(error?.codingPathDescription == "when[0]")
    }

    // MARK: Reader

    /// XML cannot hold U+0000, so no XML property list writer writes it (Foundation's
    /// `PropertyListEncoder` throws too); the binary layout and JSON hold it.
    @Test func aStringOrKeyHoldingNULIsRefusedWithItsPath() throws {
        struct Model: Codable, Equatable {
            var names: [String]
            var table: [String: Int]
        }
        let inString = Model(names: ["ok", "a\u{0}b"], table: [:])
        let inKey = Model(names: [], table: ["x\u{0}": 1])
        let xml = PropertyListCodec(format: .xml)
        for (value, path) in [(inString, "names[1]"), (inKey, "table.x\u{0}")] {
            for attempt in [{ try xml.encode(value) }, { try xml.writeTree(xml.encodeTree(value)) }] {
                let error = #expect(throws: RawCodingError.self) { try attempt() }
                #expect(error?.kind == .encodingFailed)
                #expect(error?.codingPathDescription == path, "\(String(describing: error))")
                #expect(error?.reason.contains("U+0000") == true, "\(String(describing: error))")
            }
            #expect(throws: RawCodingError.self) {
                try XMLPropertyListWriter().write(StoredValueEncoder().encode(value))
            }
            for codec in [PropertyListCodec(format: .binary), JSONCodec()] as [any Codec] {
                #expect(try codec.decode(Model.self, from: codec.encode(value)) == value, "\(codec)")
            }
        }
        let json = Data(#"{"names":["a\u0000b"]}"#.utf8)
        let convert = ToolRun.run(["convert", "in.json", "--to", "xml"], files: ["in.json": json])
        #expect(convert.status != 0)
        #expect(convert.messagesText.contains("U+0000"), "\(convert.messagesText)")
        #expect(convert.output.isEmpty)
    }

    /// What the writer refuses, the reader refuses too: a raw U+0000 anywhere (text, a key,
    /// CDATA, a comment, a UTF-16 document), with its position, so that nothing read from a
    /// file fails to be written back (the reader-roundtrip fuzz finding).
    @Test func aRawNULIsRefusedWhereverItIsWithItsPosition() throws {
        let places = [
            "<string>a\u{0}b</string>", "<dict><key>x\u{0}</key><true/></dict>",
            "<string><![CDATA[\u{0}]]></string>", "<!-- \u{0} --><true/>", "<array><string>\u{0}</string></array>",
        ]
        for text in places {
            let offset = text.utf8.firstIndex(of: 0).map { text.utf8.distance(from: text.utf8.startIndex, to: $0) }
            for data in [Data(text.utf8), Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!] {
                let error = #expect(throws: RawCodingError.self) { try XMLPropertyListReader().read(data) }
                #expect(error?.reason.contains("U+0000") == true, "\(text): \(String(describing: error))")
                #expect(error?.position?.byteOffset == offset, "\(text): \(String(describing: error))")
            }
        }
    }

    @Test func readsEveryElementAndForm() throws {
        let text = document(
            """
            <dict>
                <!-- a comment -->
                <key>string</key><string>a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; &#233;&#x1F642;</string>
                <key>cdata</key><string><![CDATA[<not markup> & raw]]></string>
                <key>mixed</key><string>x<!-- gone -->y<![CDATA[z]]></string>
                <key>empty</key><string/>
                <key>integer</key><integer> - 42</integer>
                <key>hex</key><integer>0x1F</integer>
                <key>plus</key><integer>+7</integer>
                <key>big</key><integer>18446744073709551615</integer>
                <key>real</key><real>1.5e3</real>
                <key>fraction</key><real>.5</real>
                <key>nan</key><real>NaN</real>
                <key>inf</key><real>-inf</real>
                <key>yes</key><true/>
                <key>no</key><false></false>
                <key>date</key><date>1969-07-20T20:17:40Z</date>
                <key>data</key><data>
                    AAEC
                    Aw==
                </data>
                <key>list</key><array><integer>1</integer><array/><dict/></array>
                <key>tab&#9;key</key><string>  spaces kept\t</string>
            </dict>
            """)
        let value = try read(text)
        #expect(value["string"] == "a & b <c> \"d\" 'e' é🙂")
        #expect(value["cdata"] == "<not markup> & raw")
        #expect(value["mixed"] == "xyz")
        #expect(value["empty"] == "")
        #expect(value["integer"] == -42)
        #expect(value["hex"] == 31)
        #expect(value["plus"] == 7)
        #expect(value["big"] == .uint(.max))
        #expect(value["real"] == 1500.0)
        #expect(value["fraction"] == 0.5)
        #expect(value["nan"]?.doubleValue?.isNaN == true)
        #expect(value["inf"] == .double(-.infinity))
        #expect(value["yes"] == true)
        #expect(value["no"] == false)
        #expect(value["date"] == .date(Date(timeIntervalSince1970: -14_182_940)))
        #expect(value["data"] == .data(Data([0, 1, 2, 3])))
        #expect(value["list"] == [1, [], [:]])
        #expect(value["tab\tkey"] == "  spaces kept\t")
    }

    @Test func anyValueMayBeTheRootWithOrWithoutThePlistElement() throws {
        #expect(try read("<string>x</string>") == "x")
        #expect(try read("  <?xml version=\"1.0\"?>\n<integer>1</integer>\n") == 1)
        #expect(try read(document("<true/>")) == true)
        #expect(try read("\u{FEFF}<plist><array/></plist>") == [])
    }

    @Test func keepsTextExactlyAsWritten() throws {
        // Apple's writer leaves control characters and CR raw; they read back unchanged. (U+0000
        // is refused: aStringOrKeyHoldingNULIsRefusedWithItsPath.)
        let text = "a\r\nb\u{1}c\u{1F}"
        let written = try XMLPropertyListWriter().write(.string(text))
        #expect(try XMLPropertyListReader().read(written) == .string(text))
    }

    static let rejected: [(String, String)] = [
        ("", "empty input"), ("   ", "no element"), ("<plist/>", "holds no value"),
        ("<plist></plist>", "unexpected end tag"),
        ("<string>&foo;</string>", "unknown entity &foo;"),
        ("<string>&#xD800;</string>", "invalid character reference"),
        ("<string>&#0;</string>", "invalid character reference"),
        ("<string>& b</string>", "does not start a reference"),
        ("<!DOCTYPE plist [<!ENTITY e \"x\">]><plist><string>&e;</string></plist>", "internal subset"),
        ("<foo/>", "unknown element <foo>"), ("<key>a</key>", "<key> outside a <dict>"),
        ("<dict><key>a</key></dict>", "has no value"),
        ("<dict><string>a</string></dict>", "where a <key> was expected"),
        ("<array><string>a</array>", "does not close <string>"), ("<array>", "unexpected end of input"),
        ("<string>abc", "unexpected end of input inside <string>"),
        ("<string>a</string><string>b</string>", "after the property list"),
        ("<plist><true/><true/></plist>", "expected </plist>"), ("<integer>12a</integer>", "invalid integer"),
        ("<integer></integer>", "invalid integer"),
        ("<integer>18446744073709551616</integer>", "does not fit in 64 bits"),
        ("<integer>-9223372036854775809</integer>", "does not fit in 64 bits"), ("<real>1,5</real>", "invalid real"),
        ("<real>0x1p3</real>", "invalid real"), ("<real>1e999</real>", "too large for a Double"),
        ("<date>2020-02-30T00:00:00Z</date>", "invalid date"), ("<date>2020-01-01</date>", "invalid date"),
        ("<date>2020-01-01T25:00:00Z</date>", "invalid date"), ("<data>!!!!</data>", "invalid Base64"),
        ("<string><![CDATA[x</string>", "unterminated CDATA"), ("<!-- x", "unterminated comment"),
        ("<string", "end of input inside the <string> tag"), ("text", "unexpected text"),
        ("<plist><plist/></plist>", "<plist> inside"),
    ]

    @Test(arguments: rejected.indices)
    func rejectsMalformedInput(_ index: Int) {
        let (text, words) = Self.rejected[index]
        let error = #expect(throws: RawCodingError.self, "\(text)") { try read(text) }
        #expect(error?.reason.contains(words) == true, "\(text): \(error?.reason ?? "")")
        #expect(error?.position?.line != nil)
    }

    @Test func rejectsInvalidUTF8AnywhereInTheText() {
        for bytes: [UInt8] in [
            Array("<string>".utf8) + [0xFF] + Array("</string>".utf8),
            Array("<string>a&amp;".utf8) + [0xC0, 0x80] + Array("</string>".utf8),
            Array("<!-- ".utf8) + [0xED, 0xA0, 0x80] + Array(" --><true/>".utf8),
        ] {
            let error = #expect(throws: RawCodingError.self) { try XMLPropertyListReader().read(Data(bytes)) }
            #expect(error?.reason.contains("UTF-8") == true, "\(error?.reason ?? "")")
        }
    }

    @Test func errorsGiveLineAndColumn() {
        let error = #expect(throws: RawCodingError.self) {
            try read(document("<dict>\n\t<key>a</key>\n\t<integer>x</integer>\n</dict>"))
        }
        #expect(error?.position?.line == 6)
        #expect(error?.position?.column == 11)
    }

    @Test func limitsAreEnforced() throws {
        let text = document("<array>" + String(repeating: "<integer>1</integer>", count: 10) + "</array>")
        let count = #expect(throws: RawCodingError.self) { try read(text, limits: Limits(maximumValueCount: 10)) }
        #expect(count?.kind == .limitExceeded)
        _ = try read(text, limits: Limits(maximumValueCount: 11))
        #expect(throws: RawCodingError.self) { try read(text, limits: Limits(maximumInputBytes: 100)) }
        #expect(throws: RawCodingError.self) { try read("<array><array/></array>", limits: Limits(maximumDepth: 1)) }
    }

    @Test func aRepeatedKeyKeepsItsLastValue() throws {
        #expect(try read("<dict><key>a</key><integer>1</integer><key>a</key><integer>2</integer></dict>") == ["a": 2])
    }
}
