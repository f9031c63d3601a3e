import Foundation
import RawCoding

/// Checks that a historical fixture, a payload an earlier version of the app stored, still
/// decodes into today's model with the expected value. The file is never written: no record
/// mode, `RAWCODING_RECORD=all` included, touches it.
///
/// With the fixture `Fixtures/<suite>/<fixture>.<codec.fileExtension>`, the check:
/// 1. compares the file's SHA-256 with `sha256`, when given, so a changed historical fixture
///    fails the test (compute it with `sha256sum` or `shasum -a 256`);
/// 2. decodes it as stored data: migrations (`StoredVersioned`) and default filling
///    (`StoredDefault`) run, as in the app;
/// 3. compares the value with `expected`, naming the key path of the first difference;
/// 4. re-encodes the value as stored data and checks that it decodes back equal and, for a
///    versioned type, at the current version.
///
/// When the model changes, the current form's fixture is checked by
/// ``expectRoundTrip(of:fixture:_:record:fixturesDirectory:suite:fileID:filePath:line:column:)``
/// and the files of earlier forms by this check, so last year's data keeps proving it decodes:
///
/// ```swift
/// @Test func storedSettingsOfEveryReleaseStillDecode() {
///     expectRoundTrip(of: Settings.sample, fixture: "Settings", .json)   // Settings-v3.json
///     expectDecodes(Settings.self, fixture: "Settings-v1", .json, as: Settings.fromV1,
///                   sha256: "9f2c…")
///     expectDecodes(Settings.self, fixture: "Settings-v2", .json, as: Settings.fromV2,
///                   sha256: "41d0…")
/// }
/// ```
/// - Parameters:
///   - type: The current model.
///   - fixture: The fixture's file name without extension.
///   - codec: The codec the payload was written with; its `fileExtension` names the file.
///   - expected: What the payload must decode as today.
///   - sha256: The file's SHA-256 as hex; when given, any change to the file fails the check.
///   - fixturesDirectory: The folder holding the suite folders (see ``FixtureConfiguration``).
///   - suite: The folder inside the fixtures directory; by default the calling file's name.
///   - fileID: The caller's file ID, for reporting; leave the default.
///   - filePath: The caller's file path, for reporting and for finding `Fixtures/`; leave the default.
///   - line: The caller's line, for reporting; leave the default.
///   - column: The caller's column, for reporting; leave the default.
/// - Returns: What was found (already reported to the test).
@discardableResult
public func expectDecodes<Value: Codable & Equatable>(
    _ type: Value.Type,
    fixture: String,
    _ codec: some Codec,
    as expected: Value,
    sha256: String? = nil,
    fixturesDirectory: URL? = nil,
    suite: String? = nil,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> CheckReport {
    var check = FixtureCheck(
        record: nil, fixturesDirectory: fixturesDirectory, suite: suite,
        site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column), recording: false)
    switch check.locate(name: fixture, fileExtension: codec.fileExtension) {
    case .success(let file): check.decodeHistorical(type, file: file, codec: codec, expected: expected, sha256: sha256)
    case .failure(let error): check.report.fail(error.message)
    }
    return check.finish()
}

extension FixtureCheck {
    /// The steps of ``expectDecodes(_:fixture:_:as:sha256:fixturesDirectory:suite:fileID:filePath:line:column:)``.
    mutating func decodeHistorical<Value: Codable & Equatable>(
        _ type: Value.Type, file: FixtureFile, codec: some Codec, expected: Value, sha256: String?
    ) {
        guard let bytes = FileManager.default.contents(atPath: file.url.path) else {
            return report.fail(
                "The historical fixture \(file.displayPath) is missing (expected at \(file.url.path)). Historical "
                    + "fixtures are never recorded: restore the file from version control (git log -- "
                    + "\(file.url.lastPathComponent) finds it).")
        }
        let digest = SHA256.hex(of: bytes)
        if let sha256, sha256.lowercased() != digest {
            report.fail(
                "The historical fixture \(file.displayPath) has changed: its SHA-256 is \(digest), pinned as "
                    + "\(sha256). It holds data an earlier version stored and must stay as it was: restore it "
                    + "from version control (git checkout -- \(file.url.path)). To check the current form, use "
                    + "expectRoundTrip with another fixture name.")
        }
        let decoded: StoredDecoding<Value>
        do {
            decoded = try codec.decodeStored(Value.self, from: bytes)
        } catch {
            return report.fail(
                "The historical fixture \(file.displayPath) no longer decodes as \(Value.self): \(error)\nStored "
                    + "data of this form would be lost. Add a migration step (StoredVersioned) or a default "
                    + "(StoredDefault) that reads it.")
        }
        let current: Data
        do {
            current = try codec.encodeStored(decoded.value, keeping: decoded.unknownKeys)
        } catch {
            return report.fail("Encoding the value decoded from \(file.displayPath) failed: \(error)")
        }
        if decoded.value != expected {
            fail(valueMismatch(decoded: decoded.value, expected: expected, file: file), actual: current, for: file)
        }
        let again: StoredDecoding<Value>
        do {
            again = try codec.decodeStored(Value.self, from: current)
        } catch {
            return fail(
                "The value decoded from \(file.displayPath), written back, does not decode: \(error)",
                actual: current, for: file, label: "rewritten")
        }
        if again.value != decoded.value {
            fail(
                "The value decoded from \(file.displayPath), written back and read again, is another value: "
                    + valueMismatch(decoded: again.value, expected: decoded.value, file: file),
                actual: current, for: file, label: "rewritten")
        }
        if let versioned = Value.self as? any StoredVersioned.Type, again.storedVersion != versioned.storedVersion {
            fail(
                "The value decoded from \(file.displayPath), written back, records version "
                    + "\(again.storedVersion.map(String.init) ?? "none") instead of \(versioned.storedVersion).",
                actual: current, for: file, label: "rewritten")
        }
    }
}
