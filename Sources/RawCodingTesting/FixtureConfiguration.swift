import Foundation

/// Settings shared by the fixture checks that run inside it: record mode, where fixtures live,
/// the suite folder, and the environment the record settings are read from.
///
/// Set it for a Swift Testing suite with the ``FixtureTrait`` (`@Suite(.fixtures(record: .all))`),
/// or around any code, including an XCTest case's `invokeTest()`, with
/// ``withFixtureConfiguration(_:operation:)-odq9``. Values left `nil` fall back to the enclosing
/// configuration, then to the defaults. A check's own arguments win over all of them.
public struct FixtureConfiguration: Sendable {
    /// The record mode; `nil` defers to the enclosing configuration, then `RAWCODING_RECORD`.
    public var recordMode: FixtureRecordMode?
    /// The folder that holds the suite folders; `nil` means the first of: the folder named by
    /// `RAWCODING_FIXTURES`; `Fixtures/` beside the `Package.swift` found above the calling test
    /// file; the nearest `Fixtures/` folder at or above the test file's folder, searching up to
    /// the project's root (a folder holding `.git`, an `.xcodeproj` or an `.xcworkspace`), as
    /// in an Xcode app project; `Fixtures/` beside the test file.
    public var fixturesDirectory: URL?
    /// The folder inside ``fixturesDirectory`` for the checks; `nil` means the calling test
    /// file's name without `.swift`.
    public var suite: String?
    /// The environment the checks read; `nil` means the process environment. Tests of test
    /// tooling set it to pin the behaviour. Each variable is also read with the `TEST_RUNNER_`
    /// prefix `xcodebuild` uses:
    /// - `RAWCODING_RECORD`: the record mode (see ``FixtureRecordMode``).
    /// - `CI`: set on CI, where nothing is recorded.
    /// - `RAWCODING_FIXTURES`: the fixtures folder, when ``fixturesDirectory`` is not set.
    /// - `RAWCODING_ARTIFACTS`: a folder where a failing check writes the bytes it got
    ///   (`<suite>/<name>.actual.<extension>`), for CI to upload.
    public var environment: [String: String]?

    /// Creates a configuration; every setting left `nil` is inherited.
    /// - Parameters:
    ///   - recordMode: The record mode.
    ///   - fixturesDirectory: The folder holding the suite folders.
    ///   - suite: The suite folder's name.
    ///   - environment: Where `RAWCODING_RECORD`, `CI` and the other variables are read.
    public init(
        recordMode: FixtureRecordMode? = nil,
        fixturesDirectory: URL? = nil,
        suite: String? = nil,
        environment: [String: String]? = nil
    ) {
        self.recordMode = recordMode
        self.fixturesDirectory = fixturesDirectory
        self.suite = suite
        self.environment = environment
    }

    /// The configuration in force for the current task.
    @TaskLocal public static var current = FixtureConfiguration()

    /// This configuration with `inner`'s settings taking precedence where `inner` sets them.
    func overridden(by inner: FixtureConfiguration) -> FixtureConfiguration {
        FixtureConfiguration(
            recordMode: inner.recordMode ?? recordMode,
            fixturesDirectory: inner.fixturesDirectory ?? fixturesDirectory,
            suite: inner.suite ?? suite,
            environment: inner.environment ?? environment)
    }
}

/// Runs `operation` with `configuration` applied on top of the current one.
///
/// In an XCTest case, apply it to every test of the class:
///
/// ```swift
/// override func invokeTest() {
///     withFixtureConfiguration(FixtureConfiguration(suite: "Settings")) { super.invokeTest() }
/// }
/// ```
/// - Parameters:
///   - configuration: Settings for the checks inside `operation`; `nil` settings are inherited.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
public func withFixtureConfiguration<Result>(
    _ configuration: FixtureConfiguration, operation: () throws -> Result
) rethrows -> Result {
    try FixtureConfiguration.$current.withValue(
        FixtureConfiguration.current.overridden(by: configuration), operation: operation)
}

/// Runs the asynchronous `operation` with `configuration` applied on top of the current one.
/// - Parameters:
///   - configuration: Settings for the checks inside `operation`; `nil` settings are inherited.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
public func withFixtureConfiguration<Result>(
    _ configuration: FixtureConfiguration, operation: () async throws -> Result
) async rethrows -> Result {
    try await FixtureConfiguration.$current.withValue(
        FixtureConfiguration.current.overridden(by: configuration), operation: operation)
}
