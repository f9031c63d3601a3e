import Foundation
import RawCoding
import RawCodingStores
import Testing

/// What one observer saw of a counter.
final class Sightings: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int] = []

    func append(_ value: Int) { lock.withLock { values.append(value) } }
    var seen: [Int] { lock.withLock { values } }

    /// Waits until the last value seen is `final`, up to `seconds`, without holding a thread
    /// of the pool the consuming tasks run on.
    func wait(for final: Int, seconds: Double) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if seen.last == final { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return seen.last == final
    }
}

/// Consumes `stream` on a task of its own, recording what it yields.
func follow(_ stream: AsyncStream<Int>) -> (Sightings, Task<Void, Never>) {
    let sightings = Sightings()
    let task = Task.detached {
        for await value in stream { sightings.append(value) }
    }
    return (sightings, task)
}

@Suite("Change streams go forward", .serialized)
struct StreamOrderTests {
    static let writers = 4
    static let increments = 150

    @Test(arguments: Adapter.allCases)
    func concurrentIncrementsAreSeenInOrderAndToTheEnd(_ adapter: Adapter) async throws {
        try await adapter.withStores { (store, other, _) async throws in
            let final = Self.writers * Self.increments
            // Observers through both instances: the stores' streams and a property's.
            let property = StoredProperty("counter", store: other, defaultValue: 0)
            let observers = [
                follow(store.values(Int.self, forKey: "counter", defaultValue: 0)),
                follow(other.values(Int.self, forKey: "counter", defaultValue: 0)),
                follow(property.values()),
            ]
            let group = DispatchGroup()
            for index in 0..<Self.writers {
                let writer = index.isMultiple(of: 2) ? store : other
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    for _ in 0..<Self.increments {
                        do {
                            try writer.update(Int.self, forKey: "counter", defaultValue: 0) { $0 += 1 }
                        } catch {
                            Issue.record("increment failed: \(error)")
                            return
                        }
                    }
                }
            }
            await withCheckedContinuation { done in group.notify(queue: .global()) { done.resume() } }
            #expect(try await store.value(Int.self, forKey: "counter") == final)
            for (index, (sightings, task)) in observers.enumerated() {
                // A consumer that falls behind keeps the newest values only (coalescing), so the
                // first it sees may be later than 0; it never sees one older than the last.
                #expect(
                    try await sightings.wait(for: final, seconds: 30),
                    "observer \(index) ended at \(sightings.seen.last ?? -1)")
                let seen = sightings.seen
                for (earlier, later) in zip(seen, seen.dropFirst()) where later < earlier {
                    Issue.record("observer \(index) went back from \(earlier) to \(later) in \(adapter)")
                    break
                }
                task.cancel()
            }
        }
    }

    /// The stream is made, then the property set twice before anyone reads it: the first value
    /// is the one current when the stream was made, and nothing older follows a newer one.
    @Test(arguments: Adapter.allCases)
    func aNewStreamStartsWithTheValueOfItsMoment(_ adapter: Adapter) async throws {
        try await adapter.withStores { store, _, _ in
            for round in 0..<10 {
                let property = StoredProperty("setting\(round)", store: store, defaultValue: 1)
                let stream = property.values()
                try property.set(2)
                try property.set(3)
                let (sightings, task) = follow(stream)
                #expect(try await sightings.wait(for: 3, seconds: 10))
                task.cancel()
                #expect(sightings.seen.first == 1, "round \(round): \(sightings.seen)")
                #expect(sightings.seen == sightings.seen.sorted(), "round \(round): \(sightings.seen)")
            }
        }
    }

    /// Several threads setting one property: the stream ends on what the store holds.
    @Test(arguments: Adapter.allCases)
    func aPropertyWrittenFromManyThreadsEndsOnTheStoredValue(_ adapter: Adapter) async throws {
        try await adapter.withStores { store, _, _ in
            for round in 0..<20 {
                let property = StoredProperty("shared\(round)", store: store, defaultValue: -1)
                let (sightings, task) = follow(property.values())
                DispatchQueue.concurrentPerform(iterations: 4) { thread in
                    for step in 0..<10 {
                        do {
                            try property.set(thread * 100 + step)
                        } catch {
                            Issue.record("set failed: \(error)")
                        }
                    }
                }
                let stored = try await #require(try store.value(Int.self, forKey: "shared\(round)"))
                #expect(property.value == stored)
                #expect(
                    try await sightings.wait(for: stored, seconds: 10),
                    "round \(round): ended at \(sightings.seen.last ?? -1), store holds \(stored)")
                task.cancel()
            }
        }
    }

    @Test func observersInOtherProcessesSeeEveryIncrementInOrder() async throws {
        let directory = try TemporaryDirectory()
        let store = try FileStore(directory: directory.url)
        let (sightings, task) = follow(store.values(Int.self, forKey: "counter", defaultValue: 0))
        let watchers = try (0..<2).map { _ in try Probe(["watch", directory.url.path, "counter", "2000"]) }
        // The watchers' first look is at 0; give them a moment to start before the writes.
        try await Task.sleep(for: .milliseconds(500))
        let writers = try (0..<2).map { _ in try Probe(["increment", directory.url.path, "2", "500"]) }
        for writer in writers {
            let result = writer.finish()
            #expect(result.status == 0 && result.output.contains("incremented 1000"), "\(result.output)")
        }
        for watcher in watchers {
            let result = watcher.finish()
            #expect(result.status == 0 && result.output.contains("reached 2000"), "\(result.output)")
        }
        #expect(try await sightings.wait(for: 2000, seconds: 10), "this process ended at \(sightings.seen.last ?? -1)")
        let seen = sightings.seen
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 }, "this process went back: \(seen)")
        task.cancel()
    }
}
