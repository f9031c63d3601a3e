import Foundation
import Testing

/// The trap is real: the naive snippet kills its process; the guarded model does not.
@Suite("Recursion trap in a child process")
struct TrapProcessTests {
    @Test func naiveSnippetDiesOfASignal() throws {
        let result = try ChildProcess.run(try ChildProcess.product("TrapDemo"), ["naive"])
        if Sanitizers.any {
            // Built with --sanitize=address or thread, the child reports the overflow itself and
            // exits (1 or 66) instead of dying of the signal.
            #expect(result.reason == .exit && result.status != 0, "exit \(result.status)")
            #expect(result.errors.contains("stack-overflow"), "\(result.errors)")
            #expect(!result.output.contains("unreachable"))
            return
        }
        #expect(result.reason == .uncaughtSignal, "exit \(result.status): \(result.output) \(result.errors)")
        // SIGSEGV (stack overflow) on Linux; SIGBUS is the same overflow on some systems.
        #expect([SIGSEGV, SIGBUS, SIGILL].contains(result.status), "signal \(result.status)")
        #expect(!result.output.contains("unreachable"))
    }

    @Test func guardedModelReturnsTheTypedErrorAndExitsNormally() throws {
        let result = try ChildProcess.run(try ChildProcess.product("TrapDemo"), ["guarded"])
        #expect(result.reason == .exit)
        #expect(result.status == 0, "\(result.output) \(result.errors)")
        #expect(result.output.hasPrefix("kind=recursionTrap\n"))
        #expect(result.output.contains("GuardedSettings"))
        #expect(result.output.contains("RawCodable<TrapDemo.GuardedSettings>"))
    }

    @Test func defaultHandlerPrintsEachRepeatedFailureOnceAndCountsTheRest() throws {
        let result = try ChildProcess.run(try ChildProcess.product("TrapDemo"), ["repeat"])
        #expect(result.status == 0, "\(result.output) \(result.errors)")
        let lines = result.errors.split(separator: "\n")
        // 30,000 failures of three different messages: three lines, one each.
        #expect(lines.count == 3, "\(result.errors.prefix(2_000))")
        #expect(lines.filter { $0.hasPrefix("RawCoding: storedValueDidNotDecode: ") }.count == 1)
        #expect(lines.filter { $0.hasPrefix("RawCoding: recursionTrap: ") }.count == 2)
        #expect(result.output.contains("repeatCounts=[10000, 10000, 10000]"), "\(result.output)")
    }
}
