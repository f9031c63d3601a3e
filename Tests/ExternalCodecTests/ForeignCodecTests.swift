import Foundation
import RawCoding
import RawCodingTesting
import Testing

// A codec written outside the package, against the public API only (no @testable): Foundation's
// JSON coders behind `StringCodec`, reporting every failure as a `RawCodingError`.

/// Foundation's `JSONEncoder`/`JSONDecoder` as a RawCoding codec.
struct FoundationJSONCodec: StringCodec {
    var fileExtension: String { "foundation.json" }

    func encode<Value: Encodable>(_ value: Value) throws(RawCodingError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch {
            throw RawCodingError.encoding(error, of: Value.self)
        }
    }

    func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws(RawCodingError) -> Value {
        // Its own rule, reported in RawCoding's error type: no byte-order mark.
        if data.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw RawCodingError(
                kind: .decodingFailed, typeName: String(reflecting: type),
                reason: "the text starts with a byte-order mark, which this codec does not accept",
                position: InputPosition(byteOffset: 0, line: 1, column: 1))
        }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw RawCodingError.decoding(error, of: Value.self)
        }
    }

    func encodeToString<Value: Encodable>(_ value: Value) throws(RawCodingError) -> String {
        String(decoding: try encode(value), as: UTF8.self)
    }

    func decode<Value: Decodable>(_ type: Value.Type, from string: String) throws(RawCodingError) -> Value {
        try decode(type, from: Data(string.utf8))
    }
}

struct Profile: Codable, Equatable, CustomRawValueCodec {
    var name: String
    var tags: [String]
    var scores: [String: Int]

    static var rawValueCodec: FoundationJSONCodec { FoundationJSONCodec() }

    static let sample = Profile(name: "Ada", tags: ["math", "engines"], scores: ["chess": 3, "go": 5])
}

@Suite("A codec defined outside the package")
struct ForeignCodecTests {
    @Test func rawCodableUsesTheForeignCodec() throws {
        let stored = RawCodable(Profile.sample)
        #expect(stored.rawValue == #"{"name":"Ada","scores":{"chess":3,"go":5},"tags":["math","engines"]}"#)
        #expect(RawCodable<Profile>(rawValue: stored.rawValue)?.wrappedValue == Profile.sample)
        #expect(type(of: RawCodable<Profile>.codec) == FoundationJSONCodec.self)
    }

    @Test func fixturesRoundTripThroughTheForeignCodec() {
        expectRoundTrip(of: Profile.sample, fixture: "Profile", FoundationJSONCodec())
    }

    @Test func itsOwnErrorsAreRawCodingErrorsWithPathAndPosition() throws {
        let wrapped = #expect(throws: RawCodingError.self) {
            _ = try RawCodable<Profile>(decoding: #"{"name":"Ada","tags":["x",7],"scores":{}}"#)
        }
        #expect(wrapped?.kind == .decodingFailed)
        #expect(wrapped?.codingPathDescription == "tags[1]")
        #expect(wrapped?.typeName.hasSuffix("Profile") == true)

        let own = #expect(throws: RawCodingError.self) {
            _ = try FoundationJSONCodec().decode(Profile.self, from: Data([0xEF, 0xBB, 0xBF]) + Data("{}".utf8))
        }
        #expect(own?.reason.contains("byte-order mark") == true)
        #expect(own?.position == InputPosition(byteOffset: 0, line: 1, column: 1))

        // Reported, not swallowed, when init?(rawValue:) is given such text.
        let reported = Reports()
        RawCodingDiagnostics.withHandler({ reported.append($0) }) {
            #expect(RawCodable<Profile>(rawValue: "\u{FEFF}{}") == nil)
        }
        #expect(reported.events.map(\.kind) == [.storedValueDidNotDecode])
    }

    @Test func snakeCaseISO8601JSONCodecMatchesJSONEncoderByteForByte() throws {
        struct Event: Codable, Equatable {
            var eventName: String
            var startsAt: Date
            var attendeeCount: Int
            var isPublic: Bool
            var ticketPrice: Double
            var venueDetails: [String: String]
        }
        let event = Event(
            eventName: "Launch / Party", startsAt: Date(timeIntervalSince1970: 1_764_528_258),
            attendeeCount: 42, isPublic: true, ticketPrice: 12.5, venueDetails: ["roomName": "A", "floor_level": "2"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let codec = JSONCodec(dates: .iso8601, keys: .snakeCase)
        let ours = try codec.encode(event)
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: try encoder.encode(event), as: UTF8.self))
        #expect(try codec.decode(Event.self, from: ours) == event)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode(Event.self, from: ours) == event)
    }
}

/// Events collected from a diagnostics handler.
final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [RawCodingDiagnostics.Event] = []

    func append(_ event: RawCodingDiagnostics.Event) {
        lock.lock()
        collected.append(event)
        lock.unlock()
    }

    var events: [RawCodingDiagnostics.Event] {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }
}
