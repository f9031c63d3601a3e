import Foundation
import RawCoding
import Testing

/// Each option against the `JSONEncoder`/`JSONDecoder` option of the same name.
@Suite("StoredValueEncoder/Decoder options")
struct EngineOptionsTests {
    struct Event: Codable, Equatable {
        var at: Date
        var payload: Data
    }

    static let event = Event(at: Date(timeIntervalSince1970: 1_234_567_890), payload: Data([0, 1, 254, 255]))

    static func foundationTree<Value: Encodable>(_ value: Value, _ configure: (JSONEncoder) -> Void) throws
        -> StoredValue
    {
        let encoder = JSONEncoder()
        configure(encoder)
        return try StoredValue(
            propertyList: JSONSerialization.jsonObject(with: encoder.encode(value), options: .fragmentsAllowed))
    }

    /// `.iso8601` means what `JSONCodec(dates: .iso8601)` means: fractional seconds are read
    /// (as `JSONDecoder` reads them) and written where the date has them, so nothing is lost.
    @Test func iso8601MeansTheSameInTheEngineAndInJSONCodec() throws {
        var decoder = StoredValueDecoder()
        decoder.dates = .iso8601
        var encoder = StoredValueEncoder()
        encoder.dates = .iso8601
        let codec = JSONCodec(dates: .iso8601)
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        for text in ["2016-02-08T02:00:53.274Z", "2016-02-08T02:00:53Z", "2016-02-08T04:00:53.5+02:00"] {
            let engine = try decoder.decode(Date.self, from: .string(text))
            #expect(engine == (try codec.decode(Date.self, from: "\"\(text)\"")), "\(text)")
            #expect(
                engine.timeIntervalSince1970
                    == (try foundation.decode(Date.self, from: Data("\"\(text)\"".utf8))).timeIntervalSince1970,
                "\(text)")
        }
        for date in [Date(timeIntervalSinceReferenceDate: 0.5), Date(timeIntervalSince1970: 1_454_896_853.274)] {
            let tree = try encoder.encode(date)
            #expect(tree == (try codec.encodeTree(date)), "\(date)")
            #expect(try decoder.decode(Date.self, from: tree) == date, "\(tree)")
        }
        #expect(try encoder.encode(Date(timeIntervalSinceReferenceDate: 0.5)) == .string("2001-01-01T00:00:00.5Z"))
        // A date alone, as APIs send birthdays and release dates: midnight UTC in both.
        let day = Date(timeIntervalSince1970: 1_454_889_600)
        #expect(try decoder.decode(Date.self, from: .string("2016-02-08")) == day)
        #expect(try codec.decode(Date.self, from: #""2016-02-08""#) == day)
        // The same refusals, with the same reasons.
        let notADate = #expect(throws: DecodingError.self) {
            try decoder.decode(Date.self, from: .string("2016-02-08T"))
        }
        let codecRefusal = #expect(throws: RawCodingError.self) { try codec.decode(Date.self, from: #""2016-02-08T""#) }
        #expect(codecRefusal?.reason.contains("is not an ISO 8601 date-time") == true)
        #expect("\(String(describing: notADate))".contains("is not an ISO 8601 date-time"))
        let distant = Date(timeIntervalSinceReferenceDate: -1e12)
        #expect(throws: EncodingError.self) { try encoder.encode([distant]) }
        #expect(throws: RawCodingError.self) { try codec.encode([distant]) }
    }

    /// A `.custom` date or data strategy whose closure encodes nothing gives `{}`, at the top
    /// too, as `JSONEncoder` writes it.
    @Test func customStrategiesThatEncodeNothingGiveAnEmptyDictionary() throws {
        var encoder = StoredValueEncoder()
        encoder.dates = .custom { _, _ in }
        encoder.data = .custom { _, _ in }
        let foundation: (any Encodable) throws -> StoredValue = { value in
            try Self.foundationTree(value) {
                $0.dateEncodingStrategy = .custom { _, _ in }
                $0.dataEncodingStrategy = .custom { _, _ in }
            }
        }
        let values: [any Encodable] = [Date(), Data([1]), [Date()], ["at": Data()], Self.event]
        for value in values {
            let tree = try encoder.encode(value)
            #expect(tree == (try foundation(value)), "\(value)")
            #expect(!"\(tree)".contains("1"), "\(tree)")
        }
        #expect(try encoder.encode(Date()) == .dictionary([:]))
    }

    /// `.formatted` writes what the formatter writes, as `JSONEncoder` does, but refuses a date
    /// its text would not read back as (a fraction of a second the format lacks), with the path;
    /// text the formatter cannot read is an error with the path too. The same in JSONCodec.
    @Test func formattedDatesKeepTheDateOrSayWhy() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let whole = Date(timeIntervalSince1970: 1_000_000)
        let foundation = JSONEncoder()
        foundation.dateEncodingStrategy = .formatted(formatter)
        let codec = JSONCodec(dates: .formatted(formatter))
        #expect(try codec.encode([whole]) == foundation.encode([whole]))
        #expect(try codec.decode([Date].self, from: codec.encode([whole])) == [whole])
        var encoder = StoredValueEncoder()
        encoder.dates = .formatted(formatter)
        #expect(try encoder.encode(whole) == .string("1970-01-12 13:46:40"))
        let fraction = Date(timeIntervalSince1970: 1_000_000.5)
        let refused = #expect(throws: RawCodingError.self) { try codec.encode(["at": [fraction]]) }
        #expect(refused?.codingPathDescription == "at[0]")
        #expect(refused?.reason.contains("reads back as another date") == true, "\(String(describing: refused))")
        #expect(throws: EncodingError.self) { try encoder.encode([fraction]) }
        let unreadable = #expect(throws: RawCodingError.self) {
            try codec.decode([String: Date].self, from: #"{"at":"soon"}"#)
        }
        #expect(unreadable?.codingPathDescription == "at")
        #expect(unreadable?.reason.contains("does not match the date formatter's format") == true)
    }

    @Test func dateStrategiesMatchJSONEncoderAndReadBack() throws {
        let pairs:
            [(
                StoredValueEncoder.DateStrategy, StoredValueDecoder.DateStrategy,
                JSONEncoder.DateEncodingStrategy
            )] = [
                (.secondsSinceReferenceDate, .secondsSinceReferenceDate, .deferredToDate),
                (.secondsSince1970, .secondsSince1970, .secondsSince1970),
                (.millisecondsSince1970, .millisecondsSince1970, .millisecondsSince1970),
                (.iso8601, .iso8601, .iso8601),
            ]
        for (ours, decoding, theirs) in pairs {
            var encoder = StoredValueEncoder()
            encoder.dates = ours
            let tree = try encoder.encode(Self.event)
            let foundation = try Self.foundationTree(Self.event) {
                $0.dateEncodingStrategy = theirs
                $0.dataEncodingStrategy = .base64
            }
            #expect(tree["at"]?.matchesAsJSON(foundation["at"] ?? .null) == true, "\(ours): \(tree) vs \(foundation)")
            var decoder = StoredValueDecoder()
            decoder.dates = decoding
            #expect(try decoder.decode(Event.self, from: tree) == Self.event)
        }
        // The default keeps the date itself.
        #expect(try StoredValueEncoder().encode(Self.event)["at"] == .date(Self.event.at))
    }

    @Test func customDateStrategyWritesThroughTheEncoderItIsGiven() throws {
        var encoder = StoredValueEncoder()
        encoder.dates = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode("day \(Int(date.timeIntervalSince1970 / 86_400))")
        }
        var decoder = StoredValueDecoder()
        decoder.dates = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            return Date(timeIntervalSince1970: (Double(text.dropFirst(4)) ?? 0) * 86_400)
        }
        let tree = try encoder.encode(Self.event)
        #expect(tree["at"] == "day 14288")
        #expect(try decoder.decode(Event.self, from: tree).at == Date(timeIntervalSince1970: 14_288 * 86_400))
    }

    @Test func dataStrategiesMatchJSONEncoderAndReadBack() throws {
        let pairs:
            [(
                StoredValueEncoder.DataStrategy, StoredValueDecoder.DataStrategy,
                JSONEncoder.DataEncodingStrategy
            )] = [
                (.base64, .base64, .base64),
                (.byteArray, .byteArray, .deferredToData),
            ]
        for (ours, decoding, theirs) in pairs {
            var encoder = StoredValueEncoder()
            encoder.data = ours
            let tree = try encoder.encode(Self.event)
            let foundation = try Self.foundationTree(Self.event) { $0.dataEncodingStrategy = theirs }
            #expect(tree["payload"]?.matchesAsJSON(foundation["payload"] ?? .null) == true, "\(tree) vs \(foundation)")
            var decoder = StoredValueDecoder()
            decoder.data = decoding
            #expect(try decoder.decode(Event.self, from: tree) == Self.event)
        }
        #expect(try StoredValueEncoder().encode(Self.event)["payload"] == .data(Self.event.payload))
        var badBase64 = StoredValueDecoder()
        badBase64.data = .base64
        #expect(throws: DecodingError.self) { try badBase64.decode(Data.self, from: "not base64!") }
    }

    struct SnakeKeys: Codable, Equatable {
        var myURLValue = 1
        var isHTTPSEnabled = true
        var a = 2
        var URL = 3
        var value2Go = 4
        var _private = 5
        var already_snake = 6
        var trailingUnderscore_ = 7
        // swift-format-ignore: IdentifiersMustBeASCII
        var ÄpfelBirnen = 8
        var nested = ["innerKey": 9]
    }

    @Test func snakeCaseMatchesJSONEncoderBothWays() throws {
        var encoder = StoredValueEncoder()
        encoder.keys = .snakeCase
        let tree = try encoder.encode(SnakeKeys())
        let foundation = try Self.foundationTree(SnakeKeys()) { $0.keyEncodingStrategy = .convertToSnakeCase }
        #expect(Set(tree.dictionaryValue?.keys ?? []) == Set(foundation.dictionaryValue?.keys ?? []))
        #expect(tree.matchesAsJSON(foundation), "\(tree)\n\(foundation)")

        // Decoding converts the stored keys back. Camel-case names that the conversion can
        // reach (`myURLValue` cannot: `my_url_value` becomes `myUrlValue`, so JSONDecoder fails
        // on SnakeKeys itself), values unlike any default, and JSONDecoder on the same text.
        let json = Data(
            #"{"my_url_value":11,"is_https_enabled":false,"a":12,"url":13,"value2_go":14,"_private":15,"already_snake":16,"trailing_underscore_":17,"äpfel_birnen":18,"nested":{"inner_key":19}}"#
                .utf8)
        let expected = SnakeKeysDecoded(
            myUrlValue: 11, isHttpsEnabled: false, a: 12, url: 13, value2Go: 14, _private: 15, alreadySnake: 16,
            trailingUnderscore_: 17, äpfelBirnen: 18, nested: ["inner_key": 19])
        let jsonDecoder = JSONDecoder()
        jsonDecoder.keyDecodingStrategy = .convertFromSnakeCase
        var decoder = StoredValueDecoder()
        decoder.keys = .snakeCase
        let theirs = try jsonDecoder.decode(SnakeKeysDecoded.self, from: json)
        let ours = try decoder.decode(SnakeKeysDecoded.self, from: JSONReader().read(json))
        #expect(theirs == expected)
        #expect(ours == expected)

        // Without the strategy, the same tree does not decode.
        #expect(throws: DecodingError.self) {
            try StoredValueDecoder().decode(SnakeKeysDecoded.self, from: JSONReader().read(json))
        }
    }

    /// Keys of `[String: Value]` dictionaries are data, not property names: key strategies
    /// leave them alone both ways, as Foundation's coders do, so two keys that would convert
    /// to one are both kept.
    @Test func snakeCaseLeavesDictionaryKeysAloneBothWays() throws {
        struct Model: Codable, Equatable {
            var nestedDict: [String: Int]
            var nestedStruct: [String: Inner]
        }
        struct Inner: Codable, Equatable { var innerValue: [String: Bool] }
        let json = Data(
            #"{"nested_dict":{"inner_key":1,"innerKey":2},"nested_struct":{"outer_key":{"inner_value":{"a_b":true}}}}"#
                .utf8)
        let expected = Model(
            nestedDict: ["inner_key": 1, "innerKey": 2],
            nestedStruct: ["outer_key": Inner(innerValue: ["a_b": true])])

        let jsonDecoder = JSONDecoder()
        jsonDecoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try jsonDecoder.decode(Model.self, from: json) == expected)
        var decoder = StoredValueDecoder()
        decoder.keys = .snakeCase
        let tree = try JSONReader().read(json)
        #expect(try decoder.decode(Model.self, from: tree) == expected)

        var encoder = StoredValueEncoder()
        encoder.keys = .snakeCase
        #expect(try encoder.encode(expected) == tree)
        let foundation = try Self.foundationTree(expected) { $0.keyEncodingStrategy = .convertToSnakeCase }
        #expect(foundation == tree)
    }

    struct SnakeKeysDecoded: Codable, Equatable {
        var myUrlValue: Int
        var isHttpsEnabled: Bool
        var a: Int
        var url: Int
        var value2Go: Int
        var _private: Int
        var alreadySnake: Int
        var trailingUnderscore_: Int
        // swift-format-ignore: IdentifiersMustBeASCII
        var äpfelBirnen: Int
        var nested: [String: Int]
    }

    @Test func customKeyStrategyGetsTheCodingPath() throws {
        struct Inner: Codable, Equatable { var value = 1 }
        struct Outer: Codable, Equatable { var inner = Inner() }
        var encoder = StoredValueEncoder()
        encoder.keys = .custom { path in
            AnyKey(path.map(\.stringValue).joined(separator: "/"))
        }
        #expect(try encoder.encode(Outer()) == ["inner": ["inner/value": 1]])
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    struct Measures: Codable {
        var values: [Double]
        var single: Float
    }

    @Test func nonFiniteNumbersFollowTheStrategy() throws {
        let measures = Measures(values: [1, .infinity, -.infinity, .nan], single: .nan)
        let allowed = try StoredValueEncoder().encode(measures)
        #expect(allowed["values"]?[1] == .double(.infinity))
        #expect(allowed["values"]?[3]?.doubleValue?.isNaN == true)

        var throwing = StoredValueEncoder()
        throwing.nonFiniteNumbers = .throw
        do {
            _ = try throwing.encode(measures)
            Issue.record("infinity accepted")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["values", "1"])
        }

        var converting = StoredValueEncoder()
        converting.nonFiniteNumbers = .strings(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        let converted = try converting.encode(measures)
        let foundation = try Self.foundationTree(measures) {
            $0.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        }
        #expect(converted.matchesAsJSON(foundation), "\(converted) vs \(foundation)")
        var decoder = StoredValueDecoder()
        decoder.nonFiniteNumbers = .strings(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        let back = try decoder.decode(Measures.self, from: converted)
        #expect(
            back.values[1] == .infinity && back.values[2] == -.infinity && back.values[3].isNaN && back.single.isNaN)
    }

    struct ReadsUserInfo: Codable {
        static let key = CodingUserInfoKey(rawValue: "unit")!
        var unit: String
        init(unit: String) { self.unit = unit }
        init(from decoder: any Decoder) throws { unit = decoder.userInfo[Self.key] as? String ?? "none" }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(encoder.userInfo[Self.key] as? String ?? "none")
        }
    }

    @Test func userInfoReachesTheCodedTypes() throws {
        var encoder = StoredValueEncoder()
        encoder.userInfo[ReadsUserInfo.key] = "cm"
        #expect(try encoder.encode([ReadsUserInfo(unit: "")]) == ["cm"])
        var decoder = StoredValueDecoder()
        decoder.userInfo[ReadsUserInfo.key] = "mm"
        #expect(try decoder.decode([ReadsUserInfo].self, from: [1]).first?.unit == "mm")
    }

    struct Misbehaving: Encodable {
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: AnyKey.self)
            try keyed.encode(1, forKey: AnyKey("a"))
            var single = encoder.singleValueContainer()
            try single.encode(2)
        }
    }

    struct Silent: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    @Test func encoderMisuseIsAnErrorNotATrap() throws {
        #expect(throws: EncodingError.self) { try StoredValueEncoder().encode(Misbehaving()) }
        #expect(throws: EncodingError.self) { try StoredValueEncoder().encode(Silent()) }
        // Nested, a value that encodes nothing is an empty dictionary, as in JSONEncoder.
        #expect(try StoredValueEncoder().encode([Silent()]) == [[:]])
    }

    struct Wide: Codable, Equatable {
        var signed: Int128
        var unsigned: UInt128
        var list: [Int128]
        var single: SingleWide
    }

    struct SingleWide: Codable, Equatable {
        var value: UInt128
        init(_ value: UInt128) { self.value = value }
        init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(UInt128.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    @Test func wideIntegersThatFitIn64BitsRoundTrip() throws {
        let value = Wide(
            signed: Int128(Int64.min), unsigned: UInt128(UInt64.max), list: [-1, 0, Int128(Int64.max)],
            single: SingleWide(7))
        let tree = try StoredValueEncoder().encode(value)
        #expect(tree["signed"] == .int(Int64.min) && tree["unsigned"] == .uint(UInt64.max) && tree["single"] == .int(7))
        #expect(try StoredValueDecoder().decode(Wide.self, from: tree) == value)

        // Beyond 64 bits: exact decimals up to 38 digits, read back as the same integers.
        var wide = value
        wide.list[1] = Int128(Int64.min) - 1
        wide.unsigned = UInt128(UInt64.max) * 1_000 + 7
        let wideTree = try StoredValueEncoder().encode(wide)
        #expect(wideTree["list"]?[1] == .decimal(Decimal(string: "-9223372036854775809")!))
        #expect(try StoredValueDecoder().decode(Wide.self, from: wideTree) == wide)
        #expect(try JSONCodec.json.decode(Wide.self, from: JSONCodec.json.encode(wide)) == wide)

        // Every 128-bit integer fits a Decimal's 128-bit mantissa: the extremes too.
        let extremes = Wide(signed: .min, unsigned: .max, list: [.max], single: SingleWide(.max))
        #expect(try StoredValueDecoder().decode(Wide.self, from: StoredValueEncoder().encode(extremes)) == extremes)
        #expect(try JSONCodec.json.decode(Wide.self, from: JSONCodec.json.encode(extremes)) == extremes)
        #expect(throws: DecodingError.self) { try StoredValueDecoder().decode(Int128.self, from: .double(1e40)) }
    }

    @Test func integersReadFromWholeDoublesOnly() throws {
        #expect(try StoredValueDecoder().decode(Int.self, from: .double(3)) == 3)
        #expect(throws: DecodingError.self) { try StoredValueDecoder().decode(Int.self, from: .double(3.5)) }
        #expect(throws: DecodingError.self) { try StoredValueDecoder().decode(UInt8.self, from: .int(256)) }
        #expect(throws: DecodingError.self) { try StoredValueDecoder().decode(Int64.self, from: .uint(UInt64.max)) }
        #expect(try StoredValueDecoder().decode(UInt64.self, from: .uint(UInt64.max)) == UInt64.max)
        #expect(throws: DecodingError.self) { try StoredValueDecoder().decode(Bool.self, from: .int(1)) }
        #expect(throws: DecodingError.self) { try StoredValueDecoder().decode(Float.self, from: .double(1e300)) }
        #expect(try StoredValueDecoder().decode(Decimal.self, from: .double(0.1)) == Decimal(string: "0.1"))
    }
}

/// Nesting past `maximumDepth` is a thrown error in both directions, not a stack overflow.
@Suite("StoredValue engine depth limit")
struct EngineDepthTests {
    static func chain(_ depth: Int) -> TreeNode {
        var node = TreeNode(value: 0, children: [])
        for level in 1..<depth { node = TreeNode(value: level, children: [node]) }
        return node
    }

    @Test func encodingPastTheLimitThrows() throws {
        // A TreeNode level is two encoders deep (the struct, then its children array).
        #expect(throws: Never.self) { try StoredValueEncoder().encode(Self.chain(200)) }
        do {
            _ = try StoredValueEncoder().encode(Self.chain(300))
            Issue.record("encoded 600 levels")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.debugDescription.contains("nested deeper than 512 levels"))
            #expect(context.codingPath.count == 512)
        }
        var relaxed = StoredValueEncoder()
        relaxed.maximumDepth = 1_000
        #expect(throws: Never.self) { try relaxed.encode(Self.chain(300)) }
    }

    @Test func decodingPastTheLimitThrows() throws {
        var relaxed = StoredValueEncoder()
        relaxed.maximumDepth = 1_000
        let tree = try relaxed.encode(Self.chain(300))
        #expect(throws: DecodingError.self) { try StoredValueDecoder().decode(TreeNode.self, from: tree) }
        var decoder = StoredValueDecoder()
        decoder.maximumDepth = 1_000
        #expect(try decoder.decode(TreeNode.self, from: tree) == Self.chain(300))
    }
}
