import Foundation
import RawCoding
import Testing

/// Nothing written that cannot be read back: exact numbers through every layer, and a
/// property test that what a codec encodes, it decodes, under default and tight limits.
@Suite("Nothing written that cannot be read back")
struct ReadBackTests {
    static let codecs: [(name: String, codec: any Codec)] = [
        ("json", JSONCodec.json), ("pretty json", JSONCodec.json(.pretty)),
        ("xml plist", PropertyListCodec.propertyList(.xml)), ("binary plist", PropertyListCodec.propertyList(.binary)),
    ]

    /// Decimals of 1 to 38 significant digits: integers beyond `UInt64.max`, negatives,
    /// fractions, tiny and large exponents.
    static let decimals: [Decimal] = {
        let digits = "12345678901234567890123456789012345678"
        var texts: [String] = []
        for count in 1...38 {
            let integer = String(digits.prefix(count))
            texts.append(integer)
            texts.append("-" + integer)
            if count > 1 {
                let point = integer.index(integer.startIndex, offsetBy: count / 2)
                texts.append(integer[..<point] + "." + integer[point...])
                texts.append("-0.000" + integer)
            }
            texts.append(integer + "e-100")
            texts.append("-" + integer + "e80")
        }
        texts += ["18446744073709551616", "99999999999999999999999999999999999999", "0.1", "-0", "1e-120"]
        return texts.map { text in
            guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                preconditionFailure("not a decimal: \(text)")
            }
            return decimal
        }
    }()

    struct Numbers: Codable, Equatable {
        var decimal: Decimal
        var decimals: [Decimal]
        var smallest = Int64.min
        var largest = UInt64.max
        var doubles = [
            Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude,
            Double.leastNormalMagnitude, 1e308, -1e308, 0.1, 9_007_199_254_740_992, -0.0,
        ]
    }

    @Test(arguments: decimals)
    func decimalsRoundTripExactlyThroughEveryLayer(_ decimal: Decimal) throws {
        for (name, codec) in Self.codecs {
            #expect(try codec.decode(Decimal.self, from: codec.encode(decimal)) == decimal, "\(name)")
            let wrapped = Numbers(decimal: decimal, decimals: [decimal, -decimal])
            #expect(try codec.decode(Numbers.self, from: codec.encode(wrapped)) == wrapped, "\(name)")
        }
        let tree = try StoredValueEncoder().encode(decimal)
        #expect(tree == .decimal(decimal))
        #expect(try StoredValueDecoder().decode(Decimal.self, from: tree) == decimal)
        let bridged = try StoredValue(propertyList: tree.propertyListObject())
        #expect(try StoredValueDecoder().decode(Decimal.self, from: bridged) == decimal)
        // What Foundation's JSONEncoder writes for it, we read back equal.
        #expect(try JSONCodec.json.decode(Decimal.self, from: JSONEncoder().encode(decimal)) == decimal)
        #expect(try RawCodable<Decimal>(decoding: RawCodable(decimal).rawValue).wrappedValue == decimal)
    }

    @Test func extremesRoundTripThroughEveryCodecTheTreeAndUserDefaults() throws {
        let numbers = Numbers(decimal: Decimal(string: "123456789012345678901234567890")!, decimals: Self.decimals)
        for (name, codec) in Self.codecs {
            #expect(try codec.decode(Numbers.self, from: codec.encode(numbers)) == numbers, "\(name)")
        }
        let tree = try StoredValueEncoder().encode(numbers)
        #expect(try StoredValueDecoder().decode(Numbers.self, from: tree) == numbers)
        #expect(try JSONCodec.json.decode(Numbers.self, from: JSONEncoder().encode(numbers)) == numbers)

        let name = "rawcoding-readback-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: name))
        defer { defaults.removePersistentDomain(forName: name) }
        defaults.set(try tree.propertyListObject(), forKey: "numbers")
        let object = try #require(defaults.object(forKey: "numbers"))
        #expect(try StoredValueDecoder().decode(Numbers.self, from: StoredValue(propertyList: object)) == numbers)
    }

    @Test func floatExtremesReadBackThroughEveryCodec() throws {
        // Found by fuzzing: the largest Float is written as its shortest text, 3.4028235e+38,
        // which read as a Double lies just above Float's largest value and was refused.
        let floats: [Float] = [
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastNormalMagnitude, 1e38,
        ]
        for (name, codec) in Self.codecs {
            #expect(try codec.decode([Float].self, from: codec.encode(floats)) == floats, "\(name)")
        }
        #expect(try JSONCodec.json.decode(Float.self, from: "3.4028235e+38") == .greatestFiniteMagnitude)
        // A number past the largest Float by more than half a step is still refused.
        #expect(throws: RawCodingError.self) { try JSONCodec.json.decode(Float.self, from: "3.40282357e+38") }
    }

    @Test func numbersThatFitNoRequestedTypeFailAtTheirPath() throws {
        struct Money: Codable { var amount: Int64 }
        let error = #expect(throws: RawCodingError.self) {
            _ = try JSONCodec.json.decode(Money.self, from: #"{"amount":123456789012345678901234567890}"#)
        }
        #expect(error?.codingPathDescription == "amount")
        #expect(
            error?.reason.contains("123456789012345678901234567890 does not fit Int64") == true,
            "\(String(describing: error))")
    }

    @Test func propertyListsRefuseADecimalNoRealHoldsInsteadOfRoundingIt() throws {
        let exact: StoredValue = ["ok": .decimal(Decimal(string: "0.1")!)]
        #expect(try XMLPropertyListReader().read(XMLPropertyListWriter().write(exact)) == ["ok": 0.1])
        #expect(try BinaryPropertyListReader().read(BinaryPropertyListWriter().write(exact)) == ["ok": 0.1])
        let inexact: StoredValue = ["amount": .decimal(Decimal(string: "123456789012345678901234567890")!)]
        for write in [
            { try XMLPropertyListWriter().write(inexact) }, { try BinaryPropertyListWriter().write(inexact) },
        ] {
            let error = #expect(throws: RawCodingError.self) { _ = try write() }
            #expect(error?.codingPathDescription == "amount")
            #expect(error?.reason.contains("not exactly a real") == true)
        }
    }

    @Test func binaryPropertyListsRefuseDatesTheirReaderRefuses() throws {
        for seconds in [Double.infinity, -.infinity, .nan, 1e16] {
            let error = #expect(throws: RawCodingError.self) {
                _ = try PropertyListCodec.propertyList(.binary).encode([
                    "when": Date(timeIntervalSinceReferenceDate: seconds)
                ])
            }
            #expect(error?.codingPathDescription == "when", "\(seconds)")
        }
        let far = Date(timeIntervalSinceReferenceDate: 9e15)
        #expect(
            try PropertyListCodec.propertyList(.binary).decode(
                Date.self, from: PropertyListCodec.propertyList(.binary).encode(far)) == far)
    }
}

/// Random trees, as the values a codec encodes, under default and tight limits.
@Suite("Encode accepts exactly what decode reads back")
struct SymmetricLimitTests {
    /// The suite's deterministic generator (SplitMix64), so a failure reproduces.
    typealias Generator = SeededGenerator

    enum Family: String, CaseIterable, Sendable {
        case json, prettyJSON, xml, binary

        var isJSON: Bool { self == .json || self == .prettyJSON }

        var codec: any Codec { codec(.default) }

        func codec(_ limits: Limits) -> any Codec {
            switch self {
            case .json: JSONCodec(limits: limits)
            case .prettyJSON: JSONCodec(formatting: .pretty, limits: limits)
            case .xml: PropertyListCodec(format: .xml, limits: limits)
            case .binary: PropertyListCodec(format: .binary, limits: limits)
            }
        }
    }

    /// A random tree of the kinds `family` keeps as themselves (JSON has no dates or bytes;
    /// property lists hold decimals in `Decimal`'s dictionary form, and the string `$null`
    /// is their null marker).
    static func tree(_ family: Family, depth: Int, using generator: inout Generator) -> StoredValue {
        let containerChance = depth < 9 ? 4 : 0
        switch Int.random(in: 0..<(10 + containerChance), using: &generator) {
        case 0: return family.isJSON ? .null : .bool(Bool.random(using: &generator))
        case 1: return .bool(Bool.random(using: &generator))
        case 2:
            return .int(
                Int64.random(in: .min ... .max, using: &generator) >> Int64.random(in: 0...63, using: &generator))
        case 3: return .integer(UInt64.random(in: UInt64(Int64.max)...UInt64.max, using: &generator))
        case 4:
            let double = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator))
            return .double(double.isFinite ? double : Double.random(in: -1e6...1e6, using: &generator))
        case 5:
            guard family.isJSON else { return .double(Double(Int.random(in: -1000...1000, using: &generator)) / 8) }
            let digits = (0..<Int.random(in: 18...38, using: &generator)).map { _ in
                String(Int.random(in: 0...9, using: &generator))
            }
            let exponent = Int.random(in: -60...60, using: &generator)
            return .decimal(
                Decimal(string: "1" + digits.joined() + "e\(exponent)", locale: Locale(identifier: "en_US_POSIX"))!)
        case 6:
            let scalars = (0..<Int.random(in: 0...12, using: &generator)).map { _ -> Character in
                let ranges: [ClosedRange<UInt32>] = [
                    0x20...0x7E, 0x00...0x1F, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x1_0000...0x1_F6FF,
                ]
                let range = ranges.randomElement(using: &generator)!
                return Character(Unicode.Scalar(UInt32.random(in: range, using: &generator))!)
            }
            let text = String(scalars)
            // Property lists' null marker would read back as null (as Foundation's does).
            return .string(text == "$null" ? "null" : text)
        case 7:
            guard !family.isJSON else { return .string("d") }
            let seconds = Double.random(in: -6e10...6e10, using: &generator)
            return .date(
                Date(timeIntervalSinceReferenceDate: Bool.random(using: &generator) ? seconds.rounded(.down) : seconds))
        case 8:
            guard !family.isJSON else { return .int(0) }
            return .data(
                Data(
                    (0..<Int.random(in: 0...20, using: &generator)).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    }))
        case 9: return .string(["", "a", "fontSize", "é", "e\u{301}"].randomElement(using: &generator)!)
        case 10, 11:
            return .array(
                (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                    tree(family, depth: depth + 1, using: &generator)
                })
        default:
            var dictionary = StoredDictionary()
            for index in 0..<Int.random(in: 0...5, using: &generator) {
                dictionary["k\(index)\(["", "é", "_x"].randomElement(using: &generator)!)"] = tree(
                    family, depth: depth + 1, using: &generator)
            }
            return .dictionary(dictionary)
        }
    }

    /// `value` as JSON gives it back: JSON numbers have no kinds, so a decimal that an integer
    /// or a double holds exactly reads back as that integer or double.
    static func jsonForm(_ value: StoredValue) -> StoredValue {
        switch value {
        case .decimal(let decimal):
            let text = "\(decimal)"
            if let int = Int64(text) { return .int(int) }
            if let uint = UInt64(text) { return .uint(uint) }
            if let double = Double(text),
                Decimal(string: "\(double)", locale: Locale(identifier: "en_US_POSIX")) == decimal
            {
                return .double(double)
            }
            return value
        case .double(let double) where double == double.rounded() && double.magnitude < 1e16 && double != 0:
            // Integral doubles are written without a fraction (as JSONEncoder writes them).
            return .int(Int64(double))
        case .array(let elements): return .array(elements.map(jsonForm))
        case .dictionary(let dictionary):
            var result = StoredDictionary()
            for (key, element) in dictionary { result[key] = jsonForm(element) }
            return .dictionary(result)
        default: return value
        }
    }

    static let tight = Limits(maximumInputBytes: 500, maximumDepth: 3, maximumValueCount: 20)

    @Test(arguments: Family.allCases)
    func everyValueEncodeAcceptsDecodesEqualAndTightLimitsAreSymmetric(_ family: Family) throws {
        var generator = Generator(state: 0x5EED_0000 + UInt64(family.rawValue.utf8.count))
        let roomy = family.codec(Limits(maximumInputBytes: 1 << 30, maximumDepth: 1_024, maximumValueCount: 1 << 30))
        var refusedByTight = 0
        var refusedForLoss = 0
        for index in 0..<2_000 {
            // Half the values are lists of trees, so that tight limits bite often.
            let generated: StoredValue =
                index.isMultiple(of: 2)
                ? Self.tree(family, depth: 0, using: &generator)
                : .array(
                    (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                        Self.tree(family, depth: 1, using: &generator)
                    })
            let value = family.isJSON ? Self.jsonForm(generated) : generated
            // Default limits.
            do {
                let data = try family.codec.encode(value)
                let back = try family.codec.decode(StoredValue.self, from: data)
                #expect(back == value, "\(family) #\(index): \(value) read back as \(back)")
            } catch {
                // Only the XML codec refuses, and only a date with a fraction of a second or a
                // string holding U+0000, which no XML holds.
                #expect(
                    family == .xml && (error.reason.contains("whole second") || error.reason.contains("U+0000")),
                    "\(family) #\(index): \(error)")
                refusedForLoss += 1
                continue
            }
            // Tight limits: encode accepts exactly what decode (of the same value written
            // without limits) accepts.
            let unbounded = try roomy.encode(value)
            let tightCodec = family.codec(Self.tight)
            let decodable = Result { try tightCodec.decode(StoredValue.self, from: unbounded) }
            do {
                let data = try tightCodec.encode(value)
                #expect(try tightCodec.decode(StoredValue.self, from: data) == value, "\(family) #\(index)")
                if case .failure(let error) = decodable {
                    Issue.record("\(family) #\(index): encoded, but decoding refuses: \(error)")
                }
            } catch {
                refusedByTight += 1
                #expect(error.kind == .encodingFailed, "\(family) #\(index): \(error)")
                if case .success = decodable {
                    Issue.record("\(family) #\(index): refused, but decoding accepts: \(error)")
                }
            }
        }
        // Both outcomes happen often enough for the property to mean something.
        #expect(refusedByTight > 150 && refusedByTight < 1_850, "\(refusedByTight) refused by tight limits")
        #expect(family != .xml || refusedForLoss > 50, "\(refusedForLoss) refused for a date's fraction")
    }

    @Test func refusalsNameThePathOfTheValueTooDeep() throws {
        let deep: StoredValue = ["a": [["b": [[[["c": 1]]]]]]]
        let error = #expect(throws: RawCodingError.self) { _ = try JSONCodec(limits: Self.tight).encode(deep) }
        #expect(error?.codingPathDescription == "a[0].b", "\(String(describing: error))")
        #expect(error?.reason.contains("maximumDepth") == true)
    }
}
