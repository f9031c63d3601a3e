import Foundation
import Testing

/// A directory under the system's temporary directory, removed when released.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("RawCodingStoresTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Products built beside the test binary.
enum Products {
    static let directory: URL = {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent()
    }()

    static func url(_ name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try #require(
            FileManager.default.isExecutableFile(atPath: url.path),
            "\(name) was not built at \(url.path); the test target depends on it, so `swift test` should build it")
        return url
    }
}
