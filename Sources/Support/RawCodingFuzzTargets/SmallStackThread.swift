import Foundation

/// Runs work on a thread of its own with a small stack, as Apple's secondary threads, GCD's
/// workers and Swift concurrency's threads have (512 KiB), so what the library does on them is
/// what the fuzzer and the stack tests check.
package enum SmallStackThread {
    /// The stack of those threads: 512 KiB.
    package static let secondaryThreadStack = 512 << 10

    /// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it to end.
    package static func run(stackSize: Int = secondaryThreadStack, _ body: @escaping @Sendable () -> Void) {
        final class Work {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let started = pthread_create(
            &thread, &attributes,
            { context in
                // Optional on Glibc, not on Darwin.
                let argument: UnsafeMutableRawPointer? = context
                guard let argument else { return nil }
                Unmanaged<Work>.fromOpaque(argument).takeRetainedValue().body()
                return nil
            }, work)
        guard started == 0 else {
            // No thread (resources exhausted): run here rather than not at all.
            Unmanaged<Work>.fromOpaque(work).takeRetainedValue().body()
            return
        }
        #if canImport(Darwin)
            if let thread { pthread_join(thread, nil) }
        #else
            pthread_join(thread, nil)
        #endif
    }

    /// Runs a fuzz target on a 512 KiB thread, returning what it threw.
    package static func run(_ target: FuzzTargets.Target, on data: Data) throws(FuzzFailure) {
        final class Outcome: @unchecked Sendable { var failure: FuzzFailure? }
        let outcome = Outcome()
        run {
            do throws(FuzzFailure) {
                try target.run(data)
            } catch {
                outcome.failure = error
            }
        }
        if let failure = outcome.failure { throw failure }
    }
}
