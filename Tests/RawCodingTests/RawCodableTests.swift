import Foundation
import RawCoding
import Testing

/// A model whose raw value is an XML property list instead of JSON.
struct XMLStoredSettings: Codable, Equatable, CustomRawValueCodec {
    var theme = "dark"
    var sizes: [String: Int] = ["small": 10, "large": 20, "medium": 15]
    static var rawValueCodec: some StringCodec { .propertyList(.xml) }
}

/// A value whose encoding always fails, as a model with a broken `encode(to:)` would.
struct Unencodable: Codable, Equatable {
    struct Refused: Error {}
    init() {}
    init(from decoder: any Decoder) throws { throw Refused() }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(1, forKey: .before)
        throw EncodingError.invalidValue(
            self, .init(codingPath: container.codingPath + [CodingKeys.broken], debugDescription: "cannot encode this"))
    }
    enum CodingKeys: String, CodingKey { case before, broken }
}

/// Two of `SampleSettings`' fields, so that the others are unknown keys.
struct SampleSettingsSubset: Codable, Hashable {
    var theme = "dark"
    var fontSize = 14
}

@Suite("RawCodable")
struct RawCodableTests {
    @Test func rawValueIsCanonicalCompactJSON() {
        struct Model: Codable {
            var zebra = 1
            var apple = "a/b"
            var middle = [true]
        }
        #expect(RawCodable(Model()).rawValue == #"{"apple":"a/b","middle":[true],"zebra":1}"#)
    }

    @Test func sortsKeysByUTF8Bytes() {
        // UTF-16 order would put U+10000 (a surrogate pair, 0xD800…) before U+FF61; UTF-8 puts it after.
        let value = ["\u{10000}": 1, "\u{FF61}": 2, "é": 3, "z": 4, "Z": 5, "": 6]
        #expect(RawCodable(value).rawValue == "{\"\":6,\"Z\":5,\"z\":4,\"é\":3,\"\u{FF61}\":2,\"\u{10000}\":1}")
    }

    @Test func equalValuesGiveIdenticalRawValues() {
        var first: [String: Int] = [:]
        var second: [String: Int] = [:]
        for index in 0..<200 { first["key\(index)"] = index }
        for index in (0..<200).reversed() { second["key\(index)"] = index }
        #expect(RawCodable(first).rawValue == RawCodable(second).rawValue)
        #expect(RawCodable(XMLStoredSettings()).rawValue == RawCodable(XMLStoredSettings()).rawValue)
    }

    @Test func representsNonFiniteDoublesAsStrings() throws {
        let raw = RawCodable([Double.nan, .infinity, -.infinity, 1]).rawValue
        #expect(raw == #"["NaN","Infinity","-Infinity",1]"#)
        let decoded = try #require(RawCodable<[Double]>(rawValue: raw))
        #expect(decoded.wrappedValue[0].isNaN)
        #expect(Array(decoded.wrappedValue.dropFirst()) == [.infinity, -.infinity, 1])
    }

    @Test func roundTripsThroughRawValue() throws {
        let stored = RawCodable(SampleSettings.sample)
        let restored = try #require(RawCodable<SampleSettings>(rawValue: stored.rawValue))
        #expect(restored == stored)
    }

    @Test func dynamicMemberLookupReadsAndWrites() {
        var stored = RawCodable(SampleSettings.sample)
        #expect(stored.fontSize == 14)
        stored.fontSize += 2
        stored.account.email = nil
        #expect(stored.wrappedValue.fontSize == 16)
        #expect(stored.wrappedValue.account.email == nil)
    }

    @Test func equatableHashableAndDescription() {
        let one = RawCodable(SampleSettings.sample)
        var other = one
        #expect(one == other)
        #expect(Set([one, other]).count == 1)
        other.fontSize = 1
        #expect(one != other)
        #expect(RawCodable(42).description == "42")
        #expect(RawCodable("hi").debugDescription == #"RawCodable<Swift.String>("hi")"#)
    }

    /// Equal values have equal raw values: the unknown keys a value carries, which `rawValue`
    /// writes back, take part in `==` and `hash`.
    @Test func equalityIncludesTheUnknownKeysTheRawValueWritesBack() throws {
        let known = #"{"fontSize":14,"theme":"dark"}"#
        let withExtra = #"{"fontSize":14,"laterField":true,"theme":"dark"}"#
        let plain = try RawCodable<SampleSettingsSubset>(decoding: known)
        let carrying = try RawCodable<SampleSettingsSubset>(decoding: withExtra)
        #expect(plain.wrappedValue == carrying.wrappedValue)
        #expect(plain.rawValue != carrying.rawValue)
        #expect(plain != carrying)
        #expect(Set([plain, carrying]).count == 2)
        #expect(plain == RawCodable(plain.wrappedValue))
        let again = try RawCodable<SampleSettingsSubset>(decoding: withExtra)
        #expect(carrying == again)
        #expect(carrying.hashValue == again.hashValue)
        #expect(carrying.rawValue == again.rawValue)
    }

    @Test func codesTransparentlyInsideAnotherType() throws {
        struct Outer: Codable {
            var settings: RawCodable<SampleSettings>
            var data: RawCodable<Data>
        }
        struct Plain: Codable {
            var settings: SampleSettings
            var data: Data
        }
        let outer = Outer(settings: RawCodable(.sample), data: RawCodable(Data([1, 2])))
        let plain = Plain(settings: .sample, data: Data([1, 2]))
        for codec in CodecCase.allCases {
            #expect(try codec.codec.encode(outer) == codec.codec.encode(plain), "\(codec)")
        }
        let text = try JSONCodec.json.encodeToString(outer)
        #expect(text.hasPrefix(#"{"data":"AQI=","settings":{"#))
    }

    @Test func choosesAnotherStringCodecWithoutChangingCallSites() throws {
        let stored = RawCodable(XMLStoredSettings())
        #expect(stored.rawValue.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
        #expect(stored.rawValue.contains("<key>large</key>"))
        #expect(RawCodable<XMLStoredSettings>(rawValue: stored.rawValue) == stored)
        // Read with the type's codec too: JSON text is not an XML property list.
        let json = try JSONCodec().encodeToString(XMLStoredSettings())
        #expect(throws: RawCodingError.self) { try RawCodable<XMLStoredSettings>(decoding: json) }
        #expect(RawCodable<XMLStoredSettings>(rawValue: #"{"theme":"dark","sizes":{}}"#) == nil)
    }

    @Test func rejectsEmptyMalformedTruncatedAndWrongTypedRawValues() {
        let good = RawCodable(SampleSettings.sample).rawValue
        let rejected = [
            "", " ", "{", "null", "[]", "{}", "not json", "\"text\"",
            String(good.dropLast()), String(good.prefix(good.count / 2)),
            good.replacingOccurrences(of: #""fontSize":14"#, with: #""fontSize":"14""#),
            good.replacingOccurrences(of: #""fontSize":14"#, with: #""fontSize":1.5"#),
            good + "x", "\u{FEFF}" + good.dropFirst(),
        ]
        for raw in rejected {
            #expect(RawCodable<SampleSettings>(rawValue: raw) == nil, "accepted \(raw.prefix(60))")
        }
        #expect(RawCodable<Int>(rawValue: "300") != nil)
        #expect(RawCodable<Int8>(rawValue: "300") == nil)
        #expect(RawCodable<UInt>(rawValue: "-1") == nil)
    }

    @Test func rejectsTenMegabyteInputsQuicklyAndAcceptsThemWithRaisedLimits() throws {
        let big = Array(repeating: "0123456789", count: 1_048_576)  // 10 MiB of strings plus JSON
        let roomy = JSONCodec(limits: Limits(maximumInputBytes: 64 << 20))
        let raw = try roomy.encodeToString(big)
        #expect(raw.utf8.count > 10_000_000)
        #expect(RawCodable<[String]>(rawValue: raw) == nil)
        #expect(RawCodable<[String]>(rawValue: String(repeating: "[", count: 10_000_000)) == nil)
        let error = #expect(throws: RawCodingError.self) { try RawCodable<[String]>(decoding: raw) }
        #expect(error?.kind == .limitExceeded)
        #expect(error?.description.contains("Limits.maximumInputBytes") == true)
        #expect(try roomy.decode([String].self, from: raw).count == 1_048_576)
        // What the default limits would not read back, they do not write either.
        let refused = #expect(throws: RawCodingError.self) { _ = try JSONCodec.json.encodeToString(big) }
        #expect(refused?.kind == .encodingFailed)
        #expect(refused?.reason.contains("Limits.maximumInputBytes") == true)
        #expect(RawCodable(big).rawValue == "")
    }

    @Test func throwingDecodeNamesTheCodingPath() {
        var raw = RawCodable(SampleSettings.sample).rawValue
        raw = raw.replacingOccurrences(of: #""email":"me@example.com""#, with: #""email":42"#)
        let error = #expect(throws: RawCodingError.self) { try RawCodable<SampleSettings>(decoding: raw) }
        #expect(error?.kind == .decodingFailed)
        #expect(error?.codingPathDescription == "account.email")
        #expect(error?.description.contains("account.email") == true)
        #expect(error?.typeName.hasSuffix("SampleSettings") == true)

        let missing = #expect(throws: RawCodingError.self) {
            try RawCodable<SampleSettings>(decoding: #"{"fontSize":1}"#)
        }
        #expect(missing?.description.contains("required key") == true)

        let inArray = #expect(throws: RawCodingError.self) {
            try RawCodable<[SampleSettings.Account]>(decoding: #"[{"id":1,"joined":0},{"id":"x","joined":0}]"#)
        }
        #expect(inArray?.codingPathDescription == "[1].id")
    }

    @Test func reportsEncodingFailuresAndReturnsTheDocumentedFallback() throws {
        let reported = Collected<RawCodingError>()
        let raw = RawCodingDiagnostics.withHandler({ reported.append($0.error) }) {
            RawCodable(Unencodable()).rawValue
        }
        #expect(raw == "")
        #expect(RawCodable<Unencodable>(rawValue: raw) == nil)
        let error = try #require(reported.all.first)
        #expect(reported.all.count == 1)
        #expect(error.kind == .encodingFailed)
        #expect(error.codingPathDescription == "broken")
        #expect(throws: RawCodingError.self) { try RawCodable(Unencodable()).encodedRawValue() }
    }

    @Test func storedTextThatDoesNotDecodeIsReportedOnceWithItsOwnKind() {
        let reported = Collected<RawCodingDiagnostics.Event>()
        RawCodingDiagnostics.withHandler({ reported.append($0) }) {
            #expect(RawCodable<SampleSettings>(rawValue: #"{"theme":"dark"}"#) == nil)
        }
        #expect(reported.all.map(\.kind) == [.storedValueDidNotDecode])
        #expect(reported.all.first?.error.kind == .decodingFailed)
        #expect(reported.all.first?.error.typeName.hasSuffix("SampleSettings") == true, "\(reported.all)")

        // Empty text is what a failed rawValue returns, already reported there.
        let empty = Collected<RawCodingDiagnostics.Event>()
        RawCodingDiagnostics.withHandler({ empty.append($0) }) {
            #expect(RawCodable<Int>(rawValue: "") == nil)
            #expect(RawCodable<Int>(rawValue: "7")?.wrappedValue == 7)
        }
        #expect(empty.all.isEmpty, "\(empty.all)")
    }
}
