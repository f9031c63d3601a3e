// Not a product: a second process for the FileStore and SQLiteStore tests (crash safety,
// cross-process updates and change detection). Each command prints one line when it is done.
// DIR is a FileStore's directory, `sqlite:PATH` for an SQLiteStore's database file, or
// `postgres:TABLE|CONNECTION` for a PostgresStore.
import Foundation
import RawCoding
import RawCodingSQLite
import RawCodingStores

#if canImport(RawCodingPostgres)
    import RawCodingPostgres
#endif

/// One of the successive values `write-sequence` stores; its text is derived from its index,
/// so a reader can tell a whole value from a torn one.
struct SequenceEntry: Codable, Equatable {
    var index: Int
    var text: String

    init(index: Int) {
        self.index = index
        text = String(repeating: "\(index % 10)", count: 100 + index % 4_000)
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("StoreProbe: \(message)\n".utf8))
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    fail(
        "usage: StoreProbe write-sequence DIR FIRST COUNT | increment DIR THREADS COUNT | increment-async DIR TASKS COUNT | tick-while-locked DIR | set DIR KEY INT"
            + " | watch DIR KEY FINAL | defaults-read SUITE KEY")
}
if arguments[0] == "defaults-read", arguments.count == 3 {
    // Reads a key of a UserDefaults suite from this process, which loads the suite's file.
    do {
        print(try UserDefaultsStore(suiteName: arguments[1]).read(forKey: arguments[2]).map { "\($0)" } ?? "nothing")
    } catch {
        fail("\(error)")
    }
    exit(0)
}
/// A store on the storage `argument` names: `sqlite:PATH`, `postgres:TABLE|CONNECTION` or a
/// directory.
func openStore(_ argument: String) throws -> any KeyValueStore {
    if argument.hasPrefix("sqlite:") {
        return try SQLiteStore(path: String(argument.dropFirst("sqlite:".count)))
    } else if argument.hasPrefix("postgres:"), let bar = argument.firstIndex(of: "|") {
        #if canImport(RawCodingPostgres)
            let table = String(argument[..<bar].dropFirst("postgres:".count))
            return try PostgresStore(connection: String(argument[bar...].dropFirst()), table: table)
        #else
            fail("PostgresStore is not built for this platform")
        #endif
    }
    return try FileStore(directory: URL(fileURLWithPath: argument))
}

/// Makes `count` async increments of "counter" on each of `tasks` tasks of the concurrency pool
/// and waits for them; a failure ends the probe.
func incrementOnTasks(_ store: any KeyValueStore, tasks: Int, count: Int) {
    let done = DispatchSemaphore(value: 0)
    final class Outcome: @unchecked Sendable { var failure: (any Error)? }
    let outcome = Outcome()
    Task.detached {
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<tasks {
                    group.addTask {
                        for _ in 0..<count {
                            try await store.update(Int.self, forKey: "counter", defaultValue: 0) { $0 += 1 }
                        }
                    }
                }
                try await group.waitForAll()
            }
        } catch {
            outcome.failure = error
        }
        done.signal()
    }
    done.wait()
    if let failure = outcome.failure { fail("\(failure)") }
}

do {
    let store = try openStore(arguments[1])
    switch arguments[0] {
    case "write-sequence" where arguments.count == 4:
        guard let first = Int(arguments[2]), let count = Int(arguments[3]) else { fail("FIRST and COUNT are numbers") }
        for index in first..<(first + count) {
            try store.set(SequenceEntry(index: index), forKey: "entry")
        }
        print("wrote \(count)")
    case "increment" where arguments.count == 4:
        guard let threads = Int(arguments[2]), let count = Int(arguments[3]) else {
            fail("THREADS and COUNT are numbers")
        }
        let group = DispatchGroup()
        let failures = DispatchQueue(label: "failures")
        nonisolated(unsafe) var failure: (any Error)?
        for _ in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    for _ in 0..<count { try store.update(Int.self, forKey: "counter", defaultValue: 0) { $0 += 1 } }
                } catch {
                    failures.sync { failure = error }
                }
            }
        }
        group.wait()
        if let failure = failures.sync(execute: { failure }) { fail("\(failure)") }
        print("incremented \(threads * count)")
    case "increment-async" where arguments.count == 4:
        // TASKS tasks each making COUNT async increments, on the concurrency pool.
        guard let tasks = Int(arguments[2]), let count = Int(arguments[3]) else { fail("TASKS and COUNT are numbers") }
        incrementOnTasks(store, tasks: tasks, count: count)
        print("incremented \(tasks * count)")
    case "tick-while-locked" where arguments.count == 2:
        // Another instance holds the lock of "counter" for 2 s on a thread of its own while 64
        // tasks update it and a ticker task counts; prints the ticks seen while the lock was
        // held and the counter after. Alone in its process, so nothing else uses the pool.
        let holder = try openStore(arguments[1])
        final class Ticks: @unchecked Sendable {
            let lock = NSLock()
            var count = 0
            var whileHeld = -1
            func read() -> Int { lock.withLock { count } }
        }
        let ticks = Ticks()
        try store.set(0, forKey: "counter")
        let held = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do {
                try holder.update(forKey: "counter") { _ in
                    held.signal()
                    let first = ticks.read()
                    Thread.sleep(forTimeInterval: 2)
                    let last = ticks.read()
                    ticks.lock.withLock { ticks.whileHeld = last - first }
                }
            } catch {
                fail("holding the lock failed: \(error)")
            }
            finished.signal()
        }
        held.wait()
        let ticker = Task.detached {
            while !Task.isCancelled {
                try await Task.sleep(nanoseconds: 10_000_000)
                ticks.lock.withLock { ticks.count += 1 }
            }
        }
        incrementOnTasks(store, tasks: 64, count: 1)
        finished.wait()
        ticker.cancel()
        let counter = try store.value(Int.self, forKey: "counter") ?? -1
        print("ticks while held \(ticks.lock.withLock { ticks.whileHeld }), counter \(counter)")
    case "watch" where arguments.count == 4:
        // Follows KEY through a change stream until it reaches FINAL; fails if the stream ever
        // goes back to a smaller number, or does not get there within a minute.
        guard let final = Int(arguments[3]) else { fail("FINAL is a number") }
        guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) else {
            fail("change streams need macOS 14, iOS 17, tvOS 17 or watchOS 10")
        }
        let done = DispatchSemaphore(value: 0)
        // Written by the task before it signals `done`, read after the wait.
        final class Outcome: @unchecked Sendable { var text = "no value" }
        let outcome = Outcome()
        let stream = store.values(Int.self, forKey: arguments[2], defaultValue: 0)
        print("watching")
        Task.detached {
            var last = Int.min
            var count = 0
            for await value in stream {
                count += 1
                if value < last {
                    outcome.text = "went back from \(last) to \(value)"
                    break
                }
                last = value
                if value == final {
                    outcome.text = "reached \(final) in \(count) values"
                    break
                }
            }
            done.signal()
        }
        if done.wait(timeout: .now() + 60) == .timedOut { fail("did not reach \(final) within a minute") }
        let result = outcome.text
        guard result.hasPrefix("reached") else { fail(result) }
        print(result)
    case "set" where arguments.count == 4:
        guard let value = Int(arguments[3]) else { fail("INT is a number") }
        try store.set(value, forKey: arguments[2])
        print("set \(arguments[2])")
    default:
        fail("unknown command or wrong arguments: \(arguments)")
    }
} catch {
    fail("\(error)")
}
