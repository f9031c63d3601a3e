import Foundation
import RawCoding

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Threads of a store's own, that run its blocking calls (`flock`, `fsync`, SQLite, libpq) for
/// its `async` API, so that a call waiting for a lock or a round trip holds none of the Swift
/// concurrency pool's few threads.
///
/// Up to `width` threads run jobs in the order they came; a thread starts when a job finds every
/// running one busy, and ends after a second without work, so an idle store holds no thread.
package final class StoreThreads: @unchecked Sendable {
    /// The threads of stores that bring none of their own (stores written outside this package).
    package static let shared = StoreThreads(name: "RawCodingStores", width: 4)

    private struct State {
        var queue: [@Sendable () -> Void] = []
        var head = 0
        var running = 0
        var idle = 0
    }

    private let name: String
    private let width: Int
    private let condition = NSCondition()
    private var state = State()

    /// - Parameters:
    ///   - name: The threads' name, as debuggers and `top -H` show it.
    ///   - width: The most threads running at once.
    package init(name: String, width: Int) {
        self.name = name
        self.width = max(1, width)
    }

    /// Runs `work` on one of the threads and returns what it returns. When the calling task is
    /// cancelled before `work` starts, `work` does not run and the call throws
    /// ``RawCodingError/Kind-swift.struct/cancelled``; once it runs, it sees the cancellation
    /// through ``StoreJob/current``, and stops where its backend can.
    package func run<Result: Sendable>(
        in store: Any.Type, key: String?, _ work: @escaping @Sendable () throws(RawCodingError) -> Result
    ) async throws(RawCodingError) -> Result {
        let job = StoreJob(store: store, key: key)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Swift.Result<Result, RawCodingError>, Never>) in
                enqueue {
                    continuation.resume(returning: job.run(work))
                }
            }
        } onCancel: {
            job.cancel()
        }
        return try outcome.get()
    }

    private func enqueue(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        state.queue.append(job)
        let start = state.idle == 0 && state.running < width
        if start { state.running += 1 }
        condition.signal()
        condition.unlock()
        if start {
            let thread = Thread { [self] in work() }
            thread.name = name
            thread.start()
        }
    }

    /// A thread's loop: jobs until none comes for a second.
    private func work() {
        condition.lock()
        while true {
            if state.head < state.queue.count {
                let job = state.queue[state.head]
                state.head += 1
                if state.head == state.queue.count {
                    state.queue.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                condition.unlock()
                job()
                condition.lock()
                continue
            }
            state.idle += 1
            let signalled = condition.wait(until: Date(timeIntervalSinceNow: 1))
            state.idle -= 1
            if !signalled && state.head == state.queue.count {
                state.running -= 1
                condition.unlock()
                return
            }
        }
    }
}

/// One `async` call's work on a ``StoreThreads`` thread: whether its task was cancelled, and
/// what to do to stop the work it is doing then (cancel a PostgreSQL statement).
package final class StoreJob: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var interrupt: (@Sendable () -> Void)?
    private let store: Any.Type
    private let key: String?

    init(store: Any.Type, key: String?) {
        self.store = store
        self.key = key
    }

    /// The job the current thread runs, if it runs one for an `async` call.
    package static var current: StoreJob? {
        guard let pointer = pthread_getspecific(currentKey) else { return nil }
        return Unmanaged<StoreJob>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Whether the task that made the call was cancelled.
    package var isCancelled: Bool { lock.withLock { cancelled } }

    /// The error of a call whose task was cancelled before it changed anything.
    package var cancellation: RawCodingError { .cancelled(in: store, key: key) }

    /// Throws ``cancellation`` if the calling task was cancelled: what a store calls at the last
    /// point before it writes (holding its lock), so that a call cancelled while it waited for
    /// the lock writes nothing.
    package static func checkCancellation() throws(RawCodingError) {
        guard let job = current, job.isCancelled else { return }
        throw job.cancellation
    }

    /// Runs `body` with `interrupt` called if the task is cancelled meanwhile (at once if it
    /// already is): how a blocking call that can be stopped from another thread is stopped.
    /// `interrupt` runs under the job's lock, so it never runs after this returns.
    package func whileRunning<Result>(
        interrupt: @escaping @Sendable () -> Void, _ body: () throws(RawCodingError) -> Result
    ) throws(RawCodingError) -> Result {
        lock.withLock {
            self.interrupt = interrupt
            if cancelled { interrupt() }
        }
        defer { lock.withLock { self.interrupt = nil } }
        return try body()
    }

    func cancel() {
        lock.withLock {
            cancelled = true
            interrupt?()
        }
    }

    /// Runs `work` as the current thread's job, unless the task was cancelled before it started.
    func run<Result>(_ work: () throws(RawCodingError) -> Result) -> Swift.Result<Result, RawCodingError> {
        if isCancelled { return .failure(cancellation) }
        let pointer = Unmanaged.passUnretained(self).toOpaque()
        pthread_setspecific(Self.currentKey, pointer)
        defer { pthread_setspecific(Self.currentKey, nil) }
        return Swift.Result { () throws(RawCodingError) -> Result in try work() }
    }

    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
