import Foundation
import RawCoding
import RawCodingTesting
import Testing

/// A settings model at version 2, whose version 1 called `username` `name`.
struct VersionedSettings: Codable, Equatable, StoredVersioned {
    var username: String
    var volume = 0.5

    static let storedVersion = 2
    static let migrations: [StoredMigration] = [.tree(from: 1) { tree in tree.renameKey("name", to: "username") }]
}

@Suite("Historical fixtures, lookup and artifacts", .fixtures(FixtureConfiguration(environment: quietEnvironment)))
struct HistoricalFixtureTests {
    let v1 = Data(#"{"name":"ada","volume":0.25}"#.utf8)

    @Test func aHistoricalFixtureDecodesIntoTheCurrentModelAndSurvivesRecordAll() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        try writeFixture(v1, "S/Settings-v1.json", in: directory)
        let digest = try #require(sha256sum(directory.appendingPathComponent("S/Settings-v1.json")))

        let everything = FixtureConfiguration(
            fixturesDirectory: directory, suite: "S", environment: ["RAWCODING_RECORD": "all"])
        withFixtureConfiguration(everything) {
            let report = expectDecodes(
                VersionedSettings.self, fixture: "Settings-v1", .json,
                as: VersionedSettings(username: "ada", volume: 0.25), sha256: digest)
            #expect(report.passed)
            // The round trip of the current form records its own, versioned file.
            let recorded = recordedIssues(1) {
                expectRoundTrip(of: VersionedSettings(username: "grace"), fixture: "Settings", .json)
            }
            #expect(recorded.first?.text.contains("Recorded the fixture S/Settings-v2.json") == true)
            #expect(recorded.first?.text.contains("The previous version's fixture S/Settings-v1.json stays") == true)
            #expect(
                recorded.first?.text.contains(
                    #"expectDecodes(VersionedSettings.self, fixture: "Settings-v1", .json, as: <its value today>, sha256: "\#(digest)")"#
                ) == true)
        }
        #expect(try Data(contentsOf: directory.appendingPathComponent("S/Settings-v1.json")) == v1)
        let current = try Data(contentsOf: directory.appendingPathComponent("S/Settings-v2.json"))
        #expect(String(decoding: current, as: UTF8.self) == #"{"$version":2,"username":"grace","volume":0.5}"#)

        // The next run compares, and passes.
        withFixtureConfiguration(FixtureConfiguration(fixturesDirectory: directory, suite: "S")) {
            #expect(expectRoundTrip(of: VersionedSettings(username: "grace"), fixture: "Settings", .json).passed)
        }
    }

    @Test func aChangedMissingOrMisreadHistoricalFixtureFails() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        try writeFixture(v1, "S/Settings-v1.json", in: directory)
        let configuration = FixtureConfiguration(fixturesDirectory: directory, suite: "S")
        withFixtureConfiguration(configuration) {
            let changed = recordedIssues(1) {
                expectDecodes(
                    VersionedSettings.self, fixture: "Settings-v1", .json,
                    as: VersionedSettings(username: "ada", volume: 0.25), sha256: String(repeating: "0", count: 64))
            }
            #expect(changed.first?.text.contains("S/Settings-v1.json has changed: its SHA-256 is") == true)

            let wrong = recordedIssues(1) {
                expectDecodes(
                    VersionedSettings.self, fixture: "Settings-v1", .json, as: VersionedSettings(username: "ada"))
            }
            #expect(wrong.first?.text.contains("gives a different value at VersionedSettings.volume") == true)

            let missing = recordedIssues(1) {
                expectDecodes(
                    VersionedSettings.self, fixture: "Settings-v0", .json, as: VersionedSettings(username: "x"))
            }
            #expect(missing.first?.text.contains("is missing") == true)
            #expect(missing.first?.text.contains("never recorded") == true)

            let unreadable = recordedIssues(1) {
                expectDecodes([Int].self, fixture: "Settings-v1", .json, as: [1])
            }
            #expect(unreadable.first?.text.contains("no longer decodes as Array<Int>") == true)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("S/Settings-v0.json").path))
        #expect(try Data(contentsOf: directory.appendingPathComponent("S/Settings-v1.json")) == v1)
    }

    @Test func theDigestIsSHA256AsCommandLineToolsPrintIt() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        // Vectors checked with sha256sum: a short payload and one longer than a 64-byte block.
        let vectors = [
            (Data(#""abc""#.utf8), "6cc43f858fbb763301637b5af970e2a46b46f461f27e5a0f41e009c59b827b25"),
            (
                Data(("\"" + String(repeating: "x", count: 200) + "\"").utf8),
                "9d9613fcb584b20b2112de8c1c205f035ea77c39c28d51b27949e7cc50029d7b"
            ),
        ]
        for (index, (bytes, digest)) in vectors.enumerated() {
            try writeFixture(bytes, "S/Text\(index).json", in: directory)
            let text = try JSONCodec().decode(String.self, from: bytes)
            withFixtureConfiguration(FixtureConfiguration(fixturesDirectory: directory, suite: "S")) {
                #expect(expectDecodes(String.self, fixture: "Text\(index)", .json, as: text, sha256: digest).passed)
                #expect(
                    expectDecodes(String.self, fixture: "Text\(index)", .json, as: text, sha256: digest.uppercased())
                        .passed)
            }
        }
    }

    /// `#filePath` is a `StaticString`, so the project this test builds has a fixed path.
    static let project = URL(fileURLWithPath: "/tmp/rawcoding-lookup-test-project", isDirectory: true)

    @Test func fixturesAreFoundBesideTheTestFileWithoutAPackageSwift() throws {
        let project = Self.project
        // The whole project is made anew: a fixture another run recorded (beside a test file,
        // where this lookup must not look) would make the first check pass on its own.
        try? FileManager.default.removeItem(at: project)
        defer { removeTemporaryFixtures(project) }
        let recorded = project.appendingPathComponent("OtherTests/Fixtures")
        // An Xcode app project: no Package.swift, fixtures in the test target's folder.
        try FileManager.default.createDirectory(
            at: project.appendingPathComponent("App.xcodeproj"), withIntermediateDirectories: true)
        try writeFixture(Data("42".utf8), "AppTests/Fixtures/SettingsTests/Answer.json", in: project)
        let found = expectRoundTrip(
            of: 42, fixture: "Answer", .json,
            filePath: "/tmp/rawcoding-lookup-test-project/AppTests/Models/SettingsTests.swift")
        #expect(found.passed)

        // With no Fixtures/ anywhere up to the project root, beside the test file.
        let issues = recordedIssues(1) {
            expectRoundTrip(
                of: 7, fixture: "Seven", .json,
                filePath: "/tmp/rawcoding-lookup-test-project/OtherTests/OtherTests.swift")
        }
        #expect(issues.first?.text.contains("Recorded the fixture OtherTests/Seven.json") == true)
        #expect(FileManager.default.fileExists(atPath: recorded.appendingPathComponent("OtherTests/Seven.json").path))
    }

    @Test(arguments: ["RAWCODING_FIXTURES", "TEST_RUNNER_RAWCODING_FIXTURES"])
    func anEnvironmentVariableNamesTheFixturesFolder(_ variable: String) throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        try writeFixture(Data("[1,2]".utf8), "HistoricalFixtureTests/Pair.json", in: directory)
        // This package has a Package.swift and a Fixtures/ folder; the variable wins over both.
        withFixtureConfiguration(FixtureConfiguration(environment: [variable: directory.path])) {
            #expect(expectRoundTrip(of: [1, 2], fixture: "Pair", .json).passed)
            #expect(expectDecodes([Int].self, fixture: "Pair", .json, as: [1, 2]).passed)
        }
    }

    @Test func testRunnerCIRefusesToRecord() throws {
        let directory = temporaryFixturesDirectory()
        defer { removeTemporaryFixtures(directory) }
        let ci = FixtureConfiguration(
            fixturesDirectory: directory, suite: "S", environment: ["TEST_RUNNER_CI": "1", "RAWCODING_RECORD": "all"])
        let issues = withFixtureConfiguration(ci) {
            recordedIssues(2) { expectRoundTrip(of: 1, fixture: "One", .json) }
        }
        #expect(issues.contains { $0.text.contains("but TEST_RUNNER_CI=1 is set, so nothing was written") })
        #expect(issues.contains { $0.text.contains("record mode is .never (TEST_RUNNER_CI=1 is set)") })
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("S/One.json").path))

        // A historical fixture check never records, so the record settings are not its concern.
        try writeFixture(Data("1".utf8), "S/One-v1.json", in: directory)
        withFixtureConfiguration(ci) {
            #expect(expectDecodes(Int.self, fixture: "One-v1", .json, as: 1).passed)
        }
    }

    @Test func aFailingCheckWritesWhatItGotToTheArtifactsFolder() throws {
        let directory = temporaryFixturesDirectory()
        let artifacts = temporaryFixturesDirectory()
        defer {
            removeTemporaryFixtures(directory)
            removeTemporaryFixtures(artifacts)
        }
        try writeFixture(
            Data(#"{"$version":2,"username":"ada","volume":0.5}"#.utf8), "S/Settings-v2.json", in: directory)
        try writeFixture(v1, "S/Settings-v1.json", in: directory)
        let configuration = FixtureConfiguration(
            fixturesDirectory: directory, suite: "S",
            environment: ["CI": "true", "TEST_RUNNER_RAWCODING_ARTIFACTS": artifacts.path])
        withFixtureConfiguration(configuration) {
            var report: CheckReport?
            // The bytes differ, and so does the value decoded from the fixture.
            let mismatch = recordedIssues(2) {
                report = expectRoundTrip(of: VersionedSettings(username: "grace"), fixture: "Settings", .json)
            }
            let artifact = artifacts.appendingPathComponent("S/Settings-v2.actual.json")
            #expect(report?.artifactFiles == [artifact])
            #expect(mismatch.contains { $0.text.contains("The actual bytes are at \(artifact.path)") })
            #expect(
                FileManager.default.contents(atPath: artifact.path)
                    == Data(#"{"$version":2,"username":"grace","volume":0.5}"#.utf8))

            let absent = recordedIssues(1) { expectRoundTrip(of: 3, fixture: "Three", .json) }
            #expect(absent.first?.text.contains("does not exist") == true)
            #expect(
                FileManager.default.contents(atPath: artifacts.appendingPathComponent("S/Three.actual.json").path)
                    == Data("3".utf8))

            _ = recordedIssues(1) {
                expectDecodes(
                    VersionedSettings.self, fixture: "Settings-v1", .json, as: VersionedSettings(username: "x"))
            }
            #expect(
                FileManager.default.contents(atPath: artifacts.appendingPathComponent("S/Settings-v1.actual.json").path)
                    == Data(#"{"$version":2,"username":"ada","volume":0.25}"#.utf8))
        }
    }
}

/// The file's SHA-256 from `sha256sum`, the oracle for the pins above; `nil` (with an issue)
/// where the tool is missing.
func sha256sum(_ file: URL) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sha256sum", file.path]
    let output = Pipe()
    process.standardOutput = output
    do {
        try process.run()
    } catch {
        Issue.record("sha256sum could not run: \(error)")
        return nil
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: " ").first.map(String.init)
}
