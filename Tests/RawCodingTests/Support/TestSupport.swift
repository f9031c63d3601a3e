import Foundation
import RawCoding
import Testing

/// The built-in codecs, named for test output.
enum CodecCase: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case json, jsonPretty, xmlPropertyList, binaryPropertyList

    var codec: any Codec {
        switch self {
        case .json: JSONCodec.json
        case .jsonPretty: JSONCodec.json(.pretty)
        case .xmlPropertyList: PropertyListCodec.propertyList(.xml)
        case .binaryPropertyList: PropertyListCodec.propertyList(.binary)
        }
    }

    /// XML property lists store dates to the whole second.
    var keepsFractionalSeconds: Bool { self != .xmlPropertyList }

    var testDescription: String { rawValue }
}

/// Encodes and decodes `value` with `codec`, returning the decoded value and the bytes.
func roundTrip<Value: Codable>(_ value: Value, _ codec: any Codec) throws -> (Value, Data) {
    let data = try codec.encode(value)
    return (try codec.decode(Value.self, from: data), data)
}

/// Two equal dictionaries that iterate in different orders (built with different capacities),
/// for tests of canonical key order; fails the test if their orders happen to agree.
func equalDictionariesInOtherOrders() throws -> ([String: Int], [String: Int]) {
    let keys = (0..<40).map { "key\($0)" }
    var small = [String: Int](minimumCapacity: 40)
    var large = [String: Int](minimumCapacity: 4_096)
    for (value, key) in keys.enumerated() { small[key] = value }
    for (value, key) in keys.enumerated().reversed() { large[key] = value }
    try #require(small == large)
    try #require(Array(small.keys) != Array(large.keys), "the two dictionaries iterate in the same order")
    return (small, large)
}

/// Collects what a diagnostics handler receives.
final class Collected<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []

    func append(_ element: Element) { lock.withLock { storage.append(element) } }
    var all: [Element] { lock.withLock { storage } }
}

/// Paths inside the package, found from this file rather than the working directory.
enum PackagePaths {
    static let root: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        return directory
    }()

    static let fixtures = root.appendingPathComponent("Fixtures")

    /// The text of a file in the package (`README.md`, `Package.swift`, …).
    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The folder the test binary and the package's executables are built into.
    static let products: URL = {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent()
    }()
}

/// The result of running a child process.
struct ChildProcess {
    var status: Int32
    var reason: Process.TerminationReason
    var standardOutput: Data
    var standardError: Data

    var output: String { String(decoding: standardOutput, as: UTF8.self) }
    var errors: String { String(decoding: standardError, as: UTF8.self) }

    /// Runs `executable` with `arguments`, feeding nothing on standard input; a child still
    /// running after `timeout` seconds is terminated.
    static func run(
        _ executable: URL, _ arguments: [String], environment extra: [String: String] = [:],
        timeout: Int = 60
    ) throws -> ChildProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        // Swift's crash backtracer can take seconds to symbolicate; the tests only need the signal.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment.merge(extra) { $1 }
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // A child that hangs (say, a recursion the optimizer turned into a loop) is killed with
        // SIGTERM after a minute (or `timeout`), which the callers' status checks report as a failure.
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(timeout)) {
            if process.isRunning { process.terminate() }
        }
        // Both pipes at once: a child that fills one while we wait on the other would block.
        let errorReader = PipeReader(errors.fileHandleForReading)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errorReader.wait()
        process.waitUntilExit()
        return ChildProcess(
            status: process.terminationStatus, reason: process.terminationReason,
            standardOutput: outputData, standardError: errorData)
    }

    /// The first executable named `name` in a folder of `PATH`, as a shell finds it.
    static func onPath(_ name: String) -> URL? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// A product built beside the test binary; fails the test if it is missing.
    static func product(_ name: String) throws -> URL {
        let url = PackagePaths.products.appendingPathComponent(name)
        try #require(
            FileManager.default.isExecutableFile(atPath: url.path),
            "\(name) was not built at \(url.path); the test target depends on it, so `swift test` should build it")
        return url
    }
}

/// `python3` with `plistlib`, the interoperability oracle; `nil` (with a reason) where absent.
enum Python {
    static let executable = ChildProcess.onPath("python3")

    static let unavailableReason = "python3 is not on PATH: this test needs Python's plistlib or json as an oracle"

    /// The trait of every test that runs Python: skipped, with the reason, where it is absent.
    /// Put it on each such test, never on a whole suite, so the tests without Python still run.
    static var required: ConditionTrait {
        .enabled(if: executable != nil, Comment(rawValue: unavailableReason))
    }

    /// Runs a Python program with `input` on a temporary file whose path is `sys.argv[1]`.
    static func run(_ program: String, input: Data) throws -> ChildProcess {
        let python = try #require(executable, "\(unavailableReason)")
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("rawcoding-\(UUID().uuidString)")
        try input.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try ChildProcess.run(python, ["-c", program, file.path])
    }
}

/// Sanitizers this test process was built with.
enum Sanitizers {
    /// Whether AddressSanitizer is linked in (`swift test --sanitize=address`): it keeps freed
    /// memory in quarantine, so resident memory grows, and it reports stack overflows itself.
    static let address = dlsym(nil, "__asan_init") != nil
    /// Whether ThreadSanitizer is linked in (`swift test --sanitize=thread`): it reports a
    /// stack overflow itself (exit 66), and its shadow memory raises resident memory.
    static let thread = dlsym(nil, "__tsan_init") != nil
    /// Either one: child processes are built the same way, so their signals and memory change.
    static let any = address || thread
}

/// Reads a pipe to its end on another thread.
final class PipeReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything read, once the pipe has closed.
    func wait() -> Data {
        done.wait()
        return data
    }
}

/// Regular-expression captures, for tests that read numbers and names out of text files.
enum TextPattern {
    /// The first capture group of every match of `pattern` in `text`, in order.
    static func captures(_ pattern: String, in text: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
