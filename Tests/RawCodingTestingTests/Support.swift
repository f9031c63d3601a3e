import Foundation
import RawCoding
import RawCodingTesting
import Testing

/// A model with the shapes fixtures usually hold: nested structs, an enum with a payload,
/// optionals, arrays, a date.
struct Profile: Codable, Equatable, Sendable {
    enum Plan: Codable, Equatable, Sendable {
        case free
        case paid(seats: Int, renews: Date)
    }

    struct Account: Codable, Equatable, Sendable {
        var email: String
        var plan: Plan
    }

    var name: String
    var account: Account
    var tags: [String]
    var nickname: String?

    static let sample = Profile(
        name: "Ada",
        account: Account(
            email: "ada@example.com", plan: .paid(seats: 3, renews: Date(timeIntervalSinceReferenceDate: 800_000_000))),
        tags: ["math", "engines"],
        nickname: nil)
}

/// A model with a property the encoding leaves out: equal bytes, different decoded value.
struct CachedProfile: Codable, Equatable, Sendable {
    var name: String
    var cachedScore = 0

    enum CodingKeys: String, CodingKey { case name }
}

/// A value whose encoding always fails.
struct Unencodable: Codable, Equatable, Sendable {
    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(
            self, EncodingError.Context(codingPath: [], debugDescription: "never encodable"))
    }
}

/// A fresh folder to use as the fixtures directory (not created: recording creates it).
func temporaryFixturesDirectory() -> URL {
    FileManager.default.temporaryDirectory
        .appendingPathComponent("RawCodingTestingTests-\(UUID().uuidString)", isDirectory: true)
}

/// Writes `data` as the fixture `path` (`<suite>/<name>.<extension>`) inside `directory`.
func writeFixture(_ data: Data, _ path: String, in directory: URL) throws {
    let file = directory.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: file)
}

/// Removes a folder from ``temporaryFixturesDirectory()`` if a check created it.
func removeTemporaryFixtures(_ directory: URL) {
    guard FileManager.default.fileExists(atPath: directory.path) else { return }
    do {
        try FileManager.default.removeItem(at: directory)
    } catch {
        Issue.record("Could not remove \(directory.path): \(error)")
    }
}

/// An environment with neither CI nor RAWCODING_RECORD, so checks behave the same wherever the
/// tests run.
let quietEnvironment: [String: String] = [:]

/// The issues recorded inside `body`, which must be exactly `expected` of them: a check that
/// records more (or fewer) than the test expects fails the test at the call, listing them all.
func recordedIssues<Ignored>(
    _ expected: Int, sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Ignored
) -> [Issue] {
    let issues = IssueBox()
    withKnownIssue {
        _ = body()
    } matching: { issue in
        issues.append(issue)
        return true
    }
    let all = issues.all
    if all.count != expected {
        let listed = all.enumerated().map { "[\($0.offset + 1)] \($0.element.text)" }.joined(separator: "\n")
        Issue.record(
            "expected \(expected) recorded issues, found \(all.count)\n\(listed)", sourceLocation: sourceLocation)
    }
    return all
}

/// The text of an issue's comments.
extension Issue {
    var text: String { comments.map(\.rawValue).joined(separator: "\n") }
}

final class IssueBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Issue] = []

    func append(_ issue: Issue) { lock.withLock { storage.append(issue) } }
    var all: [Issue] { lock.withLock { storage } }
}
