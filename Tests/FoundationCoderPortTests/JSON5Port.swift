import Foundation
import RawCoding
import Testing

/// swift-foundation's JSON5 and top-level-dictionary cases of `JSONEncoderTests`, ported onto
/// `JSONCodec(syntax: .json5)` and `assumesTopLevelDictionary`.
enum JSON5Port {
    static let json5 = JSONCodec(syntax: .json5)

    static func reads<Value: Decodable>(_ type: Value.Type, _ text: String, with codec: JSONCodec = json5) -> Value? {
        do {
            return try codec.decode(type, from: Data(text.utf8))
        } catch {
            return nil
        }
    }

    static let cases: [PortedCase] = [
        PortedCase(.json, "json5Numbers") { () throws in
            let integers: [(String, Int)] = [
                ("1", 1), ("11", 11), ("99887766", 99_887_766), ("-1", -1), ("-10", -10), ("0", 0), ("+0", 0),
                ("-0", 0), ("+1", 1), ("+10", 10), ("0x1F", 0x1F), ("0x0000000E", 0xE), ("-0X1f", -0x1F),
                ("+0X1f", 0x1F), ("1.", 1), ("1.e2", 100), ("1e2", 100), ("1E2", 100), ("1e+2", 100), ("1E+2", 100),
                ("1e+02", 100), ("1E+02", 100),
            ]
            for (text, expected) in integers { #expect(reads(Int.self, text) == expected, "\(text)") }
            let doubles: [(String, Double)] = [
                ("1", 1), ("-10", -10), ("+0", 0), ("Infinity", .infinity), ("-Infinity", -.infinity),
                ("+Infinity", .infinity), (".1", 0.1), ("1.", 1), ("-.1", -0.1), ("+.1", 0.1), ("1e-2", 1e-2),
                ("1E-02", 1e-2), ("1e+02", 1e2), ("0x1F", 31), ("-0X1f", -31), ("+0X1f", 31),
            ]
            for (text, expected) in doubles { #expect(reads(Double.self, text) == expected, "\(text)") }
            for text in ["NaN", "-NaN", "+NaN"] { #expect(reads(Double.self, text)?.isNaN == true, "\(text)") }
            let badIntegers = [
                "-", "+", "-a", "+a", "-0x", "+0x", "-0x ", "+0x ", "-0xAFFFFFAFFFFFAFFFFFAFFFFFAFFFFFAFFFFF",
                "0xABC.DEF",
                "0xABCpD", "1e", "1E", "1e ", "1E ", "+1e ", "+1e", "-1e ", "-1E ",
            ]
            for text in badIntegers { #expect(reads(Int.self, text) == nil, "\(text)") }
            let badDoubles = [
                "-Inf", "-Inf       ", "+Inf", "+Na", "-Na    ", "-infinity", "+infinity       ", "+NAN", "-NA",
                "-NAN    ",
                "0x2.", "0x2.2", ".e1", "0xFFFFFFFFFFFFFFFFFFFFFF",
            ]
            for text in badDoubles { #expect(reads(Double.self, text) == nil, "\(text)") }
        },
        PortedCase(.json, "json5Null") { () throws in
            #expect(try json5.readTree(from: Data("null".utf8)) == .null)
            for text in ["Null", "nul", "nu", "n", "n    ", "nu   "] {
                #expect(throws: RawCodingError.self, "\(text)") { try json5.readTree(from: Data(text.utf8)) }
            }
        },
        PortedCase(.json, "json5EsotericErrors") { () throws in
            for text in ["[", "[ ", "[\n\n", "['hi',", "['hi', ", "['hi',\n"] {
                #expect(reads([String].self, text) == nil, "\(text)")
            }
            for text in ["{", "{ ", "{k ", "{k :", "{k : ", "{k : true", "{k : true ", "{k : true\n\n", "{k : true   "]
            {
                #expect(reads([String: Bool].self, text) == nil, "\(text)")
            }
            for bytes: [UInt8] in [[0x7B, 0x80], [0x7B, 0xC0], [0x7B, 0xE0, 0x80], [0x7B, 0xF0, 0x80, 0x80]] {
                #expect(throws: RawCodingError.self) { try json5.decode([String: Bool].self, from: Data(bytes)) }
            }
        },
        PortedCase(.json, "json5Strings") { () throws in
            let trues = [
                "{v\n : true}", "{v \n : true}", "{ v \n : true,\nv\n:true,}", "{v\r : true}",
                "{ v \r : true,\rv\r:true,}",
                "{v\r\n : true}", "{ v \r\n : true,\r\nv\r\n:true,}", "{v// comment \n : true}",
                "{v/* comment*/ \n : true}",
                "{v/* comment */:/*comment*/\ntrue}", "{v// comment \r : true}", "{v/* comment */:/*comment*/\rtrue}",
                "{v// comment \r\n : true}", "{v/* comment */:/*comment*/\r\ntrue}",
                "// start with a comment\r\n{v:true}",
            ]
            for text in trues { #expect(reads([String: Bool].self, text) == ["v": true], "\(text.debugDescription)") }
            let strings: [(String, String?)] = [
                (#"{v : "hi\x20there"}"#, "hi there"), (#"{v : "hi\xthere"}"#, nil), (#"{v : "hi\x2there"}"#, nil),
                (#"{v : "hi\0there"}"#, nil), (#"{v : "hi\x00there"}"#, nil), (#"{v : "hi\u0000there"}"#, nil),
                (#"{v:"hello\uA"}"#, nil), (#"{v:"hello\uA   "}"#, nil),
            ]
            for (text, expected) in strings { #expect(reads([String: String].self, text)?["v"] == expected, "\(text)") }
        },
        PortedCase(.json, "json5AssumedDictionary") { () throws in
            let codec = JSONCodec(syntax: .json5, assumesTopLevelDictionary: true)
            let cases: [(String, [String: String]?)] = [
                (#"hello: "world""#, ["hello": "world"]), (#"{hello: "world"}"#, ["hello": "world"]),
                (#"hello: "world", goodbye: "42""#, ["hello": "world", "goodbye": "42"]),
                (#"hello: "world","#, ["hello": "world"]), (#"hello: "world"   "#, ["hello": "world"]),
                (#"hello: "world",  "#, ["hello": "world"]), (#"hello: "world"  ,  "#, ["hello": "world"]),
                (#"   hello   : "world"   "#, ["hello": "world"]), (#"{hello: "world""#, nil),
                (#"hello: "world"}"#, nil),
                (#"hello: "world" x "#, nil), (#"hello: "world"x"#, nil), ("", [:]), (" ", [:]), ("{ }", [:]),
                ("{}", [:]), (",", nil), (" , ", nil), (", ", nil), ("   ,", nil),
            ]
            for (text, expected) in cases {
                #expect(reads([String: String].self, text, with: codec) == expected, "\(text.debugDescription)")
            }
        },
        PortedCase(.json, "assumesTopLevelDictionary") { () throws in
            let codec = JSONCodec(assumesTopLevelDictionary: true)
            #expect(reads([String: Int].self, #""x" : 42"#, with: codec) == ["x": 42])
            #expect(reads([String: Int].self, #"{"x" : 42}"#, with: codec) == ["x": 42])
            #expect(reads([String: Int].self, "", with: codec) == [:])
            #expect(reads([String: Int].self, #""x" : 42}"#, with: codec) == nil)
            #expect(reads([String: Int].self, #"{"x" : 42"#, with: codec) == nil)
        },
        PortedCase(.json, "assumesTopLevelDictionaryTrailingNumber") { () throws in
            let codec = JSONCodec(assumesTopLevelDictionary: true)
            #expect(reads([String: Int].self, #""x" : 42"#, with: codec) == ["x": 42])
            #expect(reads([String: Double].self, #""x" : 1.5"#, with: codec) == ["x": 1.5])
            let json5 = JSONCodec(syntax: .json5, assumesTopLevelDictionary: true)
            #expect(reads([String: Double].self, #""x" : 1."#, with: json5) == ["x": 1])
        },
    ]

    /// The cases that read swift-foundation's JSON5 resources.
    static let peerCases: [PortedCase] = [
        PortedCase(.json, "json5PassJSONFiles") { () throws in
            for name in ["example", "hex", "numbers", "strings", "whitespace"] {
                let tree = try json5.readTree(from: PeerResources.data("JSON5/pass/\(name).json5"))
                guard case .dictionary(let dictionary) = tree, !dictionary.isEmpty else {
                    Issue.record("\(name): \(tree)")
                    continue
                }
                if name != "example" {
                    // Every number and string the expected property list holds, the same.
                    let expected = try PropertyListCodec(format: .xml).readTree(
                        from: PeerResources.data("JSON5/pass/\(name).plist"))
                    #expect(Self.sameNumbersAndText(tree, expected), "\(name): \(tree) vs \(expected)")
                }
            }
        },
        PortedCase(
            .json, "json5Spec",
            .keptDifference("trailing-comma-array is JSON5, not JSON: plain JSON refuses trailing commas")
        ) { () throws in
            let folder = try #require(PeerResources.folder).appendingPathComponent("JSON5/spec")
            let strict = JSONCodec()
            for group in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
                let groupFolder = folder.appendingPathComponent(group)
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: groupFolder.path, isDirectory: &isFolder),
                    isFolder.boolValue
                else { continue }
                for file in try FileManager.default.contentsOfDirectory(atPath: groupFolder.path).sorted() {
                    let data = try Data(contentsOf: groupFolder.appendingPathComponent(file))
                    let name = "\(group)/\(file)"
                    switch (file as NSString).pathExtension {
                    case "json":
                        #expect(throws: Never.self, "\(name)") { try strict.readTree(from: data) }
                        #expect(throws: Never.self, "\(name)") { try json5.readTree(from: data) }
                    case "json5":
                        #expect(throws: Never.self, "\(name)") { try json5.readTree(from: data) }
                        #expect(throws: RawCodingError.self, "\(name) is not JSON") { try strict.readTree(from: data) }
                    case "js", "txt":
                        #expect(throws: RawCodingError.self, "\(name)") { try json5.readTree(from: data) }
                    default:
                        continue
                    }
                }
            }
        },
    ]

    /// Whether two trees hold the same structure, strings and numbers (integers and doubles
    /// compared by value, as a JSON number and a property list's integer or real are).
    static func sameNumbersAndText(_ lhs: StoredValue, _ rhs: StoredValue) -> Bool {
        switch (lhs, rhs) {
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { sameNumbersAndText($0, $1) }
        case (.dictionary(let a), .dictionary(let b)):
            return a.count == b.count
                && a.allSatisfy { entry in b[entry.key].map { sameNumbersAndText(entry.value, $0) } ?? false }
        default:
            if let x = number(lhs), let y = number(rhs) { return x == y || (x.isNaN && y.isNaN) }
            return lhs == rhs
        }
    }

    static func number(_ value: StoredValue) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .uint(let number): Double(number)
        case .double(let number): number
        case .decimal(let number): NSDecimalNumber(decimal: number).doubleValue
        default: nil
        }
    }
}
