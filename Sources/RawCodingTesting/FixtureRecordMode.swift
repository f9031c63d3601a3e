/// When a fixture check writes the fixture file instead of only comparing with it.
///
/// The mode in force is the first of these that is set: the call's `record:` argument, the
/// enclosing ``FixtureConfiguration`` (a suite's ``FixtureTrait`` or
/// ``withFixtureConfiguration(_:operation:)-odq9``), the `RAWCODING_RECORD` environment variable
/// (`never`, `missing`, `all`; `1` or `true` mean `all`), and finally ``missing``.
///
/// When the `CI` or `TEST_RUNNER_CI` environment variable is set (to anything but empty, `0`,
/// `false` or `no`) nothing is ever written: the mode is ``never``, and a check that asked for ``all`` fails
/// saying so, so a forgotten `record: .all` cannot pass on CI.
///
/// Every check that writes a file fails, with a message naming the file, so a recording run
/// never passes unnoticed. Historical fixtures, checked with
/// ``expectDecodes(_:fixture:_:as:sha256:fixturesDirectory:suite:fileID:filePath:line:column:)``,
/// are never written in any mode.
public enum FixtureRecordMode: String, Sendable, CaseIterable {
    /// Only compare. A missing fixture is a failure that names the file to create.
    case never
    /// Write fixtures that do not exist yet (and fail); compare the others. The default.
    case missing
    /// Write every fixture (and fail), whether or not it existed or matched.
    case all
}

extension FixtureRecordMode {
    /// Reads a `RAWCODING_RECORD` value: a mode name, or `1`/`true` for ``all``.
    init?(environmentValue: String) {
        let value = environmentValue.lowercased()
        if let mode = FixtureRecordMode(rawValue: value) {
            self = mode
        } else if value == "1" || value == "true" {
            self = .all
        } else {
            return nil
        }
    }
}
