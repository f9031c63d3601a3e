import Foundation
import RawCoding
import RawCodingTesting
import XCTest

/// The XCTest side of the checks: failures go through XCTFail at the caller's file and line.
final class XCTestAdapterTests: XCTestCase {
    struct Failure: Equatable {
        var message: String
        var file: String
        var line: Int
    }

    private var captured: [Failure] = []
    private var capturing = false

    /// While `capturing`, failures are collected instead of failing the test.
    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if capturing {
            captured.append(Failure(message: description, file: filePath, line: lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    private func capture(_ body: () -> Void) -> [Failure] {
        captured = []
        capturing = true
        body()
        capturing = false
        return captured
    }

    /// Every test of this class reads CI and RAWCODING_RECORD from an empty environment.
    override func invokeTest() {
        withFixtureConfiguration(FixtureConfiguration(environment: [:])) { super.invokeTest() }
    }

    func testMatchingCommittedFixturePasses() {
        // Fixtures/XCTestAdapterTests/Settings.pretty.json and .xml.plist are committed.
        let report = expectRoundTrip(
            of: XCTestSettings.sample, fixture: "Settings", .json(.pretty), .propertyList(.xml))
        XCTAssertTrue(report.passed, "\(report.failures)")
    }

    func testMismatchIsReportedWithXCTFailAtTheCallersLine() throws {
        var changed = XCTestSettings.sample
        changed.volume = 0.5
        var line = 0
        let failures = capture {
            line = #line + 1
            expectRoundTrip(of: changed, fixture: "Settings", .json(.pretty), record: .never)
        }
        guard failures.count == 2 else { return XCTFail("expected 2 failures, got \(failures)") }
        XCTAssertTrue(failures.allSatisfy { $0.file == #filePath && $0.line == line }, "\(failures)")
        XCTAssertTrue(
            failures[0].message.contains(
                "The encoded value differs from the fixture XCTestAdapterTests/Settings.pretty.json"))
        XCTAssertTrue(failures[0].message.contains(#"+ 8 |   "volume" : 0.5"#), failures[0].message)
        XCTAssertTrue(
            failures[1].message.contains("gives a different value at XCTestSettings.volume:"), failures[1].message)
    }

    func testMissingFixtureUnderNeverFailsWithThePath() {
        let failures = capture {
            expectRoundTrip(of: XCTestSettings.sample, fixture: "Missing", .json, record: .never)
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.message.contains("Fixtures/XCTestAdapterTests/Missing.json") == true)
    }
}

struct XCTestSettings: Codable, Equatable {
    var theme: String
    var fontSize: Int
    var volume: Double
    var shortcuts: [String]

    static let sample = XCTestSettings(theme: "dark", fontSize: 14, volume: 0.75, shortcuts: ["⌘K", "⌘P"])
}
