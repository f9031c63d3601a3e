import Foundation
import RawCoding
import Testing

/// swift-foundation's `PropertyListEncoderTests`, ported onto `PropertyListCodec`.
enum PropertyListEncoderPort {
    static let xml = PropertyListCodec(format: .xml)
    static let binary = PropertyListCodec(format: .binary)

    static func document(_ body: String) -> Data {
        Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\">\(body)</plist>".utf8)
    }

    static func fails<Value: Decodable>(_ type: Value.Type, _ data: Data) -> Bool {
        do {
            _ = try xml.decode(type, from: data)
            return false
        } catch {
            return true
        }
    }

    struct Wrapper<Value: Codable & Equatable>: Codable, Equatable {
        var value: Value
    }

    static let cases: [PortedCase] = roundTrips + reading + more + remaining + keptDifferences

    /// The binary property list of `[42, 314, 255]` as swift-foundation's tests build it, with
    /// `corrupt` applied: an array of three references, three integers, the offset table at 19
    /// and the trailer at 23 (offset size, reference size, count, top object, table start).
    static func corrupted(_ corrupt: (inout [UInt8]) -> Void) -> [UInt8] {
        var bytes: [UInt8] =
            Array("bplist00".utf8) + [0xA3, 0x01, 0x02, 0x03, 0x10, 0x2A, 0x11, 0x01, 0x3A, 0x10, 0xFF]
            + [0x08, 0x0C, 0x0E, 0x11] + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 4]
            + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 0x13]
        corrupt(&bytes)
        return bytes
    }

    // MARK: Round trips

    static let roundTrips: [PortedCase] = [
        PortedCase(.propertyList, "encodingTopLevelEmptyStruct") { () throws in
            try Port.roundTripPropertyList(EmptyStruct())
        },
        PortedCase(.propertyList, "encodingTopLevelEmptyClass") { () throws in
            try Port.roundTripPropertyList(EmptyClass())
        },
        PortedCase(.propertyList, "encodingTopLevelStructuredStruct") { () throws in
            try Port.roundTripPropertyList(Address())
        },
        PortedCase(.propertyList, "encodingTopLevelStructuredClass") { () throws in
            try Port.roundTripPropertyList(Person())
        },
        PortedCase(.propertyList, "encodingTopLevelStructuredSingleStruct") { () throws in
            try Port.roundTripPropertyList(Numbers())
        },
        PortedCase(.propertyList, "encodingTopLevelStructuredSingleClass") { () throws in
            try Port.roundTripPropertyList(Mapping())
        },
        PortedCase(.propertyList, "encodingTopLevelDeepStructuredType") { () throws in
            try Port.roundTripPropertyList(Company())
        },
        PortedCase(.propertyList, "encodingClassWhichSharesEncoderWithSuper") { () throws in
            try Port.roundTripPropertyList(Employee())
        },
        PortedCase(.propertyList, "encodingTopLevelNullableType") { () throws in
            try Port.roundTripPropertyList(Wrapper(value: EnhancedBool.true))
            try Port.roundTripPropertyList(Wrapper(value: EnhancedBool.false))
            try Port.roundTripPropertyList(Wrapper(value: EnhancedBool.fileNotFound))
        },
        PortedCase(.propertyList, "encodingTopLevelWithConfiguration") { () throws in
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
            let value = ConfiguredNumber(number: 3)
            for codec in [xml, binary] as [any Codec] {
                let data = try codec.encode(value, configuration: ConfiguredNumber.Provider.self)
                #expect(try codec.decode(Int.self, from: data) == 5)
                #expect(
                    try codec.decode(ConfiguredNumber.self, from: data, configuration: ConfiguredNumber.Provider.self)
                        == value)
            }
        },
        PortedCase(.propertyList, "encodingMultipleNestedContainersWithTheSameTopLevelKey") { () throws in
            struct Model: Encodable {
                enum Keys: String, CodingKey { case top, first, second }
                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: Keys.self)
                    var first = container.nestedContainer(keyedBy: Keys.self, forKey: .top)
                    try first.encode("Johnny Appleseed", forKey: .first)
                    var second = container.nestedContainer(keyedBy: Keys.self, forKey: .top)
                    try second.encode("appleseed@apple.com", forKey: .second)
                }
            }
            for codec in [xml, binary] as [any Codec] {
                let tree = try codec.readTree(from: codec.encode(Model()))
                #expect(tree == ["top": ["first": "Johnny Appleseed", "second": "appleseed@apple.com"]], "\(codec)")
            }
        },
        PortedCase(.propertyList, "decodingConcreteTypeParameter") { () throws in
            for codec in [xml, binary] as [any Codec] {
                let decoded = try codec.decode(Employee.self as Person.Type, from: codec.encode(Employee()))
                #expect(type(of: decoded) == Employee.self, "\(codec)")
            }
        },
        PortedCase(.propertyList, "encodingTopLevelData") { () throws in
            let data = Data("[]".utf8)
            try Port.roundTripPropertyList(Wrapper(value: data))
            #expect(try binary.decode(Data.self, from: binary.encode(data)) == data)
        },
        PortedCase(.propertyList, "interceptData") { () throws in
            let data = Data("[]".utf8)
            let expected = try PropertyListSerialization.data(
                fromPropertyList: ["value": data], format: .xml, options: 0)
            #expect(try xml.readTree(from: xml.encode(Wrapper(value: data))) == xml.readTree(from: expected))
        },
        PortedCase(.propertyList, "interceptDate") { () throws in
            let date = Date(timeIntervalSinceReferenceDate: 0)
            for (codec, format) in [(xml, PropertyListSerialization.PropertyListFormat.xml), (binary, .binary)]
                as [(any Codec, PropertyListSerialization.PropertyListFormat)]
            {
                let expected = try PropertyListSerialization.data(
                    fromPropertyList: ["value": date], format: format, options: 0)
                #expect(try codec.encode(Wrapper(value: date)) == expected, "\(format)")
            }
        },
        PortedCase(.propertyList, "integerRealCoercion") { () throws in
            for codec in [xml, binary] as [any Codec] {
                #expect(try codec.decode([Double].self, from: codec.encode([1 as UInt64])) == [1.0])
                #expect(try codec.decode([Float].self, from: codec.encode([-1 as Int64])) == [-1.0])
                #expect(try codec.decode([Int].self, from: codec.encode([2.0])) == [2])
                #expect(throws: RawCodingError.self) { try codec.decode([Int].self, from: codec.encode([2.5])) }
            }
        },
        PortedCase(.propertyList, "unkeyedContainerContainingNulls") { () throws in
            struct WithNulls: Codable, Equatable {
                var array: [String?] = [nil, "hello", nil, "world"]
            }
            try Port.roundTripPropertyList(WithNulls())
        },
        PortedCase(.propertyList, "binaryNumberEdgeCases") { () throws in
            try Port.roundTripPropertyList([Int8.max, .min].map(Int64.init) + [Int64.max, .min])
            try Port.roundTripPropertyList([UInt64.max, UInt64(UInt32.max), UInt64(UInt16.max)])
            try Port.roundTripPropertyList([Float.greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity])
            try Port.roundTripPropertyList([Double.greatestFiniteMagnitude, .leastNonzeroMagnitude, -.infinity])
        },
        PortedCase(.propertyList, "binaryReals") { () throws in
            let values: [Double] = [1.5, 0.1, -0.0, 1e300, .leastNonzeroMagnitude]
            #expect(
                try binary.decode([Double].self, from: binary.encode(values)).map(\.bitPattern)
                    == values.map(\.bitPattern))
            let floats: [Float] = [1.5, 0.1, 3.4028235e38]
            #expect(try binary.decode([Float].self, from: binary.encode(floats)) == floats)
        },
        PortedCase(.propertyList, "realEncodeRemoveZeroSuffix") { () throws in
            let text = String(decoding: try xml.encode([2.0, -5.0]), as: UTF8.self)
            #expect(text.contains("<real>2</real>") && text.contains("<real>-5</real>"), "\(text)")
        },
        PortedCase(.propertyList, "roundTripEmoji") { () throws in
            try Port.roundTripPropertyList(["🚘", "👩🏻‍❤️‍👨🏿", "🏋🏽‍♂️🕺🏼🥌"])
        },
        PortedCase(.propertyList, "roundTripEscapedStrings") { () throws in
            try Port.roundTripPropertyList(["&", "<", ">", "\"", "'", "&amp;", "<![CDATA[x]]>", "]]>"])
        },
        PortedCase(.propertyList, "multipleDecodeOptions") { () throws in
            try Port.roundTripPropertyList(["1", "1.2", "foo"])
            try Port.roundTripPropertyList(Wrapper(value: 1.2))
        },
        PortedCase(.propertyList, "supers") { () throws in
            try Port.roundTripPropertyList(Employee())
            #expect(try binary.readTree(from: binary.encode(Employee()))["id"] == 42)
        },
    ]

    // MARK: Reading

    static let reading: [PortedCase] = [
        PortedCase(.propertyList, "xmlIntegerEdgeCases") { () throws in
            #expect(try xml.decode(Int8.self, from: document("<integer>127</integer>")) == .max)
            #expect(try xml.decode(Int8.self, from: document("<integer>-128</integer>")) == .min)
            #expect(try xml.decode(Int16.self, from: document("<integer>-0x8000</integer>")) == .min)
            #expect(try xml.decode(Int8.self, from: document("<integer>0x7f</integer>")) == .max)
            #expect(try xml.decode(Int64.self, from: document("<integer>-9223372036854775808</integer>")) == .min)
            #expect(try xml.decode(UInt64.self, from: document("<integer>18446744073709551615</integer>")) == .max)
            #expect(fails(Int8.self, document("<integer>128</integer>")))
            #expect(fails(Int8.self, document("<integer>-129</integer>")))
            #expect(fails(UInt8.self, document("<integer>-1</integer>")))
            #expect(fails(Int64.self, document("<integer>18446744073709551616</integer>")))
            #expect(try xml.decode(UInt32.self, from: document("<integer>0xFFFFFFFF</integer>")) == .max)
            #expect(try xml.decode(Int32.self, from: document("<integer>-2147483648</integer>")) == .min)
        },
        PortedCase(.propertyList, "xmlIntegerWhitespace") { () throws in
            let data = Data(
                "<array><integer> +\t42</integer><integer>\t-   99</integer><integer> -\t0xFACE</integer></array>".utf8)
            #expect(try xml.decode([Int].self, from: data) == [42, -99, -0xFACE])
        },
        PortedCase(.propertyList, "xmlReals") { () throws in
            let data = Data(
                "<plist><array><real>1.5</real><real>2</real><real>  -3.14</real><real>31415.9e-4</real><real>-iNf</real><real>infInItY</real></array></plist>"
                    .utf8)
            #expect(try xml.decode([Float].self, from: data) == [1.5, 2, -3.14, 31415.9e-4, -.infinity, .infinity])
            let nans = Data("<array><real>nAn</real><real>NAN</real><real>nan</real></array>".utf8)
            #expect(try xml.decode([Float].self, from: nans).allSatisfy(\.isNaN))
            #expect(fails([Double].self, Data("<array><real>0x10</real></array>".utf8)))
        },
        PortedCase(.propertyList, "escapedCharacters") { () throws in
            #expect(
                try xml.decode(
                    String.self, from: Data("<plist><string>&amp;&apos;&lt;&gt;&quot;</string></plist>".utf8))
                    == "&'<>\"")
        },
        PortedCase(.propertyList, "plistWithEscapedCharacters") { () throws in
            let text =
                #"<plist><dict><key>k</key><string>(allow mach-lookup (global-name-regex #"^[0-9]+$"))</string></dict></plist>"#
            #expect(
                try xml.decode([String: String].self, from: Data(text.utf8))["k"]
                    == #"(allow mach-lookup (global-name-regex #"^[0-9]+$"))"#)
        },
        PortedCase(.propertyList, "dataWithBOM_utf8") { () throws in
            let data = Data([0xEF, 0xBB, 0xBF]) + document("<string>hello</string>")
            #expect(try xml.decode(String.self, from: data) == "hello")
        },
        PortedCase(.propertyList, "dataWithBOM_utf32be") { () throws in
            let text =
                "<?xml version=\"1.0\" encoding=\"UTF-32BE\"?><plist version=\"1.0\"><string>hello</string></plist>"
            let data = Data([0x00, 0x00, 0xFE, 0xFF]) + text.data(using: .utf32BigEndian)!
            #expect(try xml.decode(String.self, from: data) == "hello")
        },
        PortedCase(.propertyList, "dataWithBOM_utf32le") { () throws in
            let text =
                "<?xml version=\"1.0\" encoding=\"UTF-32LE\"?><plist version=\"1.0\"><string>hello</string></plist>"
            let data = Data([0xFF, 0xFE, 0x00, 0x00]) + text.data(using: .utf32LittleEndian)!
            #expect(try xml.decode(String.self, from: data) == "hello")
        },
        PortedCase(.propertyList, "decodingEmoji") { () throws in
            let data = document("<dict><key>emoji</key><string>&#x1F698;</string></dict>")
            #expect(try xml.decode([String: String].self, from: data)["emoji"] == "\u{1F698}")
        },
        PortedCase(.propertyList, "decodingTooManyCharactersError") { () throws in
            #expect(fails(String.self, document("<string>&#x110000;</string>")))
        },
        PortedCase(.propertyList, "unterminatedComment") { () throws in
            #expect(fails([String].self, Data("<array><!-- comment -->".utf8)))
        },
        PortedCase(.propertyList, "incompleteOpenTag") { () throws in #expect(fails([String].self, Data("<array".utf8)))
        },
        PortedCase(.propertyList, "CDATA_section") { () throws in
            let data = Data("<string><![CDATA[Test &amp; &33; <![CDATA[]]]> outside</string>".utf8)
            #expect(try xml.decode(String.self, from: data) == "Test &amp; &33; <![CDATA[] outside")
        },
        PortedCase(.propertyList, "garbageCharactersAfterXMLTagName") { () throws in
            #expect(
                fails(
                    [String: String].self,
                    Data("<plist><dict><key>bar</key><stringGARBAGE>foo</string></dict></plist>".utf8)))
            let spaced = Data("<plist><dict><key>bar</key><string      >foo</string></dict></plist>".utf8)
            #expect(try xml.decode([String: String].self, from: spaced) == ["bar": "foo"])
        },
        PortedCase(.propertyList, "nonStringDictionaryKey") { () throws in
            var data = try binary.encode(["abcd": "xyz"])
            let range = try #require(data.range(of: Data([0b0101_0100])))
            data.replaceSubrange(range, with: Data([0b0000_1001]))
            #expect(throws: RawCodingError.self) { try binary.decode([String: String].self, from: data) }
            #expect(
                fails(
                    [String: String].self,
                    Data("<plist><dict><string>abcd</string><string>xyz</string></dict></plist>".utf8)))
        },
        PortedCase(.propertyList, "returnRightFormatFromParse") { () throws in
            let data = Data("{ CFBundleDevelopmentRegion = en; }".utf8)
            #expect(try xml.decode([String: String].self, from: data) == ["CFBundleDevelopmentRegion": "en"])
        },
        PortedCase(.propertyList, "oldStylePlist_comments") { () throws in
            let data = Data("{ a = b; // line\n /* block */ c = d; }".utf8)
            #expect(try xml.decode([String: String].self, from: data) == ["a": "b", "c": "d"])
        },
        PortedCase(.propertyList, "oldStylePlist_data") { () throws in
            #expect(
                try xml.decode([String: Data].self, from: Data("{ d = <0fbd77 1c2735ae>; }".utf8))["d"]
                    == Data([0x0F, 0xBD, 0x77, 0x1C, 0x27, 0x35, 0xAE]))
        },
        PortedCase(.propertyList, "oldStylePlist_invalid") { () throws in
            for text in ["{ a = b; ", "( a, ", "{ a b; }", "<0fbd7>"] {
                #expect(fails([String: String].self, Data(text.utf8)), "\(text)")
            }
        },
        PortedCase(.propertyList, "issue6164184") { () throws in
            #expect(fails([String].self, Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0xFF])))
        },
        PortedCase(.propertyList, "badReferenceIndex") { () throws in
            // An array whose one reference points past the object table.
            let bytes: [UInt8] =
                Array("bplist00".utf8) + [0xA1, 0x05, 0x08] + [0, 0, 0, 0, 0, 0, 1, 1]
                + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 0x0A]
            #expect(throws: RawCodingError.self) { try binary.readTree(from: Data(bytes)) }
        },
        PortedCase(.propertyList, "tooLargeObjectCount") { () throws in
            let bytes: [UInt8] =
                Array("bplist00".utf8) + [0x08, 0x08] + [0, 0, 0, 0, 0, 0, 1, 1]
                + [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + [0, 0, 0, 0, 0, 0, 0, 0]
                + [0, 0, 0, 0, 0, 0, 0, 0x09]
            #expect(throws: RawCodingError.self) { try binary.readTree(from: Data(bytes)) }
        },
        PortedCase(
            .propertyList, "uid",
            .keptDifference(
                "a UID reads as the one-entry dictionary CF$UID it is in XML, so a Codable type keyed CF$UID reads keyed archives; PropertyListDecoder refuses UIDs"
            )
        ) { () throws in
            let bytes: [UInt8] =
                Array("bplist00".utf8) + [0xA1, 0x01, 0x80, 0x01, 0x08, 0x0A] + [0, 0, 0, 0, 0, 0, 1, 1]
                + [0, 0, 0, 0, 0, 0, 0, 2] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 0x0C]
            // Never a number.
            #expect(throws: RawCodingError.self) { try binary.decode([Int32].self, from: Data(bytes)) }
            #expect(try binary.readTree(from: Data(bytes)) == [["CF$UID": 1]])
            #expect(try binary.decode([[String: Int32]].self, from: Data(bytes)) == [["CF$UID": 1]])
            let xmlUID = Data("<plist><dict><key>CF$UID</key><integer>1</integer></dict></plist>".utf8)
            #expect(try xml.decode([String: Int32].self, from: xmlUID) == ["CF$UID": 1])
            #expect(throws: (any Error).self) { try PropertyListDecoder().decode([String: Int32].self, from: xmlUID) }
        },
        PortedCase(.propertyList, "badTopObjectIndex") { () throws in
            #expect(try binary.decode([Int].self, from: Data(corrupted { _ in })) == [42, 314, 255])
            #expect(throws: RawCodingError.self) {
                try binary.decode(
                    [Int].self,
                    from: Data(corrupted { $0.replaceSubrange(39..<47, with: [UInt8](repeating: 0xFF, count: 8)) }))
            }
        },
        PortedCase(.propertyList, "outOfBoundsObjectOffset") { () throws in
            #expect(throws: RawCodingError.self) {
                try binary.decode([Int].self, from: Data(corrupted { $0[22] = 0xEE }))
            }
        },
        PortedCase(.propertyList, "nonTopObjectOffsetBelowHeader") { () throws in
            #expect(throws: RawCodingError.self) {
                try binary.decode([Int].self, from: Data(corrupted { $0[20] = 0x03 }))
            }
        },
        PortedCase(.propertyList, "outOfBoundsOffsetTableStart") { () throws in
            #expect(throws: RawCodingError.self) {
                try binary.decode(
                    [Int].self,
                    from: Data(corrupted { $0.replaceSubrange(47..<55, with: [UInt8](repeating: 0xFF, count: 8)) }))
            }
        },
        PortedCase(.propertyList, "tooLargeOffset") { () throws in
            // Offsets of 8 bytes, one of them 2^64 - 1.
            let bytes: [UInt8] =
                Array("bplist00".utf8) + [0xA3, 0x01, 0x02, 0x03, 0x10, 0x2A, 0x11, 0x01, 0x3A, 0x10, 0xFF]
                + [0, 0, 0, 0, 0, 0, 0, 0x08] + [0, 0, 0, 0, 0, 0, 0, 0x0C]
                + [UInt8](repeating: 0xFF, count: 8) + [0, 0, 0, 0, 0, 0, 0, 0x11]
                + [0, 0, 0, 0, 0, 0, 8, 1] + [0, 0, 0, 0, 0, 0, 0, 4] + [0, 0, 0, 0, 0, 0, 0, 0]
                + [0, 0, 0, 0, 0, 0, 0, 0x13]
            #expect(throws: RawCodingError.self) { try binary.decode([Int].self, from: Data(bytes)) }
        },
        PortedCase(.propertyList, "tooLargeIndex") { () throws in
            // References of 8 bytes, one of them 2^64 - 1.
            let bytes: [UInt8] =
                Array("bplist00".utf8) + [0xA3] + [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0xFF, count: 8)
                + [0, 0, 0, 0, 0, 0, 0, 3] + [0x10, 0x2A, 0x11, 0x01, 0x3A, 0x10, 0xFF] + [0x08, 0x21, 0x23, 0x26]
                + [0, 0, 0, 0, 0, 0, 1, 8] + [0, 0, 0, 0, 0, 0, 0, 4] + [0, 0, 0, 0, 0, 0, 0, 0]
                + [0, 0, 0, 0, 0, 0, 0, 0x28]
            #expect(throws: RawCodingError.self) { try binary.decode([Int].self, from: Data(bytes)) }
        },
    ]

    // MARK: Coding paths, state, OpenStep and stability

    static let more: [PortedCase] = [
        PortedCase(.propertyList, "nestedContainerCodingPaths") { () throws in
            for codec in [xml, binary] as [any Codec] {
                let seen = PathsSeen()
                _ = try codec.encode(PathRecorder(seen: seen, useSuperEncoder: false))
                #expect(seen.paths == ["", "top", "top.0", "top.0.inner"], "\(codec): \(seen.paths)")
            }
        },
        PortedCase(.propertyList, "superEncoderCodingPaths") { () throws in
            for codec in [xml, binary] as [any Codec] {
                let seen = PathsSeen()
                _ = try codec.encode(PathRecorder(seen: seen, useSuperEncoder: true))
                #expect(seen.paths == ["", "top", "top.0", "top.0.inner"], "\(codec): \(seen.paths)")
            }
        },
        PortedCase(.propertyList, "typeCoercion") { () throws in
            for codec in [xml, binary] as [any Codec] {
                #expect(throws: RawCodingError.self) {
                    try codec.decode([Int].self, from: codec.encode([false, true]))
                }
                #expect(throws: RawCodingError.self) { try codec.decode([Bool].self, from: codec.encode([0, 1])) }
                #expect(throws: RawCodingError.self) { try codec.decode([UInt8].self, from: codec.encode([-1])) }
                #expect(throws: RawCodingError.self) { try codec.decode([Int8].self, from: codec.encode([300])) }
            }
        },
        PortedCase(.propertyList, "decoderStateThrowOnDecode") { () throws in
            let data = try binary.encode([1, 2, 3])
            guard
                case .second(let numbers) = try binary.decode(JSONEncoderPort.Either<[String], [Int]>.self, from: data)
            else {
                Issue.record("decoded as [String]")
                return
            }
            #expect(numbers == [1, 2, 3])
        },
        PortedCase(.propertyList, "decodeIfPresent") { () throws in
            struct Present: Codable, Equatable {
                var a: Int?
                var b: String?
            }
            try Port.roundTripPropertyList(Present())
            try Port.roundTripPropertyList(Present(a: 1, b: "x"))
        },
        PortedCase(.propertyList, "xmlEncodingRejectsStringsWithEmbeddedNUL") { () throws in
            #expect(throws: RawCodingError.self) { try xml.encode(["a\u{0}b"]) }
            #expect(throws: RawCodingError.self) { try xml.encode(["a\u{0}b": 1]) }
            #expect(try binary.decode([String].self, from: binary.encode(["a\u{0}b"])) == ["a\u{0}b"])
        },
        PortedCase(.propertyList, "multibyteCharacters_escaped_noencoding") { () throws in
            let data = Data(
                "<plist><string>These are copyright signs &#169; &#xA9; blah blah blah.</string></plist>".utf8)
            #expect(try xml.decode(String.self, from: data) == "These are copyright signs © © blah blah blah.")
        },
        PortedCase(.propertyList, "oldStylePlist_dictionary") { () throws in
            struct Values: Decodable {
                let testKey: String
                let testData: Data
                let nestedArray: [String]
                enum CodingKeys: String, CodingKey {
                    case testKey = "test key"
                    case testData
                    case nestedArray = "nested array"
                }
            }
            let text = "{ \"test key\" = value;\n  testData = <feed face>;\n  \"nested array\" = (a, b, c); }"
            let decoded = try xml.decode(Values.self, from: try #require(text.data(using: .utf16)))
            #expect(decoded.testKey == "value")
            #expect(decoded.testData == Data([0xFE, 0xED, 0xFA, 0xCE]))
            #expect(decoded.nestedArray == ["a", "b", "c"])
        },
        PortedCase(.propertyList, "oldStylePlist_stringsFileFormat") { () throws in
            let text = "string1 = \"Good morning\";\nstring2 = \"Good afternoon\";\nstring3 = \"Good evening\";"
            let decoded = try xml.decode([String: String].self, from: try #require(text.data(using: .utf16)))
            #expect(decoded == ["string1": "Good morning", "string2": "Good afternoon", "string3": "Good evening"])
        },
        PortedCase(.propertyList, "oldStylePlist_getSlashedChars_variableSizeWithFollowingCharacters") { () throws in
            let data = Data(#"('\U1z', '\U12z', '\U123z', '\U1234')"#.utf8)
            #expect(try xml.decode([String].self, from: data) == ["\u{1}z", "\u{12}z", "\u{123}z", "\u{1234}"])
        },
        PortedCase(.propertyList, "oldStylePlist_getSlashedChars_unicode_invalid") { () throws in
            for text in [#"'\U"#, #"'\U'"#, #"'\Ux'"#, #"'\Uxx'"#, #"'\Uxxx'"#, #"'\Uxxxx'"#] {
                #expect(fails(String.self, Data(text.utf8)), "\(text)")
            }
        },
        PortedCase(.propertyList, "oldStylePlist_errors") { () throws in
            struct Thing: Decodable { var hello: String }
            let error = #expect(throws: RawCodingError.self) {
                try xml.decode(Thing.self, from: Data("{ hello = there; }\r\nextra stuff at end".utf8))
            }
            #expect(error?.position?.line == 2, "\(String(describing: error))")
        },
        PortedCase(.propertyList, "fauxStability_struct") { () throws in
            let first = try binary.encode(Address())
            for _ in 0..<100 { #expect(try binary.encode(Address()) == first) }
        },
        PortedCase(.propertyList, "fauxStability_dict") { () throws in
            let first = try binary.encode(["a": "a", "z": "z", "n": "n"])
            for _ in 0..<100 { #expect(try binary.encode(["a": "a", "z": "z", "n": "n"]) == first) }
        },
    ]

    // MARK: Kept differences

    static let keptDifferences: [PortedCase] = [
        PortedCase(
            .propertyList, "encodingTopLevelSingleValueEnum",
            .keptDifference("a scalar may be the root of a property list; PropertyListEncoder refuses it")
        ) { () throws in
            #expect(try xml.decode(Switch.self, from: xml.encode(Switch.on)) == .on)
            #expect(throws: (any Error).self) { try PropertyListEncoder().encode(Switch.on) }
        },
        PortedCase(
            .propertyList, "encodingTopLevelSingleValueStruct",
            .keptDifference("a scalar may be the root of a property list; PropertyListEncoder refuses it")
        ) { () throws in
            #expect(
                try binary.decode(Timestamp.self, from: binary.encode(Timestamp(3_141_592_653)))
                    == Timestamp(3_141_592_653))
        },
        PortedCase(
            .propertyList, "encodingTopLevelSingleValueClass",
            .keptDifference("a scalar may be the root of a property list; PropertyListEncoder refuses it")
        ) { () throws in
            #expect(try xml.decode(Counter.self, from: xml.encode(Counter())) == Counter())
        },
        PortedCase(
            .propertyList, "encodingConflictedTypeNestedContainersWithTheSameTopLevelKey",
            .keptDifference(
                "PropertyListEncoder stops the program; every codec throws an EncodingError naming the path")
        ) { () throws in
            struct Model: Encodable {
                enum Keys: String, CodingKey { case top, first }
                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: Keys.self)
                    var first = container.nestedContainer(keyedBy: Keys.self, forKey: .top)
                    try first.encode("x", forKey: .first)
                    var second = container.nestedUnkeyedContainer(forKey: .top)
                    try second.encode("y")
                }
            }
            for codec in [xml, binary] as [any Codec] {
                let error = #expect(throws: RawCodingError.self) { try codec.encode(Model()) }
                #expect(error?.codingPathDescription == "top", "\(codec)")
            }
        },
        PortedCase(
            .propertyList, "badDates",
            .keptDifference(
                "XML dates are proleptic Gregorian, as Core Foundation's own reader and writer: the year before 0000 is refused, not written as swift-foundation's Julian 0000-01-02"
            )
        ) { () throws in
            let date = Date(timeIntervalSinceReferenceDate: -63_145_612_800)
            #expect(try binary.decode([Date].self, from: binary.encode([date])) == [date])
            let error = #expect(throws: RawCodingError.self) { try xml.encode([date]) }
            #expect(error?.codingPathDescription == "[0]")
        },
        PortedCase(
            .propertyList, "badDate_encode",
            .keptDifference(
                "XML dates are proleptic Gregorian, as Core Foundation's own writer (PropertyListSerialization)")
        ) { () throws in
            let date = Date(timeIntervalSinceReferenceDate: -63_145_440_000)
            let text = String(decoding: try xml.encode([date]), as: UTF8.self)
            #expect(text.contains("<date>0000-01-02T00:00:00Z</date>"), "\(text)")
        },
        PortedCase(
            .propertyList, "badDate_decode",
            .keptDifference(
                "XML dates are proleptic Gregorian, as Core Foundation's own reader (PropertyListSerialization)")
        ) { () throws in
            let date = try xml.decode(Date.self, from: document("<date>0000-01-02T00:00:00Z</date>"))
            #expect(date.timeIntervalSinceReferenceDate == -63_145_440_000)
        },
        PortedCase(
            .propertyList, "farFutureDates",
            .keptDifference(
                "XML dates outside the years 0000-9999 are refused with the path; the binary layout holds them")
        ) { () throws in
            let date = Date(timeIntervalSince1970: 999_999_999_999)
            let error = #expect(throws: RawCodingError.self) { try xml.encode([date]) }
            #expect(error?.codingPathDescription == "[0]")
            #expect(try binary.decode([Date].self, from: binary.encode([date])) == [date])
        },
        PortedCase(
            .propertyList, "oldStylePlist_getSlashedChars_literals",
            .keptDifference(
                "OpenStep \\f and \\v are U+000C and U+000B, as in C and in Core Foundation's own reader; swift-foundation's PropertyListDecoder reads U+0012 and U+0011"
            )
        ) { () throws in
            let data = Data(#"('\a', '\b', '\f', '\n', '\r', '\t', '\v', '\"', '\\n')"#.utf8)
            let expected = ["\u{7}", "\u{8}", "\u{C}", "\n", "\r", "\t", "\u{B}", "\"", "\\n"]
            #expect(try xml.decode([String].self, from: data) == expected)
            #expect(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String] == expected)
        },
        PortedCase(.propertyList, "reallyOldDates_5842198") { () throws in
            #expect(throws: Never.self) {
                try xml.decode(Date.self, from: document("<date>0009-09-15T23:16:13Z</date>"))
            }
        },
    ]
}
