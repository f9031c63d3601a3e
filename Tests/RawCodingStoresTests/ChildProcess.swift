import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A child process: `StoreProbe` or one of the examples.
final class Probe {
    let process = Process()
    private let output = Pipe()

    init(_ arguments: [String], executable: String = "StoreProbe") throws {
        process.executableURL = try Products.url(executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits for the child to exit (killing it after a minute) and returns what it printed.
    @discardableResult
    func finish() -> (status: Int32, reason: Process.TerminationReason, output: String) {
        let process = self.process
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationStatus, process.terminationReason, String(decoding: data, as: UTF8.self))
    }

    /// Kills the child with SIGKILL, as a crash or a power cut of the process would.
    func kill() -> (status: Int32, reason: Process.TerminationReason, output: String) {
        #if canImport(Darwin)
            Darwin.kill(process.processIdentifier, SIGKILL)
        #else
            Glibc.kill(process.processIdentifier, SIGKILL)
        #endif
        return finish()
    }
}
