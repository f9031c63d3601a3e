import Foundation
import RawCoding
import Testing

/// The ported cases that read swift-foundation's resource files from `../shared/peer-suites`.
enum PeerCases {
    static let all: [PortedCase] =
        JSON5Port.peerCases + [
            PortedCase(.json, "jsonPassTests") { () throws in
                // pass1 in five encodings, pass2 to pass15: each reads, and reads the same in every encoding.
                let pass1 = try JSONCodec().readTree(from: PeerResources.data("JSON/pass/pass1-utf8.json"))
                for encoding in ["utf16be", "utf16le", "utf32be", "utf32le"] {
                    let data = try PeerResources.data("JSON/pass/pass1-\(encoding).json")
                    #expect(try JSONCodec().readTree(from: data) == pass1, "\(encoding)")
                }
                for number in 2...15 {
                    let data = try PeerResources.data("JSON/pass/pass\(number).json")
                    #expect(throws: Never.self, "pass\(number)") { try JSONCodec().readTree(from: data) }
                }
            },
            PortedCase(.json, "jsonFailTests") { () throws in
                // Each file decoded as the suite's type for it, assuming a top-level dictionary as the
                // suite does: every one fails (fail1, a string, is not a dictionary's members).
                let codec = JSONCodec(assumesTopLevelDictionary: true)
                let types: [Int: any Decodable.Type] = [
                    1: String.self, 3: [String: String].self, 10: [String: Bool].self, 11: [String: Int].self,
                    12: [String: String].self, 13: [String: Int].self, 14: [String: Int].self,
                    19: [String: String?].self, 21: [String: String?].self, 29: [Float].self, 30: [Float].self,
                    31: [Float].self, 32: [String: Bool].self, 35: [String: String].self, 36: [String: Int].self,
                    37: [String: Int].self, 38: [String: Float].self, 39: [String: String].self,
                    40: [String: String].self, 41: [String: String].self,
                ]
                for number in [Int](1...19) + [Int](21...41) {
                    let data = try PeerResources.data("JSON/fail/fail\(number).json")
                    let type = types[number] ?? [String].self
                    let failed: Bool
                    do {
                        _ = try codec.decode(type, from: data)
                        failed = false
                    } catch {
                        failed = true
                    }
                    #expect(failed, "fail\(number) as \(type)")
                }
            },
            PortedCase(.propertyList, "genericProperties_XML") { () throws in
                let tree = try PropertyListCodec(format: .xml).readTree(
                    from: PeerResources.data("Generic_XML_Properties.plist"))
                guard case .dictionary(let dictionary) = tree else {
                    Issue.record("not a dictionary: \(tree)")
                    return
                }
                #expect(!dictionary.isEmpty)
                let foundation = try PropertyListSerialization.propertyList(
                    from: PeerResources.data("Generic_XML_Properties.plist"), format: nil)
                #expect(try StoredValue(propertyList: foundation) == tree)
            },
            PortedCase(.propertyList, "xmlErrors") { () throws in
                let original = String(decoding: try PeerResources.data("Generic_XML_Properties.plist"), as: UTF8.self)
                let xml = PropertyListCodec(format: .xml)
                #expect(try xml.decode(GenericProperties.self, from: Data(original.utf8)) == GenericProperties())
                #expect(throws: RawCodingError.self) { try xml.decode(GenericProperties.self, from: Data()) }
                let endOfPublicID = try #require(original.range(of: "//EN")).lowerBound
                let broken: [String: String] = [
                    "Deleted leading <": String(original.dropFirst()),
                    "Unterminated comment": original.replacingOccurrences(
                        of: "<dict>", with: "<-- unending comment\n<dict>"),
                    "Mess with DOCTYPE": original.replacingOccurrences(of: "DOCTYPE", with: "foobar"),
                    "Early EOF": String(original[..<endOfPublicID]),
                    "MalformedDTD": original.replacingOccurrences(of: "<!DOCTYPE", with: "<?DOCTYPE"),
                    "Mismatched close tag": original.replacingOccurrences(of: "</array>", with: "</somethingelse>"),
                    "Bad open tag": original.replacingOccurrences(of: "<array>", with: "<invalidtag>"),
                    "Extra plist object": original.replacingOccurrences(
                        of: "</plist>", with: "<string>hello</string>\n</plist>"),
                    "Non-key inside dict": original.replacingOccurrences(
                        of: "<key>array1</key>", with: "<string>hello</string>\n<key>array1</key>"),
                    "Missing value for key": original.replacingOccurrences(of: "<string>value1</string>", with: ""),
                    "Malformed real tag": original.replacingOccurrences(
                        of: "<integer>42</integer>", with: "<real>abc123</real>"),
                    "Empty int tag": original.replacingOccurrences(
                        of: "<integer>42</integer>", with: "<integer></integer>"),
                    "Strange int tag": original.replacingOccurrences(
                        of: "<integer>42</integer>", with: "<integer>42q</integer>"),
                    "Hex digit in non-hex int": original.replacingOccurrences(
                        of: "<integer>42</integer>", with: "<integer>42A</integer>"),
                    "Enormous int": original.replacingOccurrences(
                        of: "<integer>42</integer>",
                        with: "<integer>99999999999999999999999999999999999999999</integer>"),
                    "Empty plist": "<plist></plist>",
                    "Empty date": original.replacingOccurrences(
                        of: "<date>1976-04-01T12:00:00Z</date>", with: "<date></date>"),
                    "Empty real": original.replacingOccurrences(of: "<integer>42</integer>", with: "<real></real>"),
                    "Fake inline DTD": original.replacingOccurrences(
                        of: #"PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd""#,
                        with: "[<!ELEMENT foo (#PCDATA)>]"),
                ]
                for (name, text) in broken.sorted(by: { $0.key < $1.key }) {
                    #expect(text != original, "\(name) changed nothing")
                    #expect(throws: RawCodingError.self, "\(name)") {
                        try xml.decode(GenericProperties.self, from: Data(text.utf8))
                    }
                }
            },
            PortedCase(.propertyList, "genericProperties_binary") { () throws in
                let binary = try PropertyListCodec(format: .binary).readTree(
                    from: PeerResources.data("Generic_XML_Properties_Binary.plist"))
                let xml = try PropertyListCodec(format: .xml).readTree(
                    from: PeerResources.data("Generic_XML_Properties.plist"))
                #expect(binary == xml)
            },
            PortedCase(.propertyList, "issue5877417") { () throws in
                var data = try PeerResources.data("Generic_XML_Properties_Binary.plist")
                data[7] = UInt8(ascii: "x")
                #expect(throws: Never.self) { try PropertyListCodec(format: .binary).readTree(from: data) }
            },
            PortedCase(.propertyList, "plistWithBadUTF8") { () throws in
                #expect(throws: RawCodingError.self) {
                    try PropertyListCodec(format: .xml).decode([String].self, from: PeerResources.data("bad_plist.bad"))
                }
            },
            PortedCase(.propertyList, "oldStylePlist_getSlashedChars_octal") { () throws in
                let xml = PropertyListCodec(format: .xml)
                let actual = try xml.decode(
                    [String].self, from: PeerResources.data("test_oldStylePlist_getSlashedChars_octal.plist"))
                let expected = try xml.decode(
                    [String].self, from: PeerResources.data("test_oldStylePlist_getSlashedChars_octal_expected.plist"))
                #expect(actual == expected)
            },
            PortedCase(.propertyList, "oldStylePlist_getSlashedChars_unicode") { () throws in
                let xml = PropertyListCodec(format: .xml)
                let actual = try xml.decode(
                    [String].self, from: PeerResources.data("test_oldStylePlist_getSlashedChars_unicode.plist"))
                let expected = try xml.decode(
                    [String].self, from: PeerResources.data("test_oldStylePlist_getSlashedChars_unicode_expected.plist")
                )
                #expect(actual == expected)
            },
            PortedCase(.propertyList, "issue5616259") { () throws in
                // The document declares encoding="foobar": refused for that, not only for its type.
                let data = try PeerResources.data("Test_5616259.bad")
                #expect(throws: RawCodingError.self) {
                    try PropertyListCodec(format: .xml).decode([String].self, from: data)
                }
                let error = #expect(throws: RawCodingError.self) {
                    try PropertyListCodec(format: .xml).readTree(from: data)
                }
                #expect(error?.reason.contains("\"foobar\"") == true, "\(String(describing: error))")
            },
            PortedCase(.propertyList, "invalidNSDataKey_82142612") { () throws in
                #expect(throws: RawCodingError.self) {
                    try PropertyListCodec(format: .binary).readTree(from: PeerResources.data("Test_82142612.bad"))
                }
            },
        ]
}

/// The values of swift-foundation's `Generic_XML_Properties.plist`, read as its suite reads them.
struct GenericProperties: Decodable, Equatable {
    var array1: [String] = ["arr0", "42", "false", "1976-04-01T12:00:00Z", "qrvM3QARIjM="]
    var item1 = "value1"
    var item2 = "value2"

    enum CodingKeys: String, CodingKey { case array1, item1, item2 }

    init() {}

    init(from decoder: any Decoder) throws {
        let keyed = try decoder.container(keyedBy: CodingKeys.self)
        var array = try keyed.nestedUnkeyedContainer(forKey: .array1)
        let first = try array.decode(String.self)
        let number = try array.decode(Int.self)
        let flag = try array.decode(Bool.self)
        let date = try array.decode(Date.self)
        let data = try array.decode(Data.self)
        // 1976-04-01T12:00:00Z and the bytes the file's base64 holds.
        guard date == Date(timeIntervalSinceReferenceDate: -781_099_200),
            data == Data([0xaa, 0xbb, 0xcc, 0xdd, 0x00, 0x11, 0x22, 0x33])
        else {
            throw DecodingError.dataCorrupted(.init(codingPath: array.codingPath, debugDescription: "\(date) \(data)"))
        }
        array1 = [first, "\(number)", "\(flag)", "1976-04-01T12:00:00Z", "qrvM3QARIjM="]
        item1 = try keyed.decode(String.self, forKey: .item1)
        item2 = try keyed.decode(String.self, forKey: .item2)
    }
}
