import Foundation
import RawCoding

/// One run of a fixture check: the resolved settings plus what it has found so far.
struct FixtureCheck {
    var configuration: FixtureConfiguration
    var policy: RecordPolicy
    var site: CallSite
    var environment: FixtureEnvironment
    var report = CheckReport()
    /// The type whose stored form is checked, for messages.
    var subject: Any.Type?

    var callerFilePath: String { site.filePathString }

    /// A check that never records (`recording: false`) leaves problems with the record
    /// settings to the checks that do.
    init(record: FixtureRecordMode?, fixturesDirectory: URL?, suite: String?, site: CallSite, recording: Bool = true) {
        configuration = FixtureConfiguration.current.overridden(
            by: FixtureConfiguration(recordMode: record, fixturesDirectory: fixturesDirectory, suite: suite))
        environment = FixtureEnvironment(variables: configuration.environment ?? ProcessInfo.processInfo.environment)
        policy = RecordPolicy.resolve(
            call: record, configured: FixtureConfiguration.current.recordMode, environment: environment.variables)
        self.site = site
        if recording, let problem = policy.problem { report.fail(problem) }
    }

    /// Reports what the check found at the caller's location and returns it.
    func finish() -> CheckReport {
        site.report(report)
        return report
    }

    func locate(name: String, fileExtension: String) -> Result<FixtureFile, FixtureSetupError> {
        FixtureFile.locate(
            name: name, fileExtension: fileExtension, configuration: configuration, callerFilePath: callerFilePath,
            environment: environment)
    }

    /// Fails with `message`; when `RAWCODING_ARTIFACTS` names a folder and there are `actual`
    /// bytes, writes them there first (as `<suite>/<name>.<label>.<extension>`) and says where.
    mutating func fail(_ message: String, actual: Data?, for file: FixtureFile, label: String = "actual") {
        guard let actual, let (name, folder) = environment.lookup(FixtureEnvironment.artifacts) else {
            return report.fail(message)
        }
        let artifact = URL(fileURLWithPath: folder, isDirectory: true)
            .appendingPathComponent(file.suite, isDirectory: true)
            .appendingPathComponent("\(file.name).\(label).\(file.fileExtension)")
        do {
            try FileManager.default.createDirectory(
                at: artifact.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: artifact, options: .atomic)
        } catch {
            return report.fail("\(message)\nCould not write the \(label) bytes to \(artifact.path) (\(name)): \(error)")
        }
        report.artifactFiles.append(artifact)
        report.fail("\(message)\nThe \(label) bytes are at \(artifact.path) (\(name)).")
    }

    // MARK: Round trip

    /// Encodes, compares or records, decodes, compares values, re-encodes: one codec's part of
    /// ``expectRoundTrip(of:fixture:_:record:fixturesDirectory:suite:fileID:filePath:line:column:)``.
    ///
    /// A ``StoredVersioned`` value is written and read as stored (its version recorded, older
    /// forms migrated), and its fixture's name carries the version: `Settings-v3.json`.
    mutating func roundTrip<Value: Codable & Equatable>(_ value: Value, name: String, codec: any Codec) {
        subject = Value.self
        let versioned = Value.self as? any StoredVersioned.Type
        let name = versioned.map { "\(name)-v\($0.storedVersion)" } ?? name
        let file: FixtureFile
        switch locate(name: name, fileExtension: codec.fileExtension) {
        case .success(let located): file = located
        case .failure(let error):
            // A bad name is the same for every codec: say it once.
            if !report.failures.contains(error.message) { report.fail(error.message) }
            return
        }
        var encoded: Data?
        do {
            encoded = versioned == nil ? try codec.encode(value) : try codec.encodeStored(value)
        } catch {
            report.fail("Encoding the \(Value.self) value for \(file.displayPath) failed: \(error)")
        }
        guard let fixture = compareOrRecord(encoded, with: file) else { return }

        let decoded: Value
        do {
            decoded =
                versioned == nil
                ? try codec.decode(Value.self, from: fixture) : try codec.decodeStored(Value.self, from: fixture).value
        } catch {
            return report.fail("Decoding \(file.displayPath) as \(Value.self) failed: \(error)")
        }
        if decoded != value {
            report.fail(valueMismatch(decoded: decoded, expected: value, file: file))
        }
        let reencoded: Data
        do {
            reencoded = versioned == nil ? try codec.encode(decoded) : try codec.encodeStored(decoded)
        } catch {
            return report.fail("Encoding the value decoded from \(file.displayPath) failed: \(error)")
        }
        if reencoded != fixture {
            fail(
                "Encoding the value decoded from \(file.displayPath) gives other bytes than the fixture: "
                    + "the format does not round-trip this value.\n"
                    + ByteDifference.describe(fixture: fixture, actual: reencoded, actualLabel: "re-encoded"),
                actual: reencoded, for: file, label: "reencoded")
        }
    }

    func valueMismatch<Value>(decoded: Value, expected: Value, file: FixtureFile) -> String {
        let root = "\(Value.self)"
        guard let difference = ValueDifference.first(expected: expected, actual: decoded, root: root) else {
            return "Decoding \(file.displayPath) gives a \(root) that is not == to the expected value, "
                + "though no stored property differs.\n  expected: \(ValueDifference.describe(expected))\n"
                + "  decoded:  \(ValueDifference.describe(decoded))"
        }
        return "Decoding \(file.displayPath) gives a different value at \(difference.path):\n"
            + "  expected: \(difference.expected)\n  decoded:  \(difference.actual)"
    }

    // MARK: Bytes

    /// Compares `encoded` with the fixture, or records it, as the record mode says. Returns the
    /// fixture's bytes as they are after this step, or `nil` when there are none to decode.
    mutating func compareOrRecord(_ encoded: Data?, with file: FixtureFile) -> Data? {
        let existing: Data?
        if FileManager.default.fileExists(atPath: file.url.path) {
            do {
                existing = try Data(contentsOf: file.url)
            } catch {
                report.fail("Could not read the fixture \(file.url.path): \(error)")
                return nil
            }
        } else {
            existing = nil
        }

        switch (existing, policy.mode) {
        case (let fixture?, .never), (let fixture?, .missing):
            if let encoded, encoded != fixture {
                fail(
                    "The encoded value differs from the fixture \(file.displayPath) (\(file.url.path)).\n"
                        + ByteDifference.describe(fixture: fixture, actual: encoded)
                        + "\nIf the change is intended, re-record: run with RAWCODING_RECORD=all (or "
                        + "record: .all), review the diff and commit it. If stored data of the old form "
                        + "must still decode, keep the old file under another name first and check it "
                        + "with expectDecodes(_:fixture:_:as:sha256:).",
                    actual: encoded, for: file)
            }
            return fixture
        case (nil, .never):
            fail(
                "The fixture \(file.displayPath) does not exist; expected at \(file.url.path). The record "
                    + "mode is .never (\(policy.reason)). To create it, run this test once in record mode "
                    + ".missing (the default where CI and RAWCODING_RECORD are unset), check the file and "
                    + "commit it.",
                actual: encoded, for: file)
            return nil
        case (_, .missing), (_, .all):
            guard let encoded else { return existing }
            do {
                try FileManager.default.createDirectory(
                    at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try encoded.write(to: file.url, options: .atomic)
            } catch {
                report.fail("Could not record the fixture \(file.url.path): \(error)")
                return existing
            }
            report.recordedFiles.append(file.url)
            var message =
                "Recorded the fixture \(file.displayPath) at \(file.url.path) (\(encoded.count) bytes; "
                + "record mode .\(policy.mode) from \(policy.reason))."
            if let existing {
                message +=
                    existing == encoded
                    ? " It had the same bytes before."
                    : " It had other bytes before:\n"
                        + ByteDifference.describe(fixture: existing, actual: encoded, actualLabel: "recorded")
            }
            report.fail(
                message + "\nCheck the file and commit it; a recording run always fails, and the "
                    + "next run compares against it." + previousVersionHint(for: file, of: subject))
            return encoded
        }
    }

    /// For a new `<name>-v<n>` fixture, how to keep checking the `-v<n-1>` file beside it.
    func previousVersionHint(for file: FixtureFile, of type: Any.Type?) -> String {
        guard let dash = file.name.range(of: "-v", options: .backwards),
            let version = Int(file.name[dash.upperBound...]), version > 1
        else { return "" }
        var previous = file
        previous.name = "\(file.name[..<dash.lowerBound])-v\(version - 1)"
        guard let bytes = FileManager.default.contents(atPath: previous.url.path) else { return "" }
        let codecs = [
            "json": ".json", "pretty.json": ".json(.pretty)", "xml.plist": ".propertyList(.xml)",
            "binary.plist": ".propertyList(.binary)",
        ]
        return "\nThe previous version's fixture \(previous.displayPath) stays as it is: pin it, so stored data "
            + "of that version keeps decoding, with expectDecodes(\(type.map { "\($0).self" } ?? "<type>"), fixture: "
            + "\"\(previous.name)\", \(codecs[file.fileExtension] ?? "<codec>"), as: <its value today>, "
            + "sha256: \"\(SHA256.hex(of: bytes))\")."
    }
}
