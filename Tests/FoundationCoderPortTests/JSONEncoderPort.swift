import Foundation
import RawCoding
import Testing

/// swift-foundation's `JSONEncoderTests`, ported onto `JSONCodec` and the engine.
enum JSONEncoderPort {
    static let codec = JSONCodec()

    static func fails<Value: Decodable>(_ type: Value.Type, _ text: String) -> Bool {
        fails(type, Data(text.utf8))
    }

    static func fails<Value: Decodable>(_ type: Value.Type, _ data: Data) -> Bool {
        do {
            _ = try codec.decode(type, from: data)
            return false
        } catch {
            return true
        }
    }

    static let cases: [PortedCase] =
        topLevel + strategies + containers + text + numbers + failures + keyConversionAndState + keptDifferences

    // MARK: Top-level values

    static let topLevel: [PortedCase] = [
        PortedCase(.json, "encodingTopLevelEmptyStruct") { () throws in
            try Port.roundTrip(EmptyStruct(), expected: "{}")
        },
        PortedCase(.json, "encodingTopLevelEmptyClass") { () throws in try Port.roundTrip(EmptyClass(), expected: "{}")
        },
        PortedCase(.json, "encodingTopLevelSingleValueEnum") { () throws in
            try Port.roundTrip(Switch.off, expected: "false")
            try Port.roundTrip(Switch.on, expected: "true")
        },
        PortedCase(.json, "encodingTopLevelSingleValueStruct") { () throws in
            try Port.roundTrip(Timestamp(3_141_592_653), expected: "3141592653")
        },
        PortedCase(.json, "encodingTopLevelSingleValueClass") { () throws in
            try Port.roundTrip(Counter(), expected: "42")
        },
        PortedCase(.json, "encodingTopLevelStructuredStruct") { () throws in try Port.roundTrip(Address()) },
        PortedCase(.json, "encodingTopLevelStructuredClass") { () throws in
            try Port.roundTrip(Person(), expected: #"{"email":"appleseed@apple.com","name":"Johnny Appleseed"}"#)
        },
        PortedCase(.json, "encodingTopLevelStructuredSingleStruct") { () throws in
            try Port.roundTrip(Numbers(), expected: "[4,8,15,16,23,42]")
        },
        PortedCase(.json, "encodingTopLevelStructuredSingleClass") { () throws in
            try Port.roundTrip(Mapping(), expected: #"{"Apple":42,"localhost":127}"#)
        },
        PortedCase(.json, "encodingTopLevelDeepStructuredType") { () throws in try Port.roundTrip(Company()) },
        PortedCase(.json, "encodingClassWhichSharesEncoderWithSuper") { () throws in try Port.roundTrip(Employee()) },
        PortedCase(.json, "encodingTopLevelNullableType") { () throws in
            try Port.roundTrip(EnhancedBool.true, expected: "true")
            try Port.roundTrip(EnhancedBool.false, expected: "false")
            try Port.roundTrip(EnhancedBool.fileNotFound, expected: "null")
        },
        PortedCase(.json, "encodingTopLevelArrayOfInt") { () throws in
            #expect(try codec.encodeToString([1, 2, 3]) == "[1,2,3]")
            #expect(try codec.encodeToString([Int]()) == "[]")
        },
        PortedCase(.json, "encodingTopLevelWithConfiguration") { () throws in
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
            let value = ConfiguredNumber(number: 3)
            let withValue = try codec.encode(value, configuration: .init(offset: 1))
            #expect(String(decoding: withValue, as: UTF8.self) == "4")
            #expect(try codec.decode(ConfiguredNumber.self, from: withValue, configuration: .init(offset: 1)) == value)
            let withProvider = try codec.encode(value, configuration: ConfiguredNumber.Provider.self)
            #expect(String(decoding: withProvider, as: UTF8.self) == "5")
            #expect(
                try codec.decode(
                    ConfiguredNumber.self, from: withProvider, configuration: ConfiguredNumber.Provider.self)
                    == value)
        },
        PortedCase(.json, "decodingConcreteTypeParameter") { () throws in
            let data = try codec.encode(Employee())
            let decoded = try codec.decode(Employee.self as Person.Type, from: data)
            #expect(type(of: decoded) == Employee.self)
        },
        PortedCase(.json, "typeEncodesNothing") { () throws in
            struct EncodesNothing: Encodable {
                func encode(to encoder: any Encoder) throws {}
            }
            #expect(throws: RawCodingError.self) { try codec.encode(EncodesNothing()) }
            #expect(try codec.encodeToString([EncodesNothing()]) == "[{}]")
            #expect(try codec.encodeToString(["test": EncodesNothing()]) == #"{"test":{}}"#)
        },
    ]

    // MARK: Date, data, key and number strategies

    static let strategies: [PortedCase] = [
        PortedCase(.json, "encodingDateSecondsSince1970") { () throws in
            let codec = JSONCodec(dates: .secondsSince1970)
            try Port.roundTrip(Date(timeIntervalSince1970: 1000), codec: codec, expected: "1000", foundation: nil)
            try Port.roundTrip(
                Optional(Date(timeIntervalSince1970: 1000)), codec: codec, expected: "1000", foundation: nil)
        },
        PortedCase(.json, "encodingDateMillisecondsSince1970") { () throws in
            let text = try Port.engineJSON(Date(timeIntervalSince1970: 1000)) { $0.dates = .millisecondsSince1970 }
            #expect(text == "1000000")
            var decoder = StoredValueDecoder()
            decoder.dates = .millisecondsSince1970
            #expect(try decoder.decode(Date.self, from: .int(1_000_000)) == Date(timeIntervalSince1970: 1000))
        },
        PortedCase(.json, "encodingDateISO8601") { () throws in
            let codec = JSONCodec(dates: .iso8601)
            let date = Date(timeIntervalSince1970: 1000)
            try Port.roundTrip(date, codec: codec, expected: #""1970-01-01T00:16:40Z""#, foundation: nil)
            try Port.roundTrip([date], codec: codec, expected: #"["1970-01-01T00:16:40Z"]"#, foundation: nil)
        },
        PortedCase(.json, "encodingDateFormatted") { () throws in
            let formatter = DateFormatter()
            formatter.dateStyle = .full
            formatter.timeStyle = .full
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            let codec = JSONCodec(dates: .formatted(formatter))
            let date = Date(timeIntervalSince1970: 1000)
            let expected = "\"\(formatter.string(from: date))\""
            try Port.roundTrip(date, codec: codec, expected: expected, foundation: nil)
            try Port.roundTrip([date], codec: codec, expected: "[\(expected)]", foundation: nil)
        },
        PortedCase(.json, "encodingDateCustom") { () throws in
            let text = try Port.engineJSON(Date(timeIntervalSince1970: 1000)) {
                $0.dates = .custom { _, encoder in
                    var container = encoder.singleValueContainer()
                    try container.encode(42)
                }
            }
            #expect(text == "42")
        },
        PortedCase(.json, "encodingDateCustomEmpty") { () throws in
            let text = try Port.engineJSON(Date(timeIntervalSince1970: 1000)) { $0.dates = .custom { _, _ in } }
            #expect(text == "{}")
        },
        PortedCase(.json, "encodingData") { () throws in
            let codec = JSONCodec(data: .byteArray)
            let data = Data([0xDE, 0xAD, 0xBE, 0xEF])
            try Port.roundTrip(data, codec: codec, expected: "[222,173,190,239]", foundation: nil)
            try Port.roundTrip(Optional(data), codec: codec, expected: "[222,173,190,239]", foundation: nil)
        },
        PortedCase(.json, "encodingDataBase64") { () throws in
            try Port.roundTrip(Data([0xDE, 0xAD, 0xBE, 0xEF]), expected: #""3q2+7w==""#)
        },
        PortedCase(.json, "encodingDataCustom") { () throws in
            let text = try Port.engineJSON(Data([0xDE, 0xAD])) {
                $0.data = .custom { _, encoder in
                    var container = encoder.singleValueContainer()
                    try container.encode(42)
                }
            }
            #expect(text == "42")
        },
        PortedCase(.json, "encodingDataCustomEmpty") { () throws in
            #expect(try Port.engineJSON(Data([0xDE, 0xAD])) { $0.data = .custom { _, _ in } } == "{}")
        },
        PortedCase(.json, "encodingNonConformingFloats") { () throws in
            let codec = JSONCodec(nonFiniteNumbers: .throw)
            for value in [Double.infinity, -.infinity, .nan] {
                #expect(throws: RawCodingError.self) { try codec.encode(value) }
                #expect(throws: RawCodingError.self) { try codec.encode(Float(value)) }
                #expect(throws: RawCodingError.self) { try codec.encode(Optional(value)) }
            }
        },
        PortedCase(.json, "encodingNonConformingFloatStrings") { () throws in
            let codec = JSONCodec(
                nonFiniteNumbers: .strings(positiveInfinity: "INF", negativeInfinity: "-INF", nan: "NaN"))
            #expect(try codec.encodeToString([Double.infinity, -.infinity]) == #"["INF","-INF"]"#)
            #expect(try codec.decode([Float].self, from: #"["INF","-INF"]"#) == [.infinity, -.infinity])
            #expect(try codec.decode(Double.self, from: #""NaN""#).isNaN)
        },
        PortedCase(.json, "encodingKeyStrategySnake") { () throws in
            struct Keys: Codable, Equatable {
                var oneTwo = 1
                var helloWorldAgain = 2
                var a = 3
                var camelCase2Keys = 4
            }
            let codec = JSONCodec(keys: .snakeCase)
            let text = try codec.encodeToString(Keys())
            #expect(text == #"{"a":3,"camel_case2_keys":4,"hello_world_again":2,"one_two":1}"#)
            #expect(try codec.decode(Keys.self, from: text) == Keys())
        },
        PortedCase(.json, "encodingKeyStrategyCustom") { () throws in
            struct Keys: Encodable { var a = 1 }
            let text = try Port.engineJSON(Keys()) {
                $0.keys = .custom { path in StoredCodingKeyForPort(path.last!.stringValue + "_suffix") }
            }
            #expect(text == #"{"a_suffix":1}"#)
        },
        PortedCase(.json, "encodingDictionaryStringKeyConversionUntouched") { () throws in
            let codec = JSONCodec(keys: .snakeCase)
            #expect(try codec.encodeToString(["leaveMeAlone": "test"]) == #"{"leaveMeAlone":"test"}"#)
            #expect(
                try codec.decode([String: String].self, from: #"{"leave_me_alone":"x"}"#) == ["leave_me_alone": "x"])
        },
        PortedCase(.json, "infiniteDate") { () throws in
            let date = Date(timeIntervalSince1970: .infinity)
            for codec in [JSONCodec(), JSONCodec(dates: .secondsSince1970), JSONCodec(dates: .iso8601)] {
                #expect(throws: RawCodingError.self, "\(codec.dates)") { try codec.encode([date]) }
            }
        },
    ]

    // MARK: Containers

    struct Nested: Encodable {
        var foo = "Test"
    }

    static let containers: [PortedCase] = [
        PortedCase(.json, "encodingMultipleNestedContainersWithTheSameTopLevelKey") { () throws in
            struct Model: Encodable {
                enum Top: String, CodingKey { case top }
                enum First: String, CodingKey { case first }
                enum Second: String, CodingKey { case second }
                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: Top.self)
                    var first = container.nestedContainer(keyedBy: First.self, forKey: .top)
                    try first.encode("Johnny Appleseed", forKey: .first)
                    var second = container.nestedContainer(keyedBy: Second.self, forKey: .top)
                    try second.encode("appleseed@apple.com", forKey: .second)
                }
            }
            #expect(
                try codec.encodeToString(Model())
                    == #"{"top":{"first":"Johnny Appleseed","second":"appleseed@apple.com"}}"#)
        },
        PortedCase(.json, "redundantKeyedContainer") { () throws in
            struct EncodesTwice: Encodable {
                enum Keys: String, CodingKey { case container, somethingElse }
                func encode(to encoder: any Encoder) throws {
                    var top = encoder.container(keyedBy: Keys.self)
                    try top.encode("Foo", forKey: .somethingElse)
                    try top.encode(Nested(), forKey: .container)
                    var again = top.nestedContainer(keyedBy: Keys.self, forKey: .container)
                    try again.encode("SecondAgain", forKey: .somethingElse)
                }
            }
            #expect(
                try codec.encodeToString(EncodesTwice())
                    == #"{"container":{"foo":"Test","somethingElse":"SecondAgain"},"somethingElse":"Foo"}"#)
        },
        PortedCase(.json, "singleValueDictionaryAmendedByContainer") { () throws in
            struct Amended: Encodable {
                enum Keys: String, CodingKey { case a }
                func encode(to encoder: any Encoder) throws {
                    var single = encoder.singleValueContainer()
                    try single.encode(["a": "b", "other": "foo"])
                    var keyed = encoder.container(keyedBy: Keys.self)
                    try keyed.encode("c", forKey: .a)
                }
            }
            #expect(try codec.encodeToString(Amended()) == #"{"a":"c","other":"foo"}"#)
        },
        PortedCase(.json, "superEncoders") { () throws in
            struct SuperEncoding: Encodable {
                enum Keys: String, CodingKey { case firstSuper, secondSuper, unkeyed, direct }
                func encode(to encoder: any Encoder) throws {
                    var keyed = encoder.container(keyedBy: Keys.self)
                    var first = keyed.superEncoder(forKey: .firstSuper).singleValueContainer()
                    var second = keyed.superEncoder(forKey: .secondSuper).singleValueContainer()
                    try first.encode("First")
                    try second.encode("Second")
                    var unkeyed = keyed.nestedUnkeyedContainer(forKey: .unkeyed)
                    try unkeyed.encode(0)
                    let unkeyedFirst = unkeyed.superEncoder()
                    let unkeyedSecond = unkeyed.superEncoder()
                    try unkeyed.encode(42)
                    var one = unkeyedFirst.singleValueContainer()
                    var two = unkeyedSecond.singleValueContainer()
                    try one.encode("First")
                    try two.encode("Second")
                    try ["direct": "super"].encode(to: keyed.superEncoder(forKey: .direct))
                }
            }
            let text = try codec.encodeToString(SuperEncoding())
            for part in [
                #""firstSuper":"First""#, #""secondSuper":"Second""#, #"[0,"First","Second",42]"#,
                #"{"direct":"super"}"#,
            ] {
                #expect(text.contains(part), "\(text)")
            }
        },
        PortedCase(.json, "redundantKeys") { () throws in
            struct Redundant: Encodable {
                enum Keys: String, CodingKey { case key }
                let replaced: Int
                let useSuperEncoder: Bool
                func encode(to encoder: any Encoder) throws {
                    var keyed = encoder.container(keyedBy: Keys.self)
                    switch replaced {
                    case 0: try keyed.encode(0, forKey: .key)
                    case 1: _ = keyed.nestedContainer(keyedBy: Keys.self, forKey: .key)
                    default: _ = keyed.nestedUnkeyedContainer(forKey: .key)
                    }
                    if useSuperEncoder {
                        var single = keyed.superEncoder(forKey: .key).singleValueContainer()
                        try single.encode(42)
                    } else {
                        try keyed.encode(42, forKey: .key)
                    }
                }
            }
            for replaced in 0..<3 {
                for useSuperEncoder in [false, true] {
                    let value = Redundant(replaced: replaced, useSuperEncoder: useSuperEncoder)
                    #expect(try codec.encodeToString(value) == #"{"key":42}"#, "\(replaced) \(useSuperEncoder)")
                }
            }
        },
        PortedCase(.json, "nestedContainerCodingPaths") { () throws in
            let seen = PathsSeen()
            _ = try codec.encode(PathRecorder(seen: seen, useSuperEncoder: false))
            #expect(seen.paths == ["", "top", "top.0", "top.0.inner"], "\(seen.paths)")
        },
        PortedCase(.json, "superEncoderCodingPaths") { () throws in
            let seen = PathsSeen()
            _ = try codec.encode(PathRecorder(seen: seen, useSuperEncoder: true))
            #expect(seen.paths == ["", "top", "top.0", "top.0.inner"], "\(seen.paths)")
        },
        PortedCase(.json, "SR17581_codingEmptyDictionaryWithNonstringKeyDoesRoundtrip") { () throws in
            struct Something: Codable, Equatable {
                struct Key: Codable, Hashable { var x: String }
                var dict: [Key: String]
            }
            try Port.roundTrip(Something(dict: [:]))
        },
        PortedCase(.json, "decodeIfPresent") { () throws in
            struct Present: Codable, Equatable {
                var a: Int?
                var b: String?
                var c: [Int]?
            }
            try Port.roundTrip(Present(), expected: "{}")
            #expect(try codec.decode(Present.self, from: #"{"a":null,"b":"x"}"#) == Present(a: nil, b: "x"))
        },
        PortedCase(.json, "valueNotFoundError") { () throws in
            struct ValueNotFound: Decodable {
                let a: Bool
                let nope: String?
                enum Keys: String, CodingKey { case a, nope }
                init(from decoder: any Decoder) throws {
                    let keyed = try decoder.container(keyedBy: Keys.self)
                    a = try keyed.decode(Bool.self, forKey: .a)
                    do {
                        nope = try keyed.superDecoder(forKey: .nope).singleValueContainer().decode(String.self)
                    } catch DecodingError.valueNotFound {
                        nope = nil
                    }
                }
            }
            let decoded = try codec.decode(ValueNotFound.self, from: #"{"a":true}"#)
            #expect(decoded.a && decoded.nope == nil)
        },
        PortedCase(.json, "repeatedFailedNilChecks") { () throws in
            struct RepeatNilCheck: Decodable {
                init(from decoder: any Decoder) throws {
                    var unkeyed = try decoder.unkeyedContainer()
                    #expect(try !unkeyed.decodeNil())
                    #expect(try !unkeyed.decodeNil())
                    #expect(try unkeyed.decode(Int.self) == 1)
                    #expect(try unkeyed.decodeNil())
                    #expect(unkeyed.isAtEnd)
                }
            }
            _ = try codec.decode(RepeatNilCheck.self, from: "[1,null]")
        },
    ]

    // MARK: Text

    static let text: [PortedCase] = [
        PortedCase(.json, "invalidFragment") { () throws in
            struct DecodeFailure: Decodable { var foo: String }
            #expect(fails(DecodeFailure.self, "\"foo"))
        },
        PortedCase(.json, "whitespaceOnlyData") { () throws in #expect(fails(Int.self, " ")) },
        PortedCase(.json, "nullByte") { () throws in
            let string = "abc\u{0}def"
            #expect(try codec.decode([String].self, from: codec.encode([string])) == [string])
            #expect(try codec.decode([String: String].self, from: codec.encode([string: string])) == [string: string])
        },
        PortedCase(.json, "jsonControlCharacters") { () throws in
            let escapes = [
                "\\u0000", "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005", "\\u0006", "\\u0007", "\\b", "\\t",
                "\\n", "\\u000b", "\\f", "\\r", "\\u000e", "\\u000f", "\\u0010", "\\u0011", "\\u0012", "\\u0013",
                "\\u0014", "\\u0015", "\\u0016", "\\u0017", "\\u0018", "\\u0019", "\\u001a", "\\u001b", "\\u001c",
                "\\u001d", "\\u001e", "\\u001f", " ",
            ]
            for (scalar, escape) in zip(0...0x20, escapes) {
                let expected = String(Character(Unicode.Scalar(UInt8(scalar))))
                #expect(try codec.decode(String.self, from: "\"\(escape)\"") == expected, "\(escape)")
                #expect(try codec.decode(String.self, from: codec.encode(expected)) == expected)
            }
        },
        PortedCase(.json, "jsonUnicodeCharacters") { () throws in
            for string in ["Ā", "🙂", "€", "\u{2028}\u{2029}", "a\u{301}"] {
                #expect(try codec.decode(String.self, from: codec.encode(string)) == string)
            }
        },
        PortedCase(.json, "jsonUnicodeEscapes") { () throws in
            #expect(try codec.decode(String.self, from: #""\u00e9\u00C9\ud83d\ude00""#) == "éÉ😀")
            #expect(fails(String.self, #""\ud83d""#))
        },
        PortedCase(.json, "superfluouslyEscapedCharacters") { () throws in
            #expect(fails(String.self, #""\e""#))
            #expect(try codec.decode(String.self, from: #""\/\"\\""#) == "/\"\\")
        },
        PortedCase(.json, "bomPrefixes") { () throws in
            let json = "\"👍🏻\""
            let forms: [Data] = [
                Data([0xEF, 0xBB, 0xBF]) + Data(json.utf8),
                Data([0xFE, 0xFF]) + json.data(using: .utf16BigEndian)!,
                Data([0xFF, 0xFE]) + json.data(using: .utf16LittleEndian)!,
                Data([0x00, 0x00, 0xFE, 0xFF]) + json.data(using: .utf32BigEndian)!,
                // The mark Foundation's test gives UTF-32LE text, read as Foundation reads it.
                Data([0xFE, 0xFF, 0x00, 0x00]) + json.data(using: .utf32LittleEndian)!,
                // And UTF-32LE's own mark.
                Data([0xFF, 0xFE, 0x00, 0x00]) + json.data(using: .utf32LittleEndian)!,
            ]
            for data in forms { #expect(try codec.decode(String.self, from: data) == "👍🏻", "\(Array(data.prefix(4)))") }
            // Mismatched marks.
            let mismatched: [Data] = [
                Data([0xFE, 0xFF, 0x00, 0x00]) + json.data(using: .utf32BigEndian)!,
                Data([0xFE, 0xFF]) + json.data(using: .utf32LittleEndian)!,
                Data([0xEF, 0xBB, 0xBF]) + json.data(using: .utf16BigEndian)!,
            ]
            for data in mismatched { #expect(fails(String.self, data), "\(Array(data.prefix(4)))") }
            let error = #expect(throws: RawCodingError.self) { try codec.decode(String.self, from: mismatched[0]) }
            #expect(
                error?.reason.contains("FE FF 00 00") == true,
                "the message names the mark: \(String(describing: error))")
        },
        PortedCase(.json, "twoByteUTF16Inputs") { () throws in
            #expect(try codec.decode(Int.self, from: Data([0x37, 0x00])) == 7)
            #expect(try codec.decode(Int.self, from: Data([0x00, 0x37])) == 7)
        },
        PortedCase(.json, "invalidKeyUTF8") { () throws in
            #expect(throws: RawCodingError.self) {
                try codec.decode([String: Int].self, from: Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]))
            }
        },
        PortedCase(.json, "topLevelFragmentsWithGarbage") { () throws in
            for text in ["true x", "1 1", "\"a\" b", "null,", "[] ]"] {
                #expect(fails(StoredValue.self, text), "\(text)")
            }
        },
        PortedCase(.json, "whitespace") { () throws in
            for space in [" ", "\t", "\n", "\r"] {
                #expect(
                    try codec.decode([Int].self, from: "\(space)[\(space)1\(space),\(space)2\(space)]\(space)") == [
                        1, 2,
                    ])
            }
            #expect(fails([Int].self, "[1,\u{0B}2]"))
        },
    ]

    // MARK: Numbers

    static let numbers: [PortedCase] = [
        PortedCase(.json, "smallFloatNumber") { () throws in
            try Port.roundTrip([["magic_number": 7.45673334164903e-115]])
        },
        PortedCase(.json, "largeIntegerNumber") { () throws in
            #expect(
                try codec.decode([String: UInt64].self, from: #"{"a":6032314514195021674}"#)["a"]
                    == 6_032_314_514_195_021_674)
        },
        PortedCase(.json, "largeIntegerNumberIsNotRoundedToNearestDoubleWhenDecodingAsAnInteger") { () throws in
            #expect(try codec.decode(Int64.self, from: "9223372036854775807") == .max)
            #expect(try codec.decode(UInt64.self, from: "18446744073709551615") == .max)
            #expect(fails(Int64.self, "9223372036854775808"))
        },
        PortedCase(.json, "roundTrippingExtremeValues") { () throws in
            struct Extremes: Codable, Equatable {
                var values: [Int64] = [.min, .max, 0]
                var unsigned: [UInt64] = [.max, 0]
                var doubles: [Double] = [.greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude]
                var floats: [Float] = [.greatestFiniteMagnitude, .leastNonzeroMagnitude]
            }
            try Port.roundTrip(Extremes())
        },
        PortedCase(.json, "roundTrippingDoubleValues") { () throws in
            let values: [Double] = [0.1, 1e-308, 1.7976931348623157e308, 123.456, -0.0, 2.2250738585072014e-308]
            #expect(
                try codec.decode([Double].self, from: codec.encode(values)).map(\.bitPattern)
                    == values.map(\.bitPattern))
        },
        PortedCase(.json, "roundTrippingInt128") { () throws in
            guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
            let values: [Int128] = [.min, .max, 0, -1, 1 << 100]
            #expect(try codec.decode([Int128].self, from: codec.encode(values)) == values)
        },
        PortedCase(.json, "roundTrippingUInt128") { () throws in
            guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
            let values: [UInt128] = [.max, 0, 1 << 100]
            #expect(try codec.decode([UInt128].self, from: codec.encode(values)) == values)
        },
        PortedCase(.json, "decodeLargeDoubleAsInteger") { () throws in
            #expect(fails(UInt64.self, try codec.encodeToString(Double.greatestFiniteMagnitude)))
        },
        PortedCase(.json, "typeCoercion") { () throws in
            #expect(fails([Int].self, "[false,true]"))
            #expect(fails([UInt8].self, "[false,true]"))
            #expect(fails([Double].self, "[false,true]"))
            #expect(fails([Bool].self, "[0,1]"))
            #expect(fails([Bool].self, "[0.5]"))
            #expect(fails([Int].self, "[1.5]"))
            #expect(fails([UInt].self, "[-1]"))
            #expect(fails([Int8].self, "[128]"))
        },
        PortedCase(.json, "jsonNumberFragments") { () throws in
            #expect(try codec.decode(Int.self, from: "1") == 1)
            #expect(try codec.decode(Double.self, from: "-1.5e2") == -150)
            #expect(try codec.decode(Double.self, from: "0.0") == 0)
        },
        PortedCase(.json, "invalidJSONNumbersFailAsExpected") { () throws in
            for text in ["0.", "1e ", "-", "--1", "1e+", "01", ".1", "+1", "0x1", "Infinity", "NaN", "1.e5"] {
                #expect(fails(Double.self, text), "\(text)")
            }
        },
        PortedCase(.json, "topLevelNumberFragmentsWithJunkDigitCharacters") { () throws in
            #expect(fails(Int.self, "1x"))
            #expect(fails(Double.self, "1.5e2x"))
        },
        PortedCase(.json, "localeDecimalPolicyIndependence") { () throws in
            #expect(try codec.decode(Double.self, from: "1.5") == 1.5)
            #expect(try codec.encodeToString(1.5) == "1.5")
        },
        PortedCase(.json, "hugeNumbers") { () throws in
            #expect(fails(Double.self, "1e400"))
            #expect(fails(Double.self, "2.01e-1234"))
            #expect(try codec.decode(Double.self, from: "0e-9999") == 0)
        },
        PortedCase(.json, "interceptDecimal") { () throws in
            let decimal = Decimal(string: "3.14159265358979323846264338327950288")!
            try Port.roundTrip(decimal, foundation: nil)
            try Port.roundTrip([decimal], foundation: nil)
        },
        PortedCase(.json, "interceptURL") { () throws in
            let url = URL(string: "https://swift.org/a?b=c")!
            try Port.roundTrip(url, expected: #""https://swift.org/a?b=c""#, foundation: nil)
        },
        PortedCase(.json, "interceptURLWithoutEscapingOption") { () throws in
            try Port.roundTrip(URL(string: "https://swift.org")!, expected: #""https://swift.org""#, foundation: nil)
        },
    ]

    // MARK: Failures and decoder state

    /// Tries `First`, then `Second`, from the same decoder.
    enum Either<First: Decodable, Second: Decodable>: Decodable {
        case first(First)
        case second(Second)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            do {
                self = .first(try container.decode(First.self))
            } catch {
                self = .second(try container.decode(Second.self))
            }
        }
    }

    struct Checked: Decodable {
        enum Keys: String, CodingKey { case checkedString }
        struct Refused: Error {}
        init(from decoder: any Decoder) throws {
            let string = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .checkedString)
            guard string == "foo" else { throw Refused() }
        }
    }

    static let failures: [PortedCase] = [
        PortedCase(.json, "decodingFailure") { () throws in
            struct DecodeFailure: Decodable { var invalid: String }
            #expect(fails(DecodeFailure.self, #"{"invalid": json}"#))
        },
        PortedCase(.json, "decodingFailureThrowInInitKeyedContainer") { () throws in
            #expect(fails(Checked.self, #"{ "checkedString" : "baz" }"#))
            _ = try codec.decode(Checked.self, from: #"{ "checkedString" : "foo" }"#)
        },
        PortedCase(.json, "decodingFailureThrowInInitSingleContainer") { () throws in
            struct Single: Decodable {
                struct Refused: Error {}
                init(from decoder: any Decoder) throws {
                    guard try decoder.singleValueContainer().decode(String.self) == "foo" else { throw Refused() }
                }
            }
            #expect(fails(Single.self, #""baz""#))
            #expect(fails([Single].self, #"["foo","baz"]"#))
        },
        PortedCase(.json, "decoderStateThrowOnDecode") { () throws in
            guard case .second(let numbers) = try codec.decode(Either<[String], [Int]>.self, from: "[1,2,3]") else {
                Issue.record("decoded as [String]")
                return
            }
            #expect(numbers == [1, 2, 3])
        },
        PortedCase(.json, "encoderStateThrowOnEncode") { () throws in
            struct ReferencingWrapper<Value: Encodable>: Encodable {
                let value: Value
                func encode(to encoder: any Encoder) throws {
                    var container = encoder.unkeyedContainer()
                    var nested = container.superEncoder().unkeyedContainer()
                    try nested.encode(value)
                }
            }
            let codec = JSONCodec(nonFiniteNumbers: .throw)
            let error = #expect(throws: RawCodingError.self) {
                try codec.encode(ReferencingWrapper(value: [Float.infinity]))
            }
            #expect(error?.codingPathDescription == "[0][0][0]", "\(String(describing: error))")
        },
        PortedCase(.json, "delayedDecoding") { () throws in
            struct Delayed: Decodable {
                var container: any UnkeyedDecodingContainer
                init(from decoder: any Decoder) throws { container = try decoder.unkeyedContainer() }
                mutating func first() throws -> Int { try container.decode(Int.self) }
            }
            var delayed = try codec.decode(Delayed.self, from: "[42]")
            #expect(try delayed.first() == 42)
        },
        PortedCase(.json, "equivalentUTF8Sequences") { () throws in
            let dictionary = try codec.decode([String: Bool].self, from: #"{"caf\u00e9": true, "cafe\u0301": false}"#)
            #expect(dictionary.count == 1)
        },
        PortedCase(.json, "encodingDictionaryFailureKeyPath") { () throws in
            struct EncodeFailure: Encodable { var someValue: Double }
            let codec = JSONCodec(keys: .snakeCase, nonFiniteNumbers: .throw)
            let error = #expect(throws: RawCodingError.self) {
                try codec.encode(["key": EncodeFailure(someValue: .nan)])
            }
            #expect(error?.codingPath.map(\.stringValue) == ["key", "someValue"], "\(String(describing: error))")
        },
        PortedCase(.json, "decodingDictionaryFailureKeyPath") { () throws in
            let error = #expect(throws: RawCodingError.self) {
                try JSONCodec(keys: .snakeCase).decode([String: Int].self, from: #"{"leave_me_alone":"test"}"#)
            }
            #expect(error?.codingPath.map(\.stringValue) == ["leave_me_alone"])
            guard case .typeMismatch = error?.underlyingError as? DecodingError else {
                Issue.record("not a type mismatch: \(String(describing: error))")
                return
            }
        },
        PortedCase(.json, "decodingStringExpectedType") { () throws in
            struct DecodeMe: Decodable { var thisIsCamelCase: String }
            let error = #expect(throws: RawCodingError.self) {
                try codec.decode(DecodeMe.self, from: #"{"thisIsCamelCase": null}"#)
            }
            guard case .valueNotFound(let expected, _) = error?.underlyingError as? DecodingError else {
                Issue.record("not valueNotFound: \(String(describing: error))")
                return
            }
            #expect(ObjectIdentifier(expected) == ObjectIdentifier(String.self))
        },
        PortedCase(.json, "decodingDictionaryStringKeyConversionUntouched") { () throws in
            let decoded = try JSONCodec(keys: .snakeCase).decode(
                [String: String].self, from: #"{"leave_me_alone":"test"}"#)
            #expect(decoded == ["leave_me_alone": "test"])
        },
        PortedCase(.json, "encoderStateThrowOnEncodeCustomDate") { () throws in
            struct Wrapper: Encodable {
                func encode(to encoder: any Encoder) throws {
                    var container = encoder.unkeyedContainer()
                    var nested = container.superEncoder().unkeyedContainer()
                    try nested.encode(Date())
                }
            }
            struct Refused: Error {}
            var encoder = StoredValueEncoder()
            encoder.dates = .custom { _, encoder in
                _ = encoder.unkeyedContainer()
                throw Refused()
            }
            #expect(throws: Refused.self) { try encoder.encode(Wrapper()) }
        },
        PortedCase(.json, "encoderStateThrowOnEncodeCustomData") { () throws in
            struct Refused: Error {}
            var encoder = StoredValueEncoder()
            encoder.data = .custom { _, encoder in
                _ = encoder.unkeyedContainer()
                throw Refused()
            }
            #expect(throws: Refused.self) { try encoder.encode([[Data([1])]]) }
        },
        PortedCase(.json, "decoderStateThrowOnDecodeCustomDate") { () throws in
            struct Refused: Error {}
            var decoder = StoredValueDecoder()
            decoder.dates = .custom { _ in throw Refused() }
            guard case .second(let number) = try decoder.decode(Either<Date, Int>.self, from: .int(1)) else {
                Issue.record("decoded a date")
                return
            }
            #expect(number == 1)
        },
        PortedCase(.json, "decoderStateThrowOnDecodeCustomData") { () throws in
            struct Refused: Error {}
            var decoder = StoredValueDecoder()
            decoder.data = .custom { _ in throw Refused() }
            guard case .second(let number) = try decoder.decode(Either<Data, Int>.self, from: .int(1)) else {
                Issue.record("decoded data")
                return
            }
            #expect(number == 1)
        },
        PortedCase(.json, "int128SlowPath") { () throws in
            guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
            // Where JSONDecoder still throws for the extremes, every value reads exactly here.
            for value: Int128 in [18_446_744_073_709_551_615, -18_446_744_073_709_551_615, .min, .max] {
                #expect(try codec.decode(Int128.self, from: "\(value)") == value, "\(value)")
            }
        },
        PortedCase(.json, "uint128SlowPath") { () throws in
            guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
            for value: UInt128 in [18_446_744_073_709_551_615, 18_446_744_073_709_551_616, .max] {
                #expect(try codec.decode(UInt128.self, from: "\(value)") == value, "\(value)")
            }
        },
        PortedCase(.json, "encodingJSONHexUnicodeEscapes") { () throws in
            #expect(try codec.encodeToString("\u{0001}\u{0002}\u{0003}") == #""\u0001\u0002\u0003""#)
            #expect(try codec.encodeToString("\u{0010}\u{0018}\u{001f}") == #""\u0010\u0018\u001f""#)
            #expect(try codec.decode(String.self, from: #""\u0010\u0018\u001f""#) == "\u{0010}\u{0018}\u{001f}")
        },
        PortedCase(.json, "decodingKeyStrategyCamel") { () throws in
            struct Lookup: Decodable {
                let found: Bool
                init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: StoredCodingKeyForPort.self)
                    let camel = try container.decode(String.self, forKey: StoredCodingKeyForPort("camelCaseKey"))
                    found = try container.decode(Bool.self, forKey: StoredCodingKeyForPort(camel))
                }
            }
            let pairs = [
                ("", ""), ("a", "a"), ("ALLCAPS", "ALLCAPS"), ("ALL_CAPS", "allCaps"), ("single", "single"),
                ("snake_case", "snakeCase"), ("one_two_three", "oneTwoThree"), ("one_2_three", "one2Three"),
                ("one2_three", "one2Three"), ("snake_Ćase", "snakeĆase"), ("snake_ćase", "snakeĆase"),
                ("alreadyCamelCase", "alreadyCamelCase"), ("__this_and_that", "__thisAndThat"),
                ("_this_and_that", "_thisAndThat"), ("this__and__that", "thisAndThat"),
                ("this_and_that__", "thisAndThat__"),
                ("this_aNd_that", "thisAndThat"), ("_one_two_three_", "_oneTwoThree_"), ("_test", "_test"), ("_", "_"),
                ("__", "__"), ("🐧_🐟", "🐧🐟"),
            ]
            let snake = JSONCodec(keys: .snakeCase)
            for (key, camel) in pairs {
                let text = #"{"camelCaseKey":"\#(camel)","\#(key)":true}"#
                #expect((try? snake.decode(Lookup.self, from: text))?.found == true, "\(key) → \(camel)")
            }
        },
        PortedCase(.json, "encodingKeyStrategyPath") { () throws in
            struct Inner: Encodable { var helloWorld = "test" }
            struct Middle: Encodable { var nestedValue = Inner() }
            struct Outer: Encodable { var outerValue = Middle() }
            let paths = PathsSeen()
            var encoder = StoredValueEncoder()
            encoder.keys = .custom { path in
                paths.note(path)
                return StoredCodingKeyForPort("QQQ" + path.last!.stringValue)
            }
            let text = String(decoding: try JSONCodec().writeTree(encoder.encode(Outer())), as: UTF8.self)
            #expect(text == #"{"QQQouterValue":{"QQQnestedValue":{"QQQhelloWorld":"test"}}}"#)
            #expect(
                paths.paths.sorted() == ["outerValue", "outerValue.nestedValue", "outerValue.nestedValue.helloWorld"])
        },
        PortedCase(.json, "decodingKeyStrategyCustom") { () throws in
            struct DecodeMe: Decodable { var hello: String }
            var decoder = StoredValueDecoder()
            decoder.keys = .custom { path in
                let string = path.last!.stringValue
                return string.count > 4 ? StoredCodingKeyForPort(String(string.dropFirst(4))) : path.last!
            }
            let tree = try JSONCodec().readTree(from: Data(#"{"----hello":"test"}"#.utf8))
            #expect(try decoder.decode(DecodeMe.self, from: tree).hello == "test")
        },
        PortedCase(.json, "overlargeDecimal") { () throws in #expect(fails(Decimal.self, "100e200")) },
        PortedCase(.json, "interceptLargeDecimal") { () throws in
            struct Big: Codable, Equatable {
                var uint64Max = Decimal(UInt64.max)
                var uint64MaxPlus1 = Decimal(UInt64.max) + 1
                var int64Min = Decimal(Int64.min)
                var int64MinMinus1 = Decimal(Int64.min) - 1
            }
            try Port.roundTrip(Big(), foundation: nil)
            #expect(try codec.encodeToString(Big()).contains("18446744073709551616"))
        },
        PortedCase(.json, "directlyEncodedArrays") { () throws in
            struct Arrays: Codable, Equatable {
                let integers: [Int]
                let doubles: [Double]
                let strings: [String]
            }
            let value = Arrays(
                integers: [.min, 0, 42, .max], doubles: [42.0, 3.14, .infinity, -.infinity],
                strings: ["Hello", "World", "true", "0\n1", "\u{0008}"])
            let strings = JSONCodec.NonFiniteStrategy.strings(
                positiveInfinity: "INF", negativeInfinity: "-INF", nan: "NaN")
            try Port.roundTrip(value, codec: JSONCodec(nonFiniteNumbers: strings), foundation: nil)
            try Port.roundTrip(value, codec: JSONCodec(formatting: .pretty, nonFiniteNumbers: strings), foundation: nil)
        },
    ]

    // MARK: Kept differences

    static let keptDifferences: [PortedCase] = [
        PortedCase(
            .json, "encodingConflictedTypeNestedContainersWithTheSameTopLevelKey",
            .keptDifference("JSONEncoder stops the program; every codec throws an EncodingError naming the path")
        ) { () throws in
            struct Model: Encodable {
                enum Top: String, CodingKey { case top }
                enum First: String, CodingKey { case first }
                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: Top.self)
                    var first = container.nestedContainer(keyedBy: First.self, forKey: .top)
                    try first.encode("Johnny Appleseed", forKey: .first)
                    var second = container.nestedUnkeyedContainer(forKey: .top)
                    try second.encode("second")
                }
            }
            let error = #expect(throws: RawCodingError.self) { try codec.encode(Model()) }
            #expect(error?.codingPathDescription == "top")
        },
        PortedCase(
            .json, "preconditionFailuresForContainerReplacement",
            .keptDifference("JSONEncoder stops the program; every codec throws an EncodingError naming the path")
        ) { () throws in
            struct Replacing: Encodable {
                enum Keys: String, CodingKey { case key }
                let subcase: Int
                func encode(to encoder: any Encoder) throws {
                    var keyed = encoder.container(keyedBy: Keys.self)
                    switch subcase {
                    case 0:
                        try keyed.encode(42, forKey: .key)
                        _ = keyed.nestedContainer(keyedBy: Keys.self, forKey: .key)
                    case 1:
                        try keyed.encode(42, forKey: .key)
                        _ = keyed.nestedUnkeyedContainer(forKey: .key)
                    case 2:
                        _ = keyed.nestedContainer(keyedBy: Keys.self, forKey: .key)
                        _ = keyed.nestedUnkeyedContainer(forKey: .key)
                    default:
                        _ = keyed.nestedUnkeyedContainer(forKey: .key)
                        _ = keyed.nestedContainer(keyedBy: Keys.self, forKey: .key)
                    }
                }
            }
            for subcase in 0..<4 {
                let error = #expect(throws: RawCodingError.self) { try codec.encode(Replacing(subcase: subcase)) }
                #expect(error?.codingPathDescription == "key", "\(subcase)")
            }
        },
        PortedCase(
            .json, "jsonPermitsTrailingCommas",
            .keptDifference("plain JSON refuses trailing commas, as RFC 8259 and JSONTestSuite do")
        ) { () throws in
            #expect(fails([Int].self, "[1,]"))
            #expect(fails([String: Int].self, #"{"a":1,}"#))
        },
        PortedCase(
            .json, "jsonEscapedSlashes",
            .keptDifference("JSONCodec writes \"/\" unescaped (JSONEncoder's .withoutEscapingSlashes); reads both")
        ) { () throws in
            #expect(try codec.encodeToString("/") == #""/""#)
            #expect(try codec.decode(String.self, from: #""\/""#) == "/")
        },
        PortedCase(
            .json, "jsonEscapedForwardSlashes",
            .keptDifference("JSONCodec writes \"/\" unescaped (JSONEncoder's .withoutEscapingSlashes); reads both")
        ) { () throws in
            #expect(try codec.encodeToString(["/": 1]) == #"{"/":1}"#)
            #expect(try codec.decode([String: Int].self, from: #"{"\/":1}"#) == ["/": 1])
        },
        PortedCase(
            .json, "encodingSortedKeys",
            .keptDifference(
                "keys are sorted by their UTF-8 bytes, the same on every platform, not as Foundation compares strings")
        ) { () throws in
            let text = try codec.encodeToString(["foo": 1, "Foo11": 2, "Foo2": 3, "føo": 4, "bar": 5])
            #expect(text == #"{"Foo11":2,"Foo2":3,"bar":5,"foo":1,"føo":4}"#)
        },
        PortedCase(.json, "encodingSortedKeysStableOrdering") { () throws in
            let dictionary = Dictionary(uniqueKeysWithValues: (0..<50).map { ("key\($0)", $0) })
            let first = try codec.encodeToString(dictionary)
            for _ in 0..<5 { #expect(try codec.encodeToString(dictionary) == first) }
        },
        PortedCase(.json, "encodingOutputFormattingSortedKeys") { () throws in
            #expect(try codec.encodeToString(Person()) == #"{"email":"appleseed@apple.com","name":"Johnny Appleseed"}"#)
        },
        PortedCase(.json, "encodingOutputFormattingPrettyPrintedSortedKeys") { () throws in
            let pretty = try JSONCodec(formatting: .pretty).encodeToString(Person())
            #expect(pretty == "{\n  \"email\" : \"appleseed@apple.com\",\n  \"name\" : \"Johnny Appleseed\"\n}")
            #expect(try JSONCodec().decode(Person.self, from: pretty) == Person())
        },
        PortedCase(
            .json, "keyStrategyDuplicateKeys",
            .keptDifference("a repeated key is not an error: the last value wins, as JSONSerialization does")
        ) { () throws in
            #expect(try codec.decode([String: Int].self, from: #"{"a":1,"a":2}"#) == ["a": 2])
        },
    ]
}

/// A `CodingKey` made from text, for a custom key strategy.
struct StoredCodingKeyForPort: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// The coding paths an encode saw, in order.
final class PathsSeen: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String] = []

    var paths: [String] { lock.withLock { seen } }

    func note(_ path: [any CodingKey]) {
        let text = path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        lock.withLock { seen.append(text) }
    }
}

/// Notes the coding path of each container and encoder it makes.
struct PathRecorder: Encodable {
    let seen: PathsSeen
    let useSuperEncoder: Bool
    enum Keys: String, CodingKey { case top, inner }

    /// Notes the path of the encoder it is given.
    struct Leaf: Encodable {
        let seen: PathsSeen
        func encode(to encoder: any Encoder) throws {
            seen.note(encoder.codingPath)
            var single = encoder.singleValueContainer()
            try single.encode(1)
        }
    }

    func encode(to encoder: any Encoder) throws {
        seen.note(encoder.codingPath)
        var container = encoder.container(keyedBy: Keys.self)
        var top = container.nestedUnkeyedContainer(forKey: .top)
        seen.note(top.codingPath)
        if useSuperEncoder {
            let nested = top.superEncoder()
            seen.note(nested.codingPath)
            var keyed = nested.container(keyedBy: Keys.self)
            try Leaf(seen: seen).encode(to: keyed.superEncoder(forKey: .inner))
        } else {
            var nested = top.nestedContainer(keyedBy: Keys.self)
            seen.note(nested.codingPath)
            try nested.encode(Leaf(seen: seen), forKey: .inner)
        }
    }
}
