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

/// Runs `body` on a thread of its own and waits at most `seconds` for its result, for a test
/// of a deadlock: a hung body fails the test with `message` within that time (and returns
/// `nil`), where it would otherwise hang the run; its thread is left blocked. Swift Testing's
/// `.timeLimit` is no substitute: it counts from the moment the test is scheduled, and with the
/// suites in parallel on two cores a test can wait over a minute for a concurrency thread
/// before its body runs (measured: 66–69 s in a debug run, with both pool threads waiting on
/// the plistlib oracle's child processes), so it failed a test whose body takes 4 ms.
/// Expectations belong after the call, on the test's own task, not in `body`.
func finishing<Result: Sendable>(
    within seconds: Double, _ message: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () throws -> Result
) throws -> Result? {
    let done = DispatchSemaphore(value: 0)
    let outcome = Locked<Swift.Result<Result, any Error>?>(nil)
    Thread.detachNewThread {
        let result = Swift.Result { try body() }
        outcome.withLock { $0 = result }
        done.signal()
    }
    guard done.wait(timeout: .now() + seconds) == .success, let result = outcome.withLock({ $0 }) else {
        Issue.record("\(message): not finished after \(seconds) s", sourceLocation: sourceLocation)
        return nil
    }
    return try result.get()
}
