/// The environment variables the fixture checks read, each also under the `TEST_RUNNER_`
/// prefix that `xcodebuild` uses for variables meant for the test process.
struct FixtureEnvironment {
    var variables: [String: String]

    static let prefix = "TEST_RUNNER_"
    /// The record mode: `never`, `missing`, `all` (`1`/`true`).
    static let record = "RAWCODING_RECORD"
    /// The folder that holds the suite folders, overriding the search.
    static let fixtures = "RAWCODING_FIXTURES"
    /// Where a failing check writes the bytes it got, for CI to upload.
    static let artifacts = "RAWCODING_ARTIFACTS"
    /// Set on CI: nothing is ever recorded.
    static let ci = "CI"

    /// The variable `name`, or `TEST_RUNNER_<name>`, whichever is set and not empty, with the
    /// name it was found under (for messages).
    func lookup(_ name: String) -> (name: String, value: String)? {
        for candidate in [name, Self.prefix + name] {
            if let value = variables[candidate], !value.isEmpty { return (candidate, value) }
        }
        return nil
    }
}
