import Foundation

/// What a fixture check found. The failures have already been reported to the running test;
/// the report is there for code that wants to look further.
public struct CheckReport: Sendable, Equatable {
    /// Each failure's message, in the order they were reported.
    public var failures: [String] = []
    /// The fixture files this check wrote.
    public var recordedFiles: [URL] = []
    /// The files a failing check wrote to the `RAWCODING_ARTIFACTS` folder: the bytes it got
    /// instead of the fixture's.
    public var artifactFiles: [URL] = []

    /// Whether the check found nothing to report.
    public var passed: Bool { failures.isEmpty }

    mutating func fail(_ message: String) {
        failures.append(message)
    }
}

/// Where a check was called from, and how to report its failures there.
struct CallSite {
    var fileID: String
    var filePath: StaticString
    var line: UInt
    var column: UInt

    var filePathString: String { "\(filePath)" }
}
