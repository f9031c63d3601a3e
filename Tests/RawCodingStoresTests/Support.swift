import Foundation
import RawCoding
import RawCodingStores
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

/// An update whose body throws ends its transaction: the other instance (another connection)
/// writes at once, and each instance reads what the other wrote, committed.
func expectAFailedUpdateEndsItsTransaction(_ store: any KeyValueStore, _ other: any KeyValueStore) throws {
    try store.write(1, forKey: "count")
    #expect(throws: RawCodingError.self) {
        try store.update(forKey: "count") { (_: inout StoredValue?) throws(RawCodingError) in
            throw RawCodingError(kind: .encodingFailed, typeName: "Test", reason: "refused")
        }
    }
    try other.write(2, forKey: "count")
    #expect(try store.read(forKey: "count") == 2)
    try store.write(3, forKey: "count")
    #expect(try other.read(forKey: "count") == 3)
}
