/// The record mode a check uses, where it came from, and any problem with the settings.
struct RecordPolicy: Equatable {
    /// The mode in force.
    var mode: FixtureRecordMode
    /// Where the mode came from, for messages: "the default", "CI is set", ...
    var reason: String
    /// A settings problem to report as a failure (a refused recording on CI, a bad
    /// `RAWCODING_RECORD`), or `nil`.
    var problem: String?

    /// Resolves the mode from the call's argument, the configuration and the environment
    /// (`RAWCODING_RECORD` and `CI`, each also as `TEST_RUNNER_…`).
    static func resolve(
        call: FixtureRecordMode?, configured: FixtureRecordMode?, environment: [String: String]
    ) -> RecordPolicy {
        let environment = FixtureEnvironment(variables: environment)
        var problem: String?
        var requested: (mode: FixtureRecordMode, source: String)?
        if let call {
            requested = (call, "the call's record: .\(call)")
        } else if let configured {
            requested = (configured, "the fixture configuration's record mode .\(configured)")
        } else if let (name, text) = environment.lookup(FixtureEnvironment.record) {
            if let mode = FixtureRecordMode(environmentValue: text) {
                requested = (mode, "\(name)=\(text)")
            } else {
                problem =
                    "\(name)=\(text) is not a record mode: use never, missing or all "
                    + "(1 or true mean all). Nothing was recorded."
                requested = (.never, "the invalid \(name)=\(text)")
            }
        }

        if let (name, ci) = ciVariable(in: environment) {
            if let requested, requested.mode == .all {
                problem =
                    "Recording was asked for by \(requested.source), but \(name)=\(ci) is set, so nothing "
                    + "was written and the fixtures were only compared. Record locally, commit the "
                    + "fixtures and remove the record mode."
            }
            return RecordPolicy(mode: .never, reason: "\(name)=\(ci) is set", problem: problem)
        }
        guard let requested else {
            return RecordPolicy(mode: .missing, reason: "the default", problem: problem)
        }
        return RecordPolicy(mode: requested.mode, reason: requested.source, problem: problem)
    }

    /// `CI` or `TEST_RUNNER_CI` (what `xcodebuild` passes), when set to a true value.
    static func ciVariable(in environment: FixtureEnvironment) -> (name: String, value: String)? {
        for name in [FixtureEnvironment.ci, FixtureEnvironment.prefix + FixtureEnvironment.ci] {
            if let value = environment.variables[name], isSet(value) { return (name, value) }
        }
        return nil
    }

    /// Whether an environment flag such as `CI` counts as set.
    static func isSet(_ value: String) -> Bool {
        !["", "0", "false", "no"].contains(value.lowercased())
    }
}
