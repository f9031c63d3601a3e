import Foundation
import RawCoding
import RawCodingTesting
import Testing

/// How the first difference between the expected and the decoded value is named, seen through
/// the messages of `expectRoundTrip` with fixtures written to disagree.
@Suite("Key path of the first difference", .fixtures(FixtureConfiguration(environment: quietEnvironment)))
struct ValueDifferenceTests {
    struct Event: Codable, Equatable {
        var title: String
        var at: Date
    }

    struct Scores: Codable, Equatable {
        var byPlayer: [String: Int]
        var rounds: [[Int]]
        var winner: String??
    }

    final class Shape: Codable, Equatable {
        var name: String
        init(name: String) { self.name = name }
        static func == (lhs: Shape, rhs: Shape) -> Bool { lhs.name == rhs.name }
    }

    /// Writes `stored` as the fixture, then checks `value` against it, which must record
    /// `issueCount` issues (the byte mismatch, the decoded-value mismatch, and any more the
    /// caller names); returns the decoded-value mismatch message.
    func decodeMismatch<Value: Codable & Equatable>(
        stored: Value, value: Value, codec: some Codec = .json, issueCount: Int = 2
    ) throws -> String {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        try writeFixture(codec.encode(stored), "S/F.\(codec.fileExtension)", in: directory)
        let issues = recordedIssues(issueCount) {
            expectRoundTrip(of: value, fixture: "F", codec, fixturesDirectory: directory, suite: "S")
        }
        let issue = try #require(issues.first { $0.text.contains("gives a different value") })
        return issue.text
    }

    @Test func datesThatDifferBySubSecondsSaySo() throws {
        let stored = Event(title: "launch", at: Date(timeIntervalSinceReferenceDate: 812_345_678))
        let value = Event(title: "launch", at: Date(timeIntervalSinceReferenceDate: 812_345_678.25))
        let text = try decodeMismatch(stored: stored, value: value, codec: .propertyList(.binary))
        #expect(text.contains("at Event.at:"), "\(text)")
        #expect(text.contains("812345678.25 s since 2001-01-01"))
        #expect(text.contains("812345678.0 s since 2001-01-01"))
    }

    @Test func dictionaryEntriesAreNamedByKey() throws {
        let stored = Scores(byPlayer: ["ada": 3, "bob": 5], rounds: [[1]], winner: "bob")
        let value = Scores(byPlayer: ["ada": 3, "bob": 4], rounds: [[1]], winner: "bob")
        let text = try decodeMismatch(stored: stored, value: value)
        #expect(text.contains(#"at Scores.byPlayer["bob"]:"#), "\(text)")
        #expect(text.contains("expected: 4") && text.contains("decoded:  5"))
    }

    @Test func missingAndExtraEntriesAndElementsAreNamed() throws {
        let missingKey = try decodeMismatch(
            stored: Scores(byPlayer: ["ada": 3], rounds: [], winner: nil),
            value: Scores(byPlayer: ["ada": 3, "cy": 1], rounds: [], winner: nil))
        #expect(
            missingKey.contains(#"at Scores.byPlayer["cy"]:"#) && missingKey.contains("decoded:  (no entry)"),
            "\(missingKey)")

        let shorter = try decodeMismatch(
            stored: Scores(byPlayer: [:], rounds: [[1, 2]], winner: nil),
            value: Scores(byPlayer: [:], rounds: [[1, 2, 3]], winner: nil))
        #expect(
            shorter.contains("at Scores.rounds[0][2]:") && shorter.contains("decoded:  (no element: 2 elements)"),
            "\(shorter)")
    }

    @Test func nestedOptionalsAndClassesAreWalked() throws {
        let optional = try decodeMismatch(
            stored: Scores(byPlayer: [:], rounds: [], winner: .some(nil)),
            value: Scores(byPlayer: [:], rounds: [], winner: "ada"),
            issueCount: 3)  // .some(nil) is stored as null and reads back as nil: re-encoding differs too
        #expect(optional.contains("at Scores.winner:"), "\(optional)")

        let shape = try decodeMismatch(stored: [Shape(name: "circle")], value: [Shape(name: "square")])
        #expect(shape.contains(#"at Array<Shape>[0].name:"#) && shape.contains(#"expected: "square""#), "\(shape)")
    }
}
