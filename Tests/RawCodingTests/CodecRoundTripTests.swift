import Foundation
import RawCoding
import Testing

@Suite("Round trips through every codec")
struct CodecRoundTripTests {
    @Test(arguments: CodecCase.allCases)
    func roundTripsSampleSettings(_ codec: CodecCase) throws {
        let (decoded, _) = try roundTrip(SampleSettings.sample, codec.codec)
        #expect(decoded == SampleSettings.sample)
    }

    @Test(arguments: CodecCase.allCases)
    func roundTripsEnumsWithAssociatedValues(_ codec: CodecCase) throws {
        let shapes: [Shape] = [
            .point, .circle(radius: 2.5),
            .polygon([.point, .circle(radius: 1), .polygon([])]),
            .labelled("tag", nil), .labelled("", .labelled("inner", .point)),
        ]
        let (decoded, _) = try roundTrip(shapes, codec.codec)
        #expect(decoded == shapes)
    }

    @Test(arguments: CodecCase.allCases)
    func roundTripsOptionals(_ codec: CodecCase) throws {
        let (decoded, _) = try roundTrip(Optionals(), codec.codec)
        #expect(decoded.none == nil)
        #expect(decoded.some == 7)
        #expect(decoded.array == [1, nil, 3])
    }

    @Test(arguments: CodecCase.allCases)
    func roundTripsNestedRawCodable(_ codec: CodecCase) throws {
        let document = Document(
            title: "nested", settings: RawCodable(.sample),
            twice: RawCodable(RawCodable(.circle(radius: 3))), optional: RawCodable(5))
        let (decoded, _) = try roundTrip(document, codec.codec)
        #expect(decoded == document)
    }

    @Test(arguments: CodecCase.allCases)
    func roundTripsFoundationValues(_ codec: CodecCase) throws {
        let (decoded, _) = try roundTrip(FoundationValues(), codec.codec)
        #expect(decoded == FoundationValues())
    }

    @Test(arguments: CodecCase.allCases)
    func roundTripsExtremeNumbers(_ codec: CodecCase) throws {
        let (decoded, _) = try roundTrip(ExtremeNumbers(), codec.codec)
        #expect(decoded == ExtremeNumbers())
        #expect(decoded.uint64Max == UInt64.max)
        #expect(decoded.int64Min == Int64.min)
    }

    @Test(arguments: CodecCase.allCases)
    func roundTripsNegativeZeroWithItsSign(_ codec: CodecCase) throws {
        let (decoded, _) = try roundTrip([-0.0], codec.codec)
        #expect(decoded[0] == 0 && decoded[0].sign == .minus)
    }

    @Test(arguments: CodecCase.allCases)
    func encodesNonFiniteDoublesWithoutFailing(_ codec: CodecCase) throws {
        let (decoded, _) = try roundTrip(NonFinite(), codec.codec)
        #expect(decoded.positive == .infinity)
        #expect(decoded.negative == -.infinity)
        #expect(decoded.notANumber.isNaN)
        #expect(decoded.float == .infinity)
    }

    @Test(arguments: CodecCase.allCases)
    func roundTripsUnicodeAndEmptyKeys(_ codec: CodecCase) throws {
        guard codec == .xmlPropertyList else {
            let (decoded, _) = try roundTrip(UnicodeKeys(), codec.codec)
            #expect(decoded == UnicodeKeys())
            return
        }
        // No XML holds U+0000: the XML codec refuses that key (with its path) and takes the rest.
        let error = #expect(throws: RawCodingError.self) { try codec.codec.encode(UnicodeKeys()) }
        #expect(error?.codingPathDescription.hasPrefix("values.nul") == true, "\(String(describing: error))")
        var withoutNUL = UnicodeKeys()
        withoutNUL.values["nul\u{0}"] = nil
        let (decoded, _) = try roundTrip(withoutNUL, codec.codec)
        #expect(decoded == withoutNUL)
    }

    @Test(arguments: CodecCase.allCases)
    func roundTripsEmptyContainers(_ codec: CodecCase) throws {
        let (decoded, _) = try roundTrip(EmptyContainers(), codec.codec)
        #expect(decoded == EmptyContainers())
    }

    @Test(arguments: CodecCase.allCases)
    func roundTripsTopLevelScalars(_ codec: CodecCase) throws {
        let codec = codec.codec
        #expect(try roundTrip(42, codec).0 == 42)
        #expect(try roundTrip(Int64.min, codec).0 == Int64.min)
        #expect(try roundTrip(UInt64.max, codec).0 == UInt64.max)
        #expect(try roundTrip("text with <xml> & \"quotes\"\n", codec).0 == "text with <xml> & \"quotes\"\n")
        #expect(try roundTrip("", codec).0 == "")
        #expect(try roundTrip(true, codec).0 == true)
        #expect(try roundTrip(false, codec).0 == false)
        #expect(try roundTrip(1.5, codec).0 == 1.5)
        #expect(try roundTrip(Double.infinity, codec).0 == .infinity)
        #expect(
            try roundTrip(Date(timeIntervalSinceReferenceDate: 86_400), codec).0
                == Date(timeIntervalSinceReferenceDate: 86_400))
        #expect(try roundTrip(Data([1, 2, 3]), codec).0 == Data([1, 2, 3]))
        #expect(try roundTrip(Data(), codec).0 == Data())
        #expect(try roundTrip(Int?.none, codec).0 == nil)
        #expect(try roundTrip(Int?.some(9), codec).0 == 9)
        #expect(try roundTrip(String?.none, codec).0 == nil)
        #expect(try roundTrip(Decimal(string: "3.25")!, codec).0 == Decimal(string: "3.25")!)
        #expect(try roundTrip(URL(string: "https://example.com/a")!, codec).0 == URL(string: "https://example.com/a")!)
    }

    @Test(arguments: CodecCase.allCases)
    func keepsFractionalSecondsOrRefusesToDropThem(_ codec: CodecCase) throws {
        let date = Date(timeIntervalSinceReferenceDate: 12.75)
        if codec.keepsFractionalSeconds {
            #expect(try roundTrip(date, codec.codec).0 == date)
        } else {
            struct Event: Codable { var at: Date }
            let error = #expect(throws: RawCodingError.self) { _ = try codec.codec.encode([Event(at: date)]) }
            #expect(error?.kind == .encodingFailed)
            #expect(error?.codingPathDescription == "[0].at")
            #expect(error?.reason.contains("whole second") == true, "\(String(describing: error))")
            let whole = Date(timeIntervalSinceReferenceDate: 12)
            #expect(try roundTrip(whole, codec.codec).0 == whole)
        }
    }

    @Test(arguments: CodecCase.allCases)
    func equalValuesEncodeToIdenticalBytes(_ codec: CodecCase) throws {
        // Equal values whose dictionaries iterate in different orders.
        struct Catalog: Codable, Equatable {
            var settings: SampleSettings
            var scores: [String: Int]
        }
        let (scores, reordered) = try equalDictionariesInOtherOrders()
        let first = try codec.codec.encode(Catalog(settings: .sample, scores: scores))
        let second = try codec.codec.encode(Catalog(settings: .sample, scores: reordered))
        #expect(first == second)
        let decoded = try codec.codec.decode(Catalog.self, from: first)
        #expect(decoded == Catalog(settings: .sample, scores: scores))
        #expect(try codec.codec.encode(decoded) == first)
    }

    @Test func topLevelScalarPropertyListsAreReadableByFoundation() throws {
        let xml = try PropertyListCodec.propertyList(.xml).encode(42)
        let binary = try PropertyListCodec.propertyList(.binary).encode("hello")
        #expect(try PropertyListDecoder().decode(Int.self, from: xml) == 42)
        #expect(try PropertyListDecoder().decode(String.self, from: binary) == "hello")
        #expect(
            String(decoding: xml, as: UTF8.self).contains("<plist version=\"1.0\">\n<integer>42</integer>\n</plist>"))
    }

    @Test func xmlPropertyListIsAStringCodec() throws {
        let codec = PropertyListCodec.propertyList(.xml)
        let text = try codec.encodeToString(SampleSettings.sample)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
        #expect(try codec.decode(SampleSettings.self, from: text) == SampleSettings.sample)
    }

    @Test func staticFactoriesReadAsTheFormat() throws {
        func encode(_ value: Int, with codec: some Codec) throws -> Data { try codec.encode(value) }
        func text(_ value: Int, with codec: some StringCodec) throws -> String { try codec.encodeToString(value) }
        #expect(try text(1, with: .json) == "1")
        #expect(try text(1, with: .json(.pretty)) == "1")
        #expect(try text(1, with: .propertyList(.xml)).contains("<integer>1</integer>"))
        #expect(try encode(1, with: .propertyList(.binary)).starts(with: Array("bplist00".utf8)))
    }
}
