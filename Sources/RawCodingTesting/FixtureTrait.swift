import Foundation
import Testing

/// A Swift Testing trait that sets the ``FixtureConfiguration`` for a suite or a test.
///
/// ```swift
/// @Suite(.fixtures(suite: "Settings"))
/// struct SettingsFormatTests { ... }
/// ```
///
/// On a suite it applies to every test inside, nested suites included.
public struct FixtureTrait: SuiteTrait, TestTrait, TestScoping {
    /// The settings applied.
    public var configuration: FixtureConfiguration

    /// Applies to the tests inside a suite too.
    public var isRecursive: Bool { true }

    /// Runs `function` with ``configuration`` in force.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withFixtureConfiguration(configuration, operation: function)
    }
}

extension Trait where Self == FixtureTrait {
    /// Sets fixture settings for a suite or a test; settings left `nil` are inherited.
    /// - Parameters:
    ///   - record: The record mode.
    ///   - directory: The folder holding the suite folders (default: the package's `Fixtures/`).
    ///   - suite: The suite folder's name (default: the test file's name).
    /// - Returns: The trait.
    public static func fixtures(
        record: FixtureRecordMode? = nil, directory: URL? = nil, suite: String? = nil
    ) -> FixtureTrait {
        FixtureTrait(
            configuration: FixtureConfiguration(
                recordMode: record, fixturesDirectory: directory, suite: suite))
    }

    /// Sets a whole ``FixtureConfiguration`` for a suite or a test.
    /// - Parameter configuration: The settings.
    /// - Returns: The trait.
    public static func fixtures(_ configuration: FixtureConfiguration) -> FixtureTrait {
        FixtureTrait(configuration: configuration)
    }
}
