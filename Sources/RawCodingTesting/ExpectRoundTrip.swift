import Foundation
import RawCoding

/// Checks that `value` round-trips through each codec against a committed fixture file.
///
/// For each codec, with the fixture `Fixtures/<suite>/<fixture>.<codec.fileExtension>`:
/// 1. encodes `value` and compares the bytes with the fixture, showing a diff on mismatch
///    (the first differing line for text, a hex window for binary);
/// 2. decodes the fixture and compares the result with `value` (`==`), naming the key path of
///    the first difference;
/// 3. encodes the decoded value again and checks it gives the fixture's bytes.
///
/// Encoding and decoding failures are reported with the library's error text, coding path
/// included. A missing fixture is recorded or reported as ``FixtureRecordMode`` says; a run
/// that records always fails. On a mismatch, when `RAWCODING_ARTIFACTS` names a folder, the
/// bytes the check got are written there (see ``FixtureConfiguration/environment``).
///
/// A `StoredVersioned` value is encoded and decoded as stored data (its version recorded),
/// and its file name carries the version: `Settings-v3.json`. When the version goes up, the
/// check records `Settings-v4.json` and leaves `Settings-v3.json` as it is; the recording
/// message gives the call that keeps checking the old file,
/// ``expectDecodes(_:fixture:_:as:sha256:fixturesDirectory:suite:fileID:filePath:line:column:)``.
///
/// Failures are reported at the caller's source location: with `Issue.record` inside a Swift
/// Testing test, with `XCTFail` otherwise (XCTest).
///
/// ```swift
/// @Test func settingsFormatIsStable() {
///     expectRoundTrip(of: Settings.sample, fixture: "Settings", .json(.pretty), .propertyList(.binary))
/// }
/// ```
/// - Parameters:
///   - value: The value whose stored form is fixed by the fixture.
///   - fixture: The fixture's file name without extension.
///   - codecs: One or more codecs; each has its own fixture file, named by its
///     `fileExtension`.
///   - record: The record mode for this call, overriding configuration and environment
///     (but never CI).
///   - fixturesDirectory: The folder holding the suite folders; by default `Fixtures/` beside
///     the `Package.swift` above the calling file.
///   - suite: The folder inside the fixtures directory; by default the calling file's name
///     without `.swift`.
///   - fileID: The caller's file ID, for reporting; leave the default.
///   - filePath: The caller's file path, for reporting and for finding `Fixtures/`; leave the default.
///   - line: The caller's line, for reporting; leave the default.
///   - column: The caller's column, for reporting; leave the default.
/// - Returns: What was found (already reported to the test).
@discardableResult
public func expectRoundTrip<Value: Codable & Equatable, each C: Codec>(
    of value: Value,
    fixture: String,
    _ codecs: repeat each C,
    record: FixtureRecordMode? = nil,
    fixturesDirectory: URL? = nil,
    suite: String? = nil,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> CheckReport {
    var check = FixtureCheck(
        record: record, fixturesDirectory: fixturesDirectory, suite: suite,
        site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    var extensions: [String] = []
    for codec in repeat each codecs { extensions.append(codec.fileExtension) }
    let shared = Dictionary(grouping: extensions, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
    if extensions.isEmpty {
        check.report.fail("expectRoundTrip(of:fixture:) was given no codec; pass at least one, such as .json.")
    } else if !shared.isEmpty {
        check.report.fail(
            "Several of the codecs would use the same file (\(shared.map { "\(fixture).\($0)" }.joined(separator: ", ")));"
                + " check them in separate calls with different fixture names. Nothing was checked.")
    } else {
        for codec in repeat each codecs {
            check.roundTrip(value, name: fixture, codec: codec)
        }
    }
    return check.finish()
}

/// Checks bytes against a committed fixture file: the first step of
/// ``expectRoundTrip(of:fixture:_:record:fixturesDirectory:suite:fileID:filePath:line:column:)``
/// on its own, for output that does not come from a `Codable` value (a command-line tool's,
/// say).
///
/// The fixture is `Fixtures/<suite>/<fixture>.<fileExtension>`; it is recorded or reported
/// as ``FixtureRecordMode`` says, and mismatches are shown as a diff.
/// - Parameters:
///   - data: The bytes that should equal the fixture.
///   - fixture: The fixture's file name without extension.
///   - fileExtension: The fixture's extension without the leading dot, such as `xml.plist`.
///   - record: The record mode for this call.
///   - fixturesDirectory: The folder holding the suite folders.
///   - suite: The folder inside the fixtures directory.
///   - fileID: The caller's file ID, for reporting; leave the default.
///   - filePath: The caller's file path, for reporting and for finding `Fixtures/`; leave the default.
///   - line: The caller's line, for reporting; leave the default.
///   - column: The caller's column, for reporting; leave the default.
/// - Returns: What was found (already reported to the test).
@discardableResult
public func expectFixture(
    _ data: Data,
    fixture: String,
    fileExtension: String,
    record: FixtureRecordMode? = nil,
    fixturesDirectory: URL? = nil,
    suite: String? = nil,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> CheckReport {
    var check = FixtureCheck(
        record: record, fixturesDirectory: fixturesDirectory, suite: suite,
        site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    switch check.locate(name: fixture, fileExtension: fileExtension) {
    case .success(let file): _ = check.compareOrRecord(data, with: file)
    case .failure(let error): check.report.fail(error.message)
    }
    return check.finish()
}
