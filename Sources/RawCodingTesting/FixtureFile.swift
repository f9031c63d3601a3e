import Foundation

/// Where one fixture lives: `<fixtures directory>/<suite>/<name>.<extension>`.
struct FixtureFile {
    var directory: URL
    var suite: String
    var name: String
    var fileExtension: String

    var url: URL {
        directory.appendingPathComponent(suite, isDirectory: true)
            .appendingPathComponent("\(name).\(fileExtension)")
    }

    /// The path shown in messages: `<suite>/<name>.<extension>`.
    var displayPath: String { "\(suite)/\(name).\(fileExtension)" }

    /// The fixture's location, or a message saying why it cannot be worked out.
    ///
    /// The fixtures folder is the first of: the configured one; `RAWCODING_FIXTURES` (or
    /// `TEST_RUNNER_RAWCODING_FIXTURES`); `Fixtures/` beside the `Package.swift` above the test
    /// file; the nearest `Fixtures/` folder at or above the test file's folder, up to the
    /// project's root (a folder with `.git`, an `.xcodeproj` or an `.xcworkspace`); and
    /// otherwise `Fixtures/` beside the test file, created when a fixture is recorded.
    static func locate(
        name: String, fileExtension: String, configuration: FixtureConfiguration, callerFilePath: String,
        environment: FixtureEnvironment
    ) -> Result<FixtureFile, FixtureSetupError> {
        for (label, component) in [("fixture name", name), ("file extension", fileExtension)] {
            if let problem = problem(with: component, label: label) { return .failure(problem) }
        }
        let suite = configuration.suite ?? defaultSuite(callerFilePath: callerFilePath)
        if let problem = problem(with: suite, label: "suite name") { return .failure(problem) }
        let directory: URL
        if let configured = configuration.fixturesDirectory {
            directory = configured
        } else if let (_, path) = environment.lookup(FixtureEnvironment.fixtures) {
            directory = URL(fileURLWithPath: path, isDirectory: true)
        } else if let root = packageRoot(above: callerFilePath) {
            directory = root.appendingPathComponent("Fixtures", isDirectory: true)
        } else {
            directory =
                nearestFixturesFolder(above: callerFilePath)
                ?? URL(fileURLWithPath: callerFilePath).deletingLastPathComponent()
                .appendingPathComponent("Fixtures", isDirectory: true)
        }
        return .success(FixtureFile(directory: directory, suite: suite, name: name, fileExtension: fileExtension))
    }

    /// The nearest existing `Fixtures/` folder at or above `filePath`'s folder, searching no
    /// higher than the first folder that holds `.git`, an `.xcodeproj` or an `.xcworkspace`.
    static func nearestFixturesFolder(above filePath: String) -> URL? {
        let files = FileManager.default
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while true {
            let candidate = directory.appendingPathComponent("Fixtures", isDirectory: true)
            var isDirectory: ObjCBool = false
            if files.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return candidate
            }
            let parent = directory.deletingLastPathComponent()
            guard files.fileExists(atPath: directory.path) else {
                // The test file's folder need not exist here (a path from another machine).
                if parent.path == directory.path { return nil }
                directory = parent
                continue
            }
            let entries: [String]
            do {
                entries = try files.contentsOfDirectory(atPath: directory.path)
            } catch {
                // A folder that cannot be listed ends the search: the fixture then goes beside
                // the test file, and every message names the path it used.
                return nil
            }
            if entries.contains(where: { $0 == ".git" || $0.hasSuffix(".xcodeproj") || $0.hasSuffix(".xcworkspace") }) {
                return nil
            }
            if parent.path == directory.path { return nil }
            directory = parent
        }
    }

    /// The calling test file's name without `.swift`.
    static func defaultSuite(callerFilePath: String) -> String {
        let file = URL(fileURLWithPath: callerFilePath).lastPathComponent
        return file.hasSuffix(".swift") ? String(file.dropLast(".swift".count)) : file
    }

    /// The nearest folder above `filePath` that holds a `Package.swift`.
    static func packageRoot(above filePath: String) -> URL? {
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while true {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { return nil }
            directory = parent
        }
    }

    /// Why `component` cannot be one path component, or `nil` if it can.
    static func problem(with component: String, label: String) -> FixtureSetupError? {
        if component.isEmpty {
            return FixtureSetupError(message: "The \(label) is empty.")
        }
        if component.contains("/") || component.contains("\0") || component.hasPrefix(".") {
            return FixtureSetupError(
                message:
                    "The \(label) \"\(component)\" must be a single file-name component: no \"/\", "
                    + "and not starting with \".\".")
        }
        return nil
    }
}

/// A check could not start: bad names, no package root.
struct FixtureSetupError: Error {
    var message: String
}
