import Foundation
import RawCoding
import Testing

/// `JSONCodec`'s date, data, key and non-finite options: each reads back what it writes, and
/// refuses to write what it could not.
@Suite("JSONCodec options")
struct JSONCodecOptionsTests {
    struct Event: Codable, Equatable {
        var title: String
        var at: Date
        var payload: Data
    }

    @Test func iso8601KeepsFractionsExactlyAndWholeSecondsAsFoundationWritesThem() throws {
        let codec = JSONCodec(dates: .iso8601)
        let whole = Event(title: "a", at: Date(timeIntervalSince1970: 1_764_528_258), payload: Data([1]))
        #expect(try codec.encodeToString(whole) == #"{"at":"2025-11-30T18:44:18Z","payload":"AQ==","title":"a"}"#)
        let cases: [Double] = [0.25, 0.5, 0.001, 812_345_678.123456, -1.5, 1e-7, 63_113_904_000.75, -63_113_904_000]
        for seconds in cases {
            let event = Event(title: "t", at: Date(timeIntervalSinceReferenceDate: seconds), payload: Data())
            let text = try codec.encodeToString(event)
            #expect(try codec.decode(Event.self, from: text) == event, "\(seconds): \(text)")
        }
        #expect(
            try codec.encodeToString([Date(timeIntervalSinceReferenceDate: 0.25)]) == #"["2001-01-01T00:00:00.25Z"]"#)
        // Offsets other writers use read too.
        #expect(
            try codec.decode([Date].self, from: #"["2001-01-01T01:00:00+01:00"]"#) == [
                Date(timeIntervalSinceReferenceDate: 0)
            ])
        let refused = #expect(throws: RawCodingError.self) {
            _ = try codec.encode(["when": Date(timeIntervalSinceReferenceDate: 1e13)])
        }
        #expect(refused?.codingPathDescription == "when")
        let malformed = #expect(throws: RawCodingError.self) {
            _ = try codec.decode([Date].self, from: #"["yesterday"]"#)
        }
        #expect(malformed?.codingPathDescription == "[0]")
    }

    @Test func secondsSince1970KeepsEveryDateExactly() throws {
        let codec = JSONCodec(dates: .secondsSince1970)
        let simple = Date(timeIntervalSince1970: 1_764_528_258.5)
        #expect(try codec.encodeToString(simple) == "1764528258.5")
        #expect(try codec.decode(Date.self, from: "1764528258") == Date(timeIntervalSince1970: 1_764_528_258))
        // Many dates' Double since 1970 rounds (these two do); the digits written do not.
        for seconds in [812_345_678.123, 1_500_000_000.3] {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            #expect(Date(timeIntervalSince1970: date.timeIntervalSince1970) != date)
            let text = try codec.encodeToString(date)
            #expect(try codec.decode(Date.self, from: text) == date, "\(seconds): \(text)")
        }
        var generator = SeededGenerator(state: 1_970)
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...2e9, using: &generator))
            let text = try codec.encodeToString([date])
            #expect(
                try codec.decode([Date].self, from: text) == [date], "\(date.timeIntervalSinceReferenceDate): \(text)")
        }
        let error = #expect(throws: RawCodingError.self) {
            _ = try codec.encode(["when": Date(timeIntervalSinceReferenceDate: 1e-300)])
        }
        #expect(error?.codingPathDescription == "when")
        #expect(error?.reason.contains("secondsSinceReferenceDate") == true)
    }

    @Test func millisecondsSince1970KeepsEveryDateExactlyAndReadsWhatJSONEncoderWrites() throws {
        let codec = JSONCodec(dates: .millisecondsSince1970)
        let whole = Date(timeIntervalSince1970: 1_764_528_258.25)
        #expect(try codec.encodeToString(whole) == "1764528258250")
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        #expect(try codec.decode(Date.self, from: encoder.encode(whole)) == whole)
        #expect(try decoder.decode(Date.self, from: codec.encode(whole)) == whole)
        var generator = SeededGenerator(state: 1_000)
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...2e9, using: &generator))
            let text = try codec.encodeToString(["at": date])
            #expect(
                try codec.decode([String: Date].self, from: text) == ["at": date],
                "\(date.timeIntervalSinceReferenceDate): \(text)")
        }
        let error = #expect(throws: RawCodingError.self) {
            _ = try codec.encode(["when": Date(timeIntervalSinceReferenceDate: 1e-300)])
        }
        #expect(error?.codingPathDescription == "when")
        #expect(error?.reason.contains("milliseconds since 1970") == true)
        let notADate = #expect(throws: RawCodingError.self) { _ = try codec.decode([Date].self, from: #"["soon"]"#) }
        #expect(notADate?.codingPathDescription == "[0]")
    }

    /// ISO 8601 as APIs send it: fractions of any length read as their text reads, and a date
    /// alone as midnight UTC; the scan and the tree agree on every form.
    @Test func iso8601ReadsFractionsAndDatesAloneOnTheScanAsOnTheTree() throws {
        let codec = JSONCodec(dates: .iso8601)
        #expect(
            try codec.decode([Date].self, from: #"["2025-11-30"]"#) == [Date(timeIntervalSince1970: 1_764_460_800)])
        var generator = SeededGenerator(state: 8_601)
        for _ in 0..<500 {
            let digits = Int.random(in: 1...20, using: &generator)
            let fraction = String((0..<digits).map { _ in "0123456789".randomElement(using: &generator)! })
            let text = "2025-02-28T23:59:59.\(fraction)Z"
            let expected = Date(
                timeIntervalSinceReferenceDate: Double(1_740_787_199 - 978_307_200) + Double("0.\(fraction)")!)
            let json = Data(#"{"at":"\#(text)"}"#.utf8)
            #expect(try codec.decode([String: Date].self, from: json) == ["at": expected], "\(text)")
            #expect(try codec.decode([String: Date].self, fromTree: codec.readTree(from: json)) == ["at": expected])
        }
        for malformed in ["2026-02-30", "2026-11-30T", "2026-11-30T10:00:00", "2026-11-30T10:00:00.Z", "2026-1-30"] {
            let json = Data(#"["\#(malformed)"]"#.utf8)
            let error = #expect(throws: RawCodingError.self, "\(malformed)") {
                _ = try codec.decode([Date].self, from: json)
            }
            #expect(error?.codingPathDescription == "[0]")
        }
    }

    struct Stamp: Codable, Equatable {
        var at: Date
        var blob: Data
        var later: [Date]
    }

    /// Dates as a TootSDK-like client reads them: text in an ISO 8601 formatter's form.
    static let stampDates = JSONCodec.DateStrategy.custom(
        encode: { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode("t\(date.timeIntervalSinceReferenceDate)")
        },
        decode: { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard text.first == "t", let seconds = Double(text.dropFirst()) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a stamp: \(text)")
            }
            return Date(timeIntervalSinceReferenceDate: seconds)
        })

    /// Bytes as hexadecimal text, in a keyed container of their own.
    static let hexData = JSONCodec.DataStrategy.custom(
        encode: { data, encoder in
            var container = encoder.container(keyedBy: SinkEncodingTests.StoredCodingKeyForTests.self)
            try container.encode(
                data.map { String($0, radix: 16) }.joined(separator: "."),
                forKey: SinkEncodingTests.StoredCodingKeyForTests(stringValue: "hex"))
        },
        decode: { decoder in
            let container = try decoder.container(keyedBy: SinkEncodingTests.StoredCodingKeyForTests.self)
            let text = try container.decode(
                String.self, forKey: SinkEncodingTests.StoredCodingKeyForTests(stringValue: "hex"))
            return Data(
                try text.split(separator: ".").map { part in
                    guard let byte = UInt8(part, radix: 16) else {
                        throw DecodingError.dataCorrupted(
                            .init(codingPath: container.codingPath, debugDescription: "not a byte: \(part)"))
                    }
                    return byte
                })
        })

    /// Custom strategies are called where `JSONEncoder` and `JSONDecoder` call theirs, from the
    /// scan as from the tree, and their errors carry the value's path.
    @Test func customDateAndDataStrategiesWriteAndReadThroughTheirClosures() throws {
        let codec = JSONCodec(dates: Self.stampDates, data: Self.hexData)
        let stamp = Stamp(
            at: Date(timeIntervalSinceReferenceDate: 12.5), blob: Data([1, 171]),
            later: [Date(timeIntervalSinceReferenceDate: -3)])
        let text = try codec.encodeToString(stamp)
        #expect(text == #"{"at":"t12.5","blob":{"hex":"1.ab"},"later":["t-3.0"]}"#)
        #expect(try codec.writeTree(codec.encodeTree(stamp)) == Data(text.utf8))
        #expect(try codec.decode(Stamp.self, from: text) == stamp)
        #expect(try codec.decode(Stamp.self, fromTree: codec.readTree(from: Data(text.utf8))) == stamp)
        // What Foundation's coders with the same closures write and read.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode("t\(date.timeIntervalSinceReferenceDate)")
        }
        encoder.dataEncodingStrategy = .custom { data, encoder in
            var container = encoder.container(keyedBy: SinkEncodingTests.StoredCodingKeyForTests.self)
            try container.encode(
                data.map { String($0, radix: 16) }.joined(separator: "."),
                forKey: SinkEncodingTests.StoredCodingKeyForTests(stringValue: "hex"))
        }
        #expect(String(decoding: try encoder.encode(stamp), as: UTF8.self) == text)
        // A closure's error, with the path of the value it was reading.
        for bad in [
            (#"{"at":"x","blob":{"hex":"1"},"later":[]}"#, "at"),
            (#"{"at":"t1","blob":{"hex":"1"},"later":["t2","y"]}"#, "later[1]"),
            (#"{"at":"t1","blob":{"hex":"zz"},"later":[]}"#, "blob"),
            (#"{"at":"t1","blob":{"nothex":"1"},"later":[]}"#, "blob.hex"),
        ] {
            let error = #expect(throws: RawCodingError.self, "\(bad.0)") {
                _ = try codec.decode(Stamp.self, from: bad.0)
            }
            #expect(error?.codingPathDescription == bad.1, "\(bad.0)")
        }
        // Strategies compare as the closures' holder: the same one is equal, another is not.
        #expect(JSONCodec(dates: Self.stampDates) == JSONCodec(dates: Self.stampDates))
        #expect(
            JSONCodec(dates: Self.stampDates) != JSONCodec(dates: .custom(encode: { _, _ in }, decode: { _ in .now })))
    }

    @Test func snakeCaseRefusesAKeyItCouldNotReadBack() throws {
        struct Links: Codable, Equatable {
            var homePage: String
            var extra: [String: Int]
        }
        struct Legacy: Codable { var profileURL: String }
        let codec = JSONCodec(keys: .snakeCase)
        let links = Links(homePage: "x", extra: ["keepMe": 1])
        #expect(try codec.encodeToString(links) == #"{"extra":{"keepMe":1},"home_page":"x"}"#)
        #expect(try codec.decode(Links.self, from: codec.encode(links)) == links)
        let error = #expect(throws: RawCodingError.self) { _ = try codec.encode([Legacy(profileURL: "u")]) }
        #expect(error?.codingPathDescription == "[0].profileURL")
        #expect(error?.reason.contains("profile_url") == true, "\(String(describing: error))")
    }

    @Test func dataAndNonFiniteOptions() throws {
        let bytes = JSONCodec(data: .byteArray)
        #expect(try bytes.encodeToString(Data([1, 255])) == "[1,255]")
        #expect(try bytes.decode(Data.self, from: "[1,255]") == Data([1, 255]))
        let strict = JSONCodec(nonFiniteNumbers: .throw)
        #expect(throws: RawCodingError.self) { _ = try strict.encode([Double.nan]) }
        let custom = JSONCodec(
            nonFiniteNumbers: .strings(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan"))
        #expect(try custom.encodeToString([Double.infinity]) == #"["+inf"]"#)
        #expect(try custom.decode([Double].self, from: #"["-inf"]"#) == [-.infinity])
        // Options are part of the codec's value.
        #expect(JSONCodec(dates: .iso8601) != JSONCodec.json)
        #expect(JSONCodec(dates: .iso8601) == JSONCodec(dates: .iso8601))
    }
}

/// A malformed document's error names the requested type, the path inside the document and
/// where in the input.
@Suite("Errors that say where")
struct ErrorLocationTests {
    struct Item: Codable { var name: String }
    struct Order: Codable { var items: [Item] }

    @Test func jsonSyntaxErrorNamesTypePathAndLineAndColumn() throws {
        let text = """
            {"items": [
              {"name": "a"},
              {"name": "b"},
              {"name": tru}
            ]}
            """
        let error = #expect(throws: RawCodingError.self) { _ = try JSONCodec.json.decode(Order.self, from: text) }
        #expect(error?.typeName.hasSuffix("Order") == true)
        #expect(error?.codingPathDescription == "items[2].name")
        #expect(error?.position?.line == 4)
        #expect(error?.position?.column == 15)  // the "}" where "true" should go on
        #expect(error?.description.contains("Could not decode") == true)
    }

    @Test func xmlSyntaxErrorNamesTypePathAndLineAndColumn() throws {
        let good = try PropertyListCodec.propertyList(.xml).encodeToString(
            Order(items: [Item(name: "a"), Item(name: "b"), Item(name: "c")]))
        let broken = good.replacingOccurrences(of: "<string>c</string>", with: "<string>c</strin>")
        let error = #expect(throws: RawCodingError.self) {
            _ = try PropertyListCodec.propertyList(.xml).decode(Order.self, from: broken)
        }
        #expect(error?.typeName.hasSuffix("Order") == true)
        #expect(error?.codingPathDescription == "items[2].name")
        let line = try #require(error?.position?.line)
        let lines = broken.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[line - 1].contains("</strin>"), "line \(line): \(lines[line - 1])")
        #expect(error?.position?.column != nil)
    }

    @Test func binaryErrorNamesTypePathAndByteOffset() throws {
        var bytes = try [UInt8](
            PropertyListCodec.propertyList(.binary).encode(
                Order(items: [Item(name: "a"), Item(name: "b"), Item(name: "c")])))
        // The string "c" is the one-byte ASCII object 0x51 0x63; make it claim 15+ bytes.
        let index = try #require(bytes.indices.first { bytes[$0] == 0x51 && bytes[$0 + 1] == UInt8(ascii: "c") })
        bytes[index] = 0x5E
        let error = #expect(throws: RawCodingError.self) {
            _ = try PropertyListCodec.propertyList(.binary).decode(Order.self, from: Data(bytes))
        }
        #expect(error?.typeName.hasSuffix("Order") == true)
        #expect(error?.codingPathDescription == "items[2].name", "\(String(describing: error))")
        #expect(error?.position?.byteOffset == index)
        #expect(error?.position?.line == nil)
    }
}
