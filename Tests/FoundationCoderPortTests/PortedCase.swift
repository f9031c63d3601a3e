import Foundation
import Testing

/// One test case of swift-foundation's coder suites (`Tests/FoundationEssentialsTests/
/// JSONEncoderTests.swift` and `PropertyListEncoderTests.swift`, at 767ff1c), ported onto this
/// library's public API: its inputs and expectations, in our own code.
struct PortedCase: Sendable, CustomTestStringConvertible {
    enum Suite: String, Sendable, CaseIterable {
        case json = "JSONEncoderTests"
        case propertyList = "PropertyListEncoderTests"
    }

    /// What the case shows.
    enum Outcome: Sendable, Equatable {
        /// We behave as Foundation's coder does.
        case asFoundation
        /// A documented difference (the article "Coming from Foundation's coders"): the case
        /// asserts our behaviour instead, and says why.
        case keptDifference(String)
    }

    let suite: Suite
    let name: String
    let outcome: Outcome
    let body: @Sendable () throws -> Void

    init(
        _ suite: Suite, _ name: String, _ outcome: Outcome = .asFoundation, body: @escaping @Sendable () throws -> Void
    ) {
        self.suite = suite
        self.name = name
        self.outcome = outcome
        self.body = body
    }

    var testDescription: String { "\(suite.rawValue).\(name)" }

    static var all: [PortedCase] { JSONEncoderPort.cases + JSON5Port.cases + PropertyListEncoderPort.cases }
}

/// Where swift-foundation's test resources are: `../shared/peer-suites/swift-foundation-test-resources`
/// beside the clone. Not copied into the project; the cases that read them say skipped where absent.
enum PeerResources {
    static let folder: URL? = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("shared/peer-suites/swift-foundation-test-resources")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    static let absent = "../shared/peer-suites/swift-foundation-test-resources is not beside the clone"

    static func data(_ path: String) throws -> Data {
        let folder = try #require(folder, "\(absent)")
        return try Data(contentsOf: folder.appendingPathComponent(path))
    }
}

@Suite("swift-foundation's coder tests, ported")
struct FoundationCoderPortTests {
    @Test(arguments: PortedCase.all)
    func portedCase(_ ported: PortedCase) throws {
        try ported.body()
    }

    /// The ported cases that read swift-foundation's resource files.
    @Test(.enabled(if: PeerResources.folder != nil, Comment(rawValue: PeerResources.absent)), arguments: PeerCases.all)
    func portedCaseOnPeerResources(_ ported: PortedCase) throws {
        try ported.body()
    }

    /// How much of both suites is ported, and how much of it differs on purpose. Printed on
    /// every run; the names are checked against the suites' own.
    @Test func summary() {
        let ported = PortedCase.all + PeerCases.all
        var names = Set<String>()
        for ported in ported {
            #expect(names.insert(ported.testDescription).inserted, "\(ported.testDescription) is ported twice")
            let known = ported.suite == .json ? SuiteNames.json : SuiteNames.propertyList
            #expect(known.contains(ported.name), "\(ported.testDescription) is not a case of the suite")
        }
        for suite in PortedCase.Suite.allCases {
            let cases = ported.filter { $0.suite == suite }
            let kept = cases.filter { $0.outcome != .asFoundation }
            let total = suite == .json ? SuiteNames.json.count : SuiteNames.propertyList.count
            print(
                "\(suite.rawValue): \(cases.count) of \(total) cases ported; \(cases.count - kept.count) as Foundation, \(kept.count) kept differences"
            )
            for case let (name, .keptDifference(why)) in kept.map({ ($0.name, $0.outcome) }) {
                print("  kept: \(name): \(why)")
            }
            let missing = (suite == .json ? SuiteNames.json : SuiteNames.propertyList)
                .filter { name in !cases.contains { $0.name == name } }
            if !missing.isEmpty { print("  not yet ported: \(missing.joined(separator: ", "))") }
        }
    }
}
