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
/// Up to `width` threads run jobs in the order they came; a thread starts whenever the jobs
/// waiting outnumber the idle threads (one signalled but not yet awake counts as idle, so a
/// burst would otherwise wait for it), and ends after a second without work, so an idle store
/// holds no thread. A job is released as it is taken, so a steady backlog holds only the jobs
/// still waiting; a job whose task is cancelled while it waits is taken out of the queue and its
/// caller answered at once.
package final class StoreThreads: @unchecked Sendable {
    /// The threads of stores that bring none of their own (stores written outside this package).
    package static let shared = StoreThreads(name: "RawCodingStores", width: 4)

    /// A job waiting for a thread: what runs it, and what answers its caller if it is cancelled
    /// first.
    private struct Waiting {
        var run: @Sendable () -> Void
        var cancel: @Sendable () -> Void
    }

    private struct State {
        /// The waiting jobs by number; a job taken or cancelled is removed, and released.
        var waiting: [UInt64: Waiting] = [:]
        /// The numbers in the order the jobs came, from `head` on; a number whose job is gone
        /// (cancelled) is skipped.
        var order: [UInt64] = []
        var head = 0
        var next: UInt64 = 0
        var running = 0
        var idle = 0

        /// Takes the oldest waiting job, if any.
        mutating func take() -> Waiting? {
            while head < order.count {
                let number = order[head]
                head += 1
                if head == order.count {
                    order.removeAll(keepingCapacity: true)
                    head = 0
                } else if head >= 1024 && head * 2 >= order.count {
                    // Numbers already taken go, so the order holds about as many as wait.
                    order.removeFirst(head)
                    head = 0
                }
                if let job = waiting.removeValue(forKey: number) { return job }
            }
            return nil
        }
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
        let number = Locked<UInt64?>(nil)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Swift.Result<Result, RawCodingError>, Never>) in
                let queued = enqueue(
                    Waiting(
                        run: { continuation.resume(returning: job.run(work)) },
                        cancel: { continuation.resume(returning: .failure(job.cancellation)) }))
                // A cancellation that came before the job was queued finds no number: it set the
                // job's flag, and the job, when taken, answers without running.
                number.withLock { $0 = queued }
                if job.isCancelled { dequeue(queued) }
            }
        } onCancel: {
            job.cancel()
            if let queued = number.withLock({ $0 }) { dequeue(queued) }
        }
        return try outcome.get()
    }

    /// How many jobs wait for a thread (for tests that line jobs up).
    package var waitingCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return state.waiting.count
    }

    /// Queues `job` and returns its number.
    private func enqueue(_ job: Waiting) -> UInt64 {
        condition.lock()
        let number = state.next
        state.next += 1
        state.waiting[number] = job
        state.order.append(number)
        let start = state.waiting.count > state.idle && state.running < width
        if start { state.running += 1 }
        condition.signal()
        condition.unlock()
        if start {
            let thread = Thread { [self] in work() }
            thread.name = name
            thread.start()
        }
        return number
    }

    /// Takes the job numbered `number` out of the queue, if no thread has taken it yet, and
    /// answers its caller: cancelled.
    private func dequeue(_ number: UInt64) {
        condition.lock()
        let job = state.waiting.removeValue(forKey: number)
        condition.unlock()
        job?.cancel()
    }

    /// A thread's loop: jobs until none comes for a second.
    private func work() {
        condition.lock()
        while true {
            if let job = state.take() {
                condition.unlock()
                job.run()
                condition.lock()
                continue
            }
            state.idle += 1
            let signalled = condition.wait(until: Date(timeIntervalSinceNow: 1))
            state.idle -= 1
            if !signalled && state.waiting.isEmpty {
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
    /// `interrupt` runs under the job's lock, so it never runs after this returns, and never on
    /// the thread that cancelled the task: that is a concurrency-pool thread, and an interrupt
    /// may block (a PostgreSQL cancel request connects to the server).
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
        let interrupting = lock.withLock { () -> Bool in
            cancelled = true
            return interrupt != nil
        }
        guard interrupting else { return }
        // The interrupt runs if the work still runs when this thread takes the lock.
        Thread.detachNewThread { [self] in lock.withLock { interrupt?() } }
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
