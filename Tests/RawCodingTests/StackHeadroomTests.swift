import Foundation
import RawCoding
import RawCodingFuzzTargets
import Testing

/// Every recursive path on threads with 128, 256 and 512 KiB stacks, at depths up to the
/// default `Limits.maximumDepth`, run by `StackProbe` in a child process (a crash must fail
/// this test, not end the suite). Apple's secondary threads, GCD's workers and Swift
/// concurrency's threads have 512 KiB stacks.
@Suite("Stack headroom", .serialized)
struct StackHeadroomTests {
    struct Case {
        var path: String
        var shape: String
        var depth: Int
        var outcome: String
    }

    @Test("no path crashes; each refusal is limitExceeded naming the thread's stack", arguments: [128, 256, 512])
    func deepInputOnSmallStacksIsRefusedNotCrashed(stackKiB: Int) throws {
        try Self.probe(try ChildProcess.product("StackProbe"), stackKiB: stackKiB)
    }

    /// What ReadersAndWriters promises of release builds: 300 levels of a recursive model on a
    /// 512 KiB thread through every path, and a deep tree released on a 128 KiB one. Run on a
    /// release build's `StackProbe`: the one `RAWCODING_RELEASE_STACK_PROBE` names (`.ci/run`
    /// builds one, since its optimized tests run under ThreadSanitizer, whose frames are larger),
    /// or this build's own when it is one (`swift test -c release`).
    @Test(
        .enabled(
            if: releaseProbe != nil,
            "needs a release build's StackProbe: swift test -c release, or RAWCODING_RELEASE_STACK_PROBE"),
        arguments: [128, 256, 512])
    func aReleaseBuildKeepsItsStackPromise(stackKiB: Int) throws {
        let lines = try Self.probe(try #require(Self.releaseProbe), stackKiB: stackKiB)
        #expect(
            lines.first == "optimized true sanitized false", "not a release build's StackProbe: \(lines.first ?? "")")
    }

    static let releaseProbe: URL? = {
        if let path = ProcessInfo.processInfo.environment["RAWCODING_RELEASE_STACK_PROBE"] {
            return URL(fileURLWithPath: path)
        }
        return !_isDebugAssertConfiguration() && !Sanitizers.any ? try? ChildProcess.product("StackProbe") : nil
    }()

    /// Runs `probe` on threads of `stackKiB` and checks every case; with a release build's
    /// probe, also that 300 levels fit 512 KiB. Returns the probe's lines.
    @discardableResult
    static func probe(_ probe: URL, stackKiB: Int) throws -> [String] {
        let run = try ChildProcess.run(probe, ["\(stackKiB)"])
        let lines = run.output.split(separator: "\n").map(String.init)
        try #require(
            run.reason == .exit && run.status == 0 && lines.last == "done",
            "StackProbe ended with \(run.reason) \(run.status) after: \(lines.last ?? "nothing")\n\(run.errors)")
        let release = lines.first == "optimized true sanitized false"
        let cases = lines.filter { $0.hasPrefix("case ") }.map { line in
            let fields = line.split(separator: " ", maxSplits: 5).map(String.init)
            return Case(path: fields[2], shape: fields[3], depth: Int(fields[4]) ?? 0, outcome: fields[5])
        }
        #expect(cases.count == lines.filter { $0.hasPrefix("start ") }.count)
        // 4 codecs × 5 paths, the OpenStep reader, 4 tree operations (5 in release builds),
        // RawCodable, a store read and `rawcoding convert`, for 3 shapes at 5 depths.
        #expect(cases.count >= 28 * 3 * 5)
        for item in cases where item.outcome != "ok" {
            // The stack the thread really has: what was asked for, and a sanitizer's or the
            // system's additions (ThreadSanitizer's 128 KiB threads measure 134 KiB).
            let stated = item.outcome.firstRange(of: /a (\d+) KiB stack/).flatMap {
                Int(item.outcome[$0].split(separator: " ")[1])
            }
            #expect(
                item.outcome.hasPrefix("refused") && (stated.map { (stackKiB..<stackKiB + 64).contains($0) } ?? false),
                "\(item.path) \(item.shape) \(item.depth): \(item.outcome)")
        }
        // Every path is reached: what a shallow document needs always fits.
        let paths = Set(cases.map(\.path))
        #expect(paths.count >= 28)
        if release {
            #expect(paths.contains("tree-release"))
            if stackKiB == 512 {
                for item in cases where item.depth <= 300 {
                    #expect(
                        item.outcome == "ok", "\(item.path) \(item.shape) \(item.depth) on 512 KiB: \(item.outcome)")
                }
            }
        }
        if stackKiB == 512 {
            // Something deep is refused on a small stack only because of the stack: the
            // refusal is real, not a depth limit met by every thread.
            #expect(cases.contains { $0.outcome.hasPrefix("refused") } || release)
        }
        return lines
    }

    /// Only an address on the thread's stack is compared with the reserve: a local that
    /// AddressSanitizer moved to the heap once read as a stack used up three levels deep.
    @Test func anAddressOffTheThreadsStackSaysNothing() {
        SmallStackThread.run(stackSize: 512 << 10) {
            let headroom = StackHeadroom.current()
            #expect(headroom.stackSize >= 512 << 10)
            let heap = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
            defer { heap.deallocate() }
            #expect(headroom.stackAddress(of: UInt(bitPattern: heap)) == nil)
            #expect(headroom.stackAddress(of: 0) == nil)
            let nearlyUsedUp = headroom.floor - 1
            #expect(headroom.stackAddress(of: nearlyUsedUp) == nearlyUsedUp)
            #expect(!headroom.isExhausted)
        }
    }

    /// Under AddressSanitizer with its fake stack on (`detect_stack_use_after_return`, as the
    /// fuzzer's builds run), a function's locals may be on the heap while the next function's
    /// are on the stack: a shallow value must never be refused for the stack. The headroom once
    /// compared a fake-stack address with the real stack and refused a three-level record on a
    /// 512 KiB thread (the codec-roundtrip fuzz finding). A deep one is still refused, not a
    /// crash: the fake stack's frames are mapped to the real stack while they are live.
    @Test(.enabled(if: Sanitizers.address, "needs AddressSanitizer (swift test --sanitize=address)"))
    func shallowValuesFitWhenLocalsAreOnTheFakeStack() throws {
        let run = try ChildProcess.run(
            try ChildProcess.product("StackProbe"), ["512", "--depths", "3,8,512"],
            environment: ["ASAN_OPTIONS": "detect_stack_use_after_return=1:detect_leaks=0"])
        let lines = run.output.split(separator: "\n").map(String.init)
        try #require(
            run.reason == .exit && run.status == 0 && lines.last == "done",
            "StackProbe ended with \(run.reason) \(run.status) after: \(lines.last ?? "nothing")\n\(run.errors)")
        let cases = lines.filter { $0.hasPrefix("case ") }
        #expect(cases.count >= 28 * 3 * 3)
        for line in cases where !line.contains(" 512 refused ") { #expect(line.hasSuffix(" ok"), "\(line)") }
    }
}
