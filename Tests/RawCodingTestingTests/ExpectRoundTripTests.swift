import Foundation
import RawCoding
import RawCodingTesting
import Testing

/// Every test here reads CI and RAWCODING_RECORD from an empty environment unless it sets
/// its own, so the results are the same locally and on CI.
@Suite("expectRoundTrip", .fixtures(FixtureConfiguration(environment: quietEnvironment)))
struct ExpectRoundTripTests {

    @Test func recordsAMissingFixtureFailsThenPasses() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        do {
            do {
                let issues = recordedIssues(2) {
                    expectRoundTrip(
                        of: Profile.sample, fixture: "Profile", .json(.pretty), .propertyList(.binary),
                        fixturesDirectory: directory, suite: "Suite")
                }
                #expect(issues.count == 2)
                #expect(issues.allSatisfy { $0.text.contains("Recorded the fixture Suite/Profile.") })
                #expect(issues.allSatisfy { $0.text.contains("record mode .missing from the default") })
                let json = directory.appendingPathComponent("Suite/Profile.pretty.json")
                let binary = directory.appendingPathComponent("Suite/Profile.binary.plist")
                #expect(FileManager.default.fileExists(atPath: json.path))
                #expect(try JSONCodec.json.decode(Profile.self, from: Data(contentsOf: json)) == Profile.sample)
                #expect(
                    try PropertyListCodec.propertyList(.binary).decode(Profile.self, from: Data(contentsOf: binary))
                        == Profile.sample)

                let second = expectRoundTrip(
                    of: Profile.sample, fixture: "Profile", .json(.pretty), .propertyList(.binary),
                    fixturesDirectory: directory, suite: "Suite")
                #expect(second.passed)
                #expect(second.recordedFiles.isEmpty)
            }
        }
    }

    @Test func mismatchShowsTheFirstDifferentLineAtTheCallersLocation() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        do {
            try withFixtureConfiguration(
                FixtureConfiguration(fixturesDirectory: directory, suite: "S", environment: quietEnvironment)
            ) { () throws -> Void in
                var stored = Profile.sample
                stored.account.email = "old@example.com"
                try writeFixture(JSONCodec.json(.pretty).encode(stored), "S/Profile.pretty.json", in: directory)

                var line = 0
                let issues = recordedIssues(2) {
                    line = #line + 1
                    expectRoundTrip(of: Profile.sample, fixture: "Profile", .json(.pretty))
                }
                let mismatch = try #require(
                    issues.first { $0.text.contains("differs from the fixture S/Profile.pretty.json") })
                #expect(mismatch.sourceLocation?.line == line)
                #expect(mismatch.sourceLocation?.fileID == #fileID)
                #expect(mismatch.sourceLocation?.filePath == #filePath)
                #expect(mismatch.text.contains("First difference at line 3, column 16 (- fixture, + encoded):"))
                #expect(mismatch.text.contains(#"-  3 |     "email" : "old@example.com","#))
                #expect(mismatch.text.contains(#"+  3 |     "email" : "ada@example.com","#))
                // Context before the difference.
                #expect(mismatch.text.contains(#"   2 |   "account" : {"#))
            }
        }
    }

    @Test func decodedValueMismatchNamesTheKeyPath() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        do {
            try withFixtureConfiguration(
                FixtureConfiguration(fixturesDirectory: directory, suite: "S", environment: quietEnvironment)
            ) { () throws -> Void in
                var stored = Profile.sample
                stored.account.plan = .paid(seats: 5, renews: Date(timeIntervalSinceReferenceDate: 800_000_000))
                try writeFixture(JSONCodec.json.encode(stored), "S/Profile.json", in: directory)

                let issues = recordedIssues(2) { expectRoundTrip(of: Profile.sample, fixture: "Profile", .json) }
                let decode = try #require(
                    issues.first { $0.text.contains("Decoding S/Profile.json gives a different value") })
                #expect(decode.text.contains("at Profile.account.plan.paid.seats:"))
                #expect(decode.text.contains("expected: 3"))
                #expect(decode.text.contains("decoded:  5"))
            }
        }
    }

    @Test func decodedValueMismatchIsFoundInPropertiesTheEncodingLeavesOut() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        do {
            let value = CachedProfile(name: "Ada", cachedScore: 7)
            let issues = recordedIssues(2) {
                expectRoundTrip(of: value, fixture: "Cached", .json, record: .all, fixturesDirectory: directory)
            }
            // The recording, then the decoded value (cachedScore 0) differing from the value.
            #expect(issues.count == 2)
            let decode = try #require(issues.first { $0.text.contains("gives a different value") })
            #expect(decode.text.contains("at CachedProfile.cachedScore:\n  expected: 7\n  decoded:  0"))
        }
    }

    @Test func missingFixtureUnderNeverNamesThePathToCreate() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        do {
            let issues = recordedIssues(1) {
                expectRoundTrip(
                    of: Profile.sample, fixture: "Absent", .propertyList(.xml),
                    record: .never, fixturesDirectory: directory, suite: "S")
            }
            let path = directory.appendingPathComponent("S/Absent.xml.plist").path
            #expect(issues.count == 1)
            #expect(issues[0].text.contains("The fixture S/Absent.xml.plist does not exist; expected at \(path)."))
            #expect(issues[0].text.contains("record mode is .never (the call's record: .never)"))
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func ciForcesNeverEvenWhenRecordingIsAskedFor() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        do {
            let ci = FixtureConfiguration(
                recordMode: .missing, fixturesDirectory: directory, environment: ["CI": "true"])
            let missing = recordedIssues(1) {
                withFixtureConfiguration(ci) { expectRoundTrip(of: Profile.sample, fixture: "P", .json) }
            }
            #expect(missing.count == 1)
            #expect(missing[0].text.contains("does not exist"))
            #expect(missing[0].text.contains(".never (CI=true is set)"))
            #expect(
                !FileManager.default.fileExists(
                    atPath: directory.appendingPathComponent("ExpectRoundTripTests/P.json").path))

            // An explicit .all on CI is refused loudly, even when the fixture matches, so a
            // forgotten `record: .all` cannot pass there.
            withFixtureConfiguration(FixtureConfiguration(fixturesDirectory: directory, environment: quietEnvironment))
            {
                _ = recordedIssues(1) { expectRoundTrip(of: Profile.sample, fixture: "P", .json) }
            }
            let refused = recordedIssues(1) {
                withFixtureConfiguration(ci) { expectRoundTrip(of: Profile.sample, fixture: "P", .json, record: .all) }
            }
            #expect(refused.count == 1)
            #expect(refused[0].text.contains("Recording was asked for by the call's record: .all, but CI=true is set"))
        }
    }

    @Test(arguments: ["1", "true", "TRUE", "yes", "on"])
    func ciSetToATrueValueForbidsRecording(_ value: String) throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        let configuration = FixtureConfiguration(fixturesDirectory: directory, suite: "S", environment: ["CI": value])
        let issues = withFixtureConfiguration(configuration) {
            recordedIssues(1) { expectRoundTrip(of: 42, fixture: "Answer", .json) }
        }
        #expect(issues.count == 1)
        #expect(
            issues.first?.text.contains("record mode is .never (CI=\(value) is set)") == true,
            "\(issues.first?.text ?? "")")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("S/Answer.json").path))
    }

    @Test(arguments: ["false", "0", "", "NO", "False"])
    func ciSetToFalseDoesNotCount(_ value: String) throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        do {
            let configuration = FixtureConfiguration(
                fixturesDirectory: directory, suite: "S", environment: ["CI": value])
            let issues = withFixtureConfiguration(configuration) {
                recordedIssues(1) { expectRoundTrip(of: 42, fixture: "Answer", .json) }
            }
            #expect(issues.count == 1)
            #expect(issues[0].text.contains("Recorded the fixture S/Answer.json"))
        }
    }

    @Test func recordVariableChoosesTheMode() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        do {
            let all = FixtureConfiguration(fixturesDirectory: directory, environment: ["RAWCODING_RECORD": "all"])
            let first = withFixtureConfiguration(all) {
                recordedIssues(1) { expectRoundTrip(of: [1, 2], fixture: "N", .json) }
            }
            let second = withFixtureConfiguration(all) {
                recordedIssues(1) { expectRoundTrip(of: [1, 2], fixture: "N", .json) }
            }
            #expect(first.count == 1 && first[0].text.contains("record mode .all from RAWCODING_RECORD=all"))
            #expect(second.count == 1 && second[0].text.contains("It had the same bytes before."))

            let never = FixtureConfiguration(fixturesDirectory: directory, environment: ["RAWCODING_RECORD": "never"])
            let absent = withFixtureConfiguration(never) {
                recordedIssues(1) { expectRoundTrip(of: 1, fixture: "Absent", .json) }
            }
            #expect(absent.count == 1 && absent[0].text.contains(".never (RAWCODING_RECORD=never)"))

            let bad = FixtureConfiguration(fixturesDirectory: directory, environment: ["RAWCODING_RECORD": "sometimes"])
            let invalid = withFixtureConfiguration(bad) {
                recordedIssues(2) { expectRoundTrip(of: 1, fixture: "Bad", .json) }
            }
            #expect(invalid.contains { $0.text.contains("RAWCODING_RECORD=sometimes is not a record mode") })
            #expect(
                !FileManager.default.fileExists(
                    atPath: directory.appendingPathComponent("ExpectRoundTripTests/Bad.json").path))
        }
    }

    @Test func recordingAllRewritesAndShowsWhatChanged() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        do {
            try withFixtureConfiguration(
                FixtureConfiguration(fixturesDirectory: directory, environment: quietEnvironment)
            ) { () throws -> Void in
                _ = recordedIssues(1) { expectRoundTrip(of: Profile.sample, fixture: "P", .propertyList(.xml)) }
                var changed = Profile.sample
                changed.name = "Grace"
                let issues = recordedIssues(1) {
                    expectRoundTrip(of: changed, fixture: "P", .propertyList(.xml), record: .all)
                }
                #expect(issues.count == 1)
                #expect(issues[0].text.contains("It had other bytes before:"))
                #expect(issues[0].text.contains("+ ") && issues[0].text.contains("<string>Grace</string>"))
                let stored = try Data(contentsOf: directory.appendingPathComponent("ExpectRoundTripTests/P.xml.plist"))
                #expect(try PropertyListCodec.propertyList(.xml).decode(Profile.self, from: stored) == changed)
            }
        }
    }

    @Test func binaryMismatchShowsAHexWindow() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        do {
            try withFixtureConfiguration(
                FixtureConfiguration(fixturesDirectory: directory, suite: "S", environment: quietEnvironment)
            ) { () throws -> Void in
                var stored = Profile.sample
                stored.name = "Adb"
                try writeFixture(
                    PropertyListCodec.propertyList(.binary).encode(stored), "S/Profile.binary.plist", in: directory)

                let issues = recordedIssues(2) {
                    expectRoundTrip(of: Profile.sample, fixture: "Profile", .propertyList(.binary))
                }
                let mismatch = try #require(issues.first { $0.text.contains("differs from the fixture") })
                #expect(mismatch.text.contains("First difference at byte "))
                #expect(mismatch.text.contains("(- fixture, + encoded):"))
                #expect(mismatch.text.contains("53 41 64 62") && mismatch.text.contains("SAdb"))
                #expect(mismatch.text.contains("53 41 64 61") && mismatch.text.contains("SAda"))
                #expect(mismatch.text.components(separatedBy: "\n").contains { $0.hasPrefix("- 000000") })
            }
        }
    }

    @Test func longSingleLineTextIsCutAroundTheDifference() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        do {
            let long = (0..<200).map { "item\($0)" }
            var changed = long
            changed[150] = "CHANGED"
            let issues = recordedIssues(3) {
                withFixtureConfiguration(
                    FixtureConfiguration(fixturesDirectory: directory, environment: quietEnvironment)
                ) {
                    _ = expectRoundTrip(of: long, fixture: "Long", .json)
                    _ = expectRoundTrip(of: changed, fixture: "Long", .json)
                }
            }
            let mismatch = try #require(issues.first { $0.text.contains("differs from the fixture") })
            let minus = try #require(mismatch.text.components(separatedBy: "\n").first { $0.hasPrefix("- 1 |") })
            #expect(minus.hasPrefix("- 1 | …") && minus.hasSuffix("…"))
            #expect(minus.contains(#""item149","item150","item151""#))
            #expect(minus.count < 130)
        }
    }

    @Test func encodingFailureIsReportedWithTheLibrarysErrorText() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        do {
            let issues = recordedIssues(1) {
                expectRoundTrip(of: Unencodable(), fixture: "U", .json, fixturesDirectory: directory)
            }
            #expect(issues.count == 1)
            #expect(issues[0].text.contains("Encoding the Unencodable value for ExpectRoundTripTests/U.json failed:"))
            #expect(issues[0].text.contains("never encodable"))
            #expect(
                !FileManager.default.fileExists(
                    atPath: directory.appendingPathComponent("ExpectRoundTripTests/U.json").path))
        }
    }

    @Test func decodingFailureIsReportedWithTheCodingPath() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        do {
            let text = try JSONCodec.json.encodeToString(Profile.sample).replacingOccurrences(
                of: "\"ada@example.com\"", with: "42")
            try writeFixture(Data(text.utf8), "S/Profile.json", in: directory)
            let issues = recordedIssues(2) {
                expectRoundTrip(of: Profile.sample, fixture: "Profile", .json, fixturesDirectory: directory, suite: "S")
            }
            let decode = try #require(issues.first { $0.text.contains("Decoding S/Profile.json as Profile failed:") })
            #expect(decode.text.contains("account.email"))
        }
    }

    @Test func reencodingThatChangesTheBytesIsReported() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        do {
            // Written by hand with keys out of order: decodes to the value, re-encodes sorted.
            try writeFixture(Data(#"{ "name": "Ada" }"#.utf8), "S/Cached.json", in: directory)
            let issues = recordedIssues(2) {
                expectRoundTrip(
                    of: CachedProfile(name: "Ada"), fixture: "Cached", .json, fixturesDirectory: directory, suite: "S")
            }
            #expect(issues.count == 2)
            #expect(
                issues.contains {
                    $0.text.contains("gives other bytes than the fixture: the format does not round-trip")
                })
        }
    }

    @Test func codecsSharingAFileAreRefusedBeforeAnythingIsWritten() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        do {
            let issues = recordedIssues(1) {
                expectRoundTrip(
                    of: 1, fixture: "Twice", .json, JSONCodec(limits: .default), fixturesDirectory: directory)
            }
            #expect(issues.count == 1)
            #expect(issues[0].text.contains("Twice.json"))
            #expect(!FileManager.default.fileExists(atPath: directory.path))
        }
    }

    @Test(arguments: ["", "a/b", ".hidden"])
    func badFixtureNamesAreReported(_ name: String) throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        do {
            let issues = recordedIssues(1) {
                expectRoundTrip(of: 1, fixture: name, .json, .propertyList(.xml), fixturesDirectory: directory)
            }
            #expect(issues.count == 1)
            #expect(issues[0].text.contains("fixture name"))
        }
    }

    @Test func fixturesAreFoundFromTheCallingFileByDefault() throws {
        // Fixtures/ExpectRoundTripTests/Point.json is committed.
        struct Point: Codable, Equatable {
            var x: Int
            var y: Int
        }
        let report = withFixtureConfiguration(FixtureConfiguration(recordMode: .never)) {
            expectRoundTrip(of: Point(x: 3, y: -4), fixture: "Point", .json)
        }
        #expect(report.passed, "\(report.failures)")

        let issues = recordedIssues(1) {
            withFixtureConfiguration(FixtureConfiguration(recordMode: .never)) {
                expectRoundTrip(of: Point(x: 3, y: -4), fixture: "Nowhere", .json)
            }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        #expect(issues.count == 1)
        #expect(issues[0].text.contains("expected at \(root.path)/Fixtures/ExpectRoundTripTests/Nowhere.json"))
    }

    @Test func aCallWithoutCodecsFails() {
        let issues = recordedIssues(1) { expectRoundTrip(of: 1, fixture: "One") }
        #expect(issues.count == 1)
        #expect(issues.first?.text.contains("was given no codec") == true)
    }

    @Test func expectFixtureComparesPlainBytes() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        do {
            withFixtureConfiguration(FixtureConfiguration(fixturesDirectory: directory, environment: quietEnvironment))
            {
                let recorded = recordedIssues(1) {
                    expectFixture(Data("one\ntwo\n".utf8), fixture: "out", fileExtension: "txt")
                }
                #expect(recorded.count == 1)
                #expect(expectFixture(Data("one\ntwo\n".utf8), fixture: "out", fileExtension: "txt").passed)
                let changed = recordedIssues(1) {
                    expectFixture(Data("one\n2\n".utf8), fixture: "out", fileExtension: "txt")
                }
                #expect(changed.count == 1)
                #expect(changed[0].text.contains("-  2 | two") || changed[0].text.contains("- 2 | two"))
            }
        }
    }
}

/// The trait sets the configuration for every test of a suite.
@Suite("FixtureTrait", .fixtures(record: .never, suite: "TraitSuite"))
struct FixtureTraitTests {
    @Test func suiteTraitSetsRecordModeAndSuiteFolder() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        do {
            let issues = recordedIssues(1) {
                withFixtureConfiguration(
                    FixtureConfiguration(fixturesDirectory: directory, environment: quietEnvironment)
                ) {
                    expectRoundTrip(of: 1, fixture: "One", .json)
                }
            }
            #expect(issues.count == 1)
            #expect(issues[0].text.contains("TraitSuite/One.json does not exist"))
            #expect(issues[0].text.contains("the fixture configuration's record mode .never"))
        }
    }
}
