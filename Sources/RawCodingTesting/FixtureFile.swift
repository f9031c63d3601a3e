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
    static func locate(
        name: String, fileExtension: String, configuration: FixtureConfiguration, callerFilePath: String
    ) -> Result<FixtureFile, FixtureSetupError> {
        for (label, component) in [("fixture name", name), ("file extension", fileExtension)] {
            if let problem = problem(with: component, label: label) { return .failure(problem) }
        }
        let suite = configuration.suite ?? defaultSuite(callerFilePath: callerFilePath)
        if let problem = problem(with: suite, label: "suite name") { return .failure(problem) }
        let directory: URL
        if let configured = configuration.fixturesDirectory {
            directory = configured
        } else {
            guard let root = packageRoot(above: callerFilePath) else {
                return .failure(
                    FixtureSetupError(
                        message:
                            "No Package.swift was found in any folder above \(callerFilePath), so the "
                            + "package's Fixtures/ folder is unknown. Pass fixturesDirectory: or set "
                            + "FixtureConfiguration.fixturesDirectory."))
            }
            directory = root.appendingPathComponent("Fixtures", isDirectory: true)
        }
        return .success(FixtureFile(directory: directory, suite: suite, name: name, fileExtension: fileExtension))
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
