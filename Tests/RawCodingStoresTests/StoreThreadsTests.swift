import Foundation
import RawCoding
import RawCodingStores
import Testing

/// The thread pool under the stores' `async` calls: cancellation answers a waiting caller at
/// once, a job is released as it is taken, and a burst gets threads.
@Suite struct StoreThreadsTests {
    /// A job that waits behind another is cancelled: its caller is answered while the first
    /// job still runs, and its work never runs.
    @Test func aCancelledWaitingJobIsAnsweredAtOnce() async throws {
        let threads = StoreThreads(name: "StoreThreadsTests", width: 1)
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let blockerDone = Locked(false)
        let blocker = Task {
            try await threads.run(in: StoreThreadsTests.self, key: "a") { () throws(RawCodingError) in
                started.signal()
                // Released by the test, or after 10 s if the cancelled caller is not answered
                // before (then the test fails instead of hanging).
                _ = release.wait(timeout: .now() + 10)
                blockerDone.withLock { $0 = true }
                return 1
            }
        }
        await Task.detached { started.wait() }.value
        let ran = Locked(false)
        let waiting = Task {
            try await threads.run(in: StoreThreadsTests.self, key: "b") { () throws(RawCodingError) in
                ran.withLock { $0 = true }
                return 2
            }
        }
        try await waitUntil(threads, holds: 1)
        waiting.cancel()
        let outcome = await waiting.result
        #expect(!blockerDone.withLock { $0 }, "answered only once the job ahead of it finished")
        var error: RawCodingError?
        if case .failure(let failure) = outcome { error = failure as? RawCodingError }
        #expect(error?.kind == .cancelled)
        release.signal()
        #expect(try await blocker.value == 1)
        #expect(!ran.withLock { $0 }, "a cancelled job's work never runs")
    }

    /// A finished job's closure, and what it holds, is released while others still wait.
    @Test func aJobIsReleasedAsItIsTaken() async throws {
        final class Canary: Sendable {}
        let threads = StoreThreads(name: "StoreThreadsTests", width: 1)
        let first = Gate()
        let third = Gate()
        // The only thread runs the first job while the canary's and two more wait behind it.
        let jobs = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                group.addTask { try await threads.run(in: StoreThreadsTests.self, key: "1") { first.pass() } }
                await first.started()
                weak var weakCanary: Canary?
                do {
                    let canary = Canary()
                    weakCanary = canary
                    group.addTask {
                        try await threads.run(in: StoreThreadsTests.self, key: "2") {
                            withExtendedLifetime(canary) { 2 }
                        }
                    }
                }
                try await waitUntil(threads, holds: 1)
                group.addTask { try await threads.run(in: StoreThreadsTests.self, key: "3") { third.pass() } }
                try await waitUntil(threads, holds: 2)
                group.addTask { try await threads.run(in: StoreThreadsTests.self, key: "4") { 4 } }
                try await waitUntil(threads, holds: 3)
                first.open()
                await third.started()
                // The canary's job has run; the fourth still waits behind the third.
                let released = weakCanary == nil
                third.open()
                return try await group.reduce(0, +) == 0 ? false : released
            }
        }
        #expect(try await jobs.value, "the queue still held a finished job while others waited")
    }

    /// Jobs that can only finish together get a thread each, even when an idle thread was
    /// signalled and has not woken yet.
    @Test func aBurstGetsAThreadPerJob() async throws {
        let threads = StoreThreads(name: "StoreThreadsTests", width: 4)
        _ = try await threads.run(in: StoreThreadsTests.self, key: nil) { () throws(RawCodingError) in 0 }
        let arrived = Locked(0)
        let finished = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await threads.run(in: StoreThreadsTests.self, key: nil) { () throws(RawCodingError) in
                        arrived.withLock { $0 += 1 }
                        let deadline = Date().addingTimeInterval(10)
                        while arrived.withLock({ $0 }) < 4, Date() < deadline { usleep(1_000) }
                        return arrived.withLock { $0 } == 4
                    }
                }
            }
            return try await group.reduce(true) { $0 && $1 }
        }
        #expect(finished, "the four jobs did not run at once")
    }
}

/// A job that tells when it started and runs until opened (or 10 s, so a broken pool fails the
/// test instead of hanging it).
final class Gate: Sendable {
    private let didStart = DispatchSemaphore(value: 0)
    private let opened = DispatchSemaphore(value: 0)

    func pass() -> Int {
        didStart.signal()
        _ = opened.wait(timeout: .now() + 10)
        return 0
    }

    func started() async { await Task.detached { [didStart] in _ = didStart.wait(timeout: .now() + 10) }.value }

    func open() { opened.signal() }
}

/// Waits until `count` jobs wait in `threads` (at most 10 s), so jobs are queued in order.
func waitUntil(_ threads: StoreThreads, holds count: Int) async throws {
    let deadline = Date().addingTimeInterval(10)
    while threads.waitingCount < count, Date() < deadline { try await Task.sleep(nanoseconds: 1_000_000) }
}
