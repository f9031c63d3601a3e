import Foundation
import RawCoding
import Testing

extension PropertyListEncoderPort {
    /// The encoder's state after an error, shared references, reals refused, date text, and
    /// the cases written for Apple's frameworks.
    static let remaining: [PortedCase] = [
        PortedCase(.propertyList, "encoderStateThrowOnEncode") { () throws in
            struct Refusal: Error {}
            struct Throwing: Encodable {
                func encode(to encoder: any Encoder) throws { throw Refusal() }
            }
            /// Throws from within a super encoder's nested container.
            struct Wrapper: Encodable {
                let value: [Throwing]
                func encode(to encoder: any Encoder) throws {
                    var container = encoder.unkeyedContainer()
                    var nested = container.superEncoder().unkeyedContainer()
                    try nested.encode(value)
                }
            }
            for codec in [xml, binary] as [any Codec] {
                let error = #expect(throws: RawCodingError.self) { try codec.encode(Wrapper(value: [Throwing()])) }
                // The model's own error, as it threw it (an error of its own type carries no
                // coding path; an EncodingError's path is reported, as in the JSON case).
                #expect(error?.underlyingError is Refusal, "\(String(describing: error))")
                #expect(error?.kind == .encodingFailed)
            }
        },
        PortedCase(
            .propertyList, "archiving",
            .keptDifference(
                "NSKeyedArchiver's Codable calls exist only in Apple's Foundation (the suite runs the case only there); the case's value round-trips through both layouts instead"
            )
        ) { () throws in
            struct CodableType: Codable, Equatable {
                let willBeNil: String?
                let arrayOfOptionals: [String?]
                let dictionaryOfArrays: [String: [Data]]
            }
            let value = CodableType(
                willBeNil: nil, arrayOfOptionals: ["a", "b", nil, "c"],
                dictionaryOfArrays: ["data": [Data([0xfe, 0xed, 0xfa, 0xce]), Data([0xba, 0xaa, 0xaa, 0xad])]])
            try Port.roundTripPropertyList(value)
        },
        PortedCase(.propertyList, "bad_XMLReals") { () throws in
            let reals = [
                "<real>0x10</real>", "<real>notanumber</real>", "<real>infinite</real>", "<real>1.2.3</real>",
                "<real>1.e</real>", "<real>1.5  </real>", "<real></real>",
            ]
            for real in reals {
                #expect(fails(Float.self, Data(real.utf8)), "\(real)")
                #expect(fails(Float.self, document(real)), "\(real) in a document")
            }
            // Leading whitespace is allowed, as Core Foundation allows it.
            #expect(try xml.decode(Float.self, from: Data("<real>  1.5</real>".utf8)) == 1.5)
        },
        PortedCase(.propertyList, "bplistCollectionReferences") { () throws in
            // Core Foundation's writer (PropertyListSerialization, here as on Apple's systems)
            // writes a collection met twice once, and refers to it from each place.
            let inner: NSArray = ["a", "a", "a"]
            let middle: NSArray = [inner, inner, inner]
            let outer: NSArray = [middle, middle, middle]
            let root: NSDictionary = ["a": outer, "b": middle, "c": inner]
            let data = try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
            struct References: Decodable {
                let a: [[[String]]]
                let b: [[String]]
                let c: [String]
            }
            let decoded = try binary.decode(References.self, from: data)
            #expect(decoded.c == ["a", "a", "a"])
            #expect(decoded.b == Array(repeating: decoded.c, count: 3))
            #expect(decoded.a == Array(repeating: decoded.b, count: 3))
        },
        PortedCase(.propertyList, "encode_122065123") { () throws in
            let date = Date(timeIntervalSinceReferenceDate: 728_512_994)
            let text = String(decoding: try xml.encode([date]), as: UTF8.self)
            #expect(text.contains("<array>\n\t<date>2024-02-01T20:43:14Z</date>\n</array>"), "\(text)")
        },
        PortedCase(
            .propertyList, "decodingCompatibility_122065123",
            .keptDifference(
                "invalid date text such as 2024-01-32 is refused with the path, not rolled over into the next month")
        ) { () throws in
            let error = #expect(throws: RawCodingError.self) {
                try xml.decode([Date].self, from: document("<array><date>2024-01-32T20:43:14Z</date></array>"))
            }
            #expect(error?.codingPathDescription == "[0]", "\(String(describing: error))")
        },
        PortedCase(
            .propertyList, "customSubclass",
            .keptDifference(
                "codecs are values configured by their properties, not classes to subclass; the layout is the codec's format"
            )
        ) { () throws in
            let text = String(decoding: try xml.encode(["hello": "world"]), as: UTF8.self)
            #expect(text.hasPrefix("<?xml"))
            #expect(try binary.encode(["hello": "world"]).starts(with: Data("bplist00".utf8)))
        },
    ]
}
