import Foundation

/// The open arrays and dictionaries of a text writer's ``EncodingSink``, and the canonical
/// key order of a dictionary's entries when it ends.
///
/// Entries are written as they come. When a dictionary ends, its entries are put in
/// canonical key order by moving their bytes (the order found once per key list, as the tree
/// writers do); entries already in order stay where they are.
struct SinkContainers {
    /// One dictionary or array being written.
    struct Open {
        /// Where its first entry is in the key and start lists.
        let firstEntry: Int
        /// Where its opening text begins in the output.
        var start: Int
        var count = 0
    }

    private var open: [Open] = []
    /// An entry of an open dictionary: its key, and where its bytes begin in the output.
    struct Entry {
        let key: String
        var start: Int
    }

    /// The entries of the open dictionaries, innermost last: one list, so each entry is one
    /// append and one removal.
    private var entries: [Entry] = []
    /// Where entries wait while they are put in order; made by the first reorder.
    private var scratch: OutputBuffer?
    private var keyOrder = KeyOrder()

    /// Room for a settings-sized value's containers and entries from the start: growing the
    /// lists one append at a time cost about seven allocations per encode of six keys.
    init() {
        open.reserveCapacity(8)
        entries.reserveCapacity(32)
    }

    /// Empties the lists for another document, keeping their capacity (a finished document
    /// left nothing open) but not the orders of long key lists, which only grow.
    mutating func clear() {
        // A finished document left the lists empty; emptying an empty list still costs.
        if !open.isEmpty { open.removeAll(keepingCapacity: true) }
        if !entries.isEmpty { entries.removeAll(keepingCapacity: true) }
        scratch?.removeAll()
        if !keyOrder.isEmpty { keyOrder = KeyOrder() }
    }

    /// How many containers are open.
    var depth: Int { open.count }

    mutating func push(start: Int) {
        open.append(Open(firstEntry: entries.count, start: start))
    }

    /// Counts a new element or entry of the innermost container; `true` for its first.
    @inline(__always)
    mutating func addMember() -> Bool {
        let innermost = open.count - 1
        open[innermost].count += 1
        return open[innermost].count == 1
    }

    /// Records that the entry for `key` of the innermost dictionary starts at `start`.
    @inline(__always)
    mutating func addEntry(key: String, start: Int) {
        entries.append(Entry(key: key, start: start))
    }

    mutating func pop() -> Open {
        open.removeLast()
    }

    /// The leading bytes of `output` that no later move touches, taken out of it: those before
    /// the first entry of any open dictionary, whose entries may still move into key order.
    /// Asked only after a value ends, when every open container has a member (an empty one may
    /// still be rewritten as an empty element). Offsets kept for later moves are shifted to
    /// match. Nothing is taken when fewer than `minimum` bytes are finished, so the bytes still
    /// open move rarely.
    mutating func takeFinished(from output: OutputBuffer, minimum: Int) -> [UInt8] {
        let end = entries.first?.start ?? output.count
        guard end >= max(minimum, 1) else { return [] }
        let finished = output.array(upTo: end)
        output.dropFirst(count: end)
        for index in entries.indices { entries[index].start -= end }
        for index in open.indices { open[index].start -= end }
        return finished
    }

    /// Puts the entries of `closed`, a dictionary just popped whose last entry ends at the end
    /// of `bytes`, in canonical key order; entries are `separator` bytes apart (all the same).
    /// `false` when two keys are the same.
    mutating func sortEntries(of closed: Open, in bytes: UnsafeMutableBufferPointer<UInt8>, separator: Int) -> Bool {
        defer {
            // One at a time: `removeLast(_:)` goes through the generic `replaceSubrange`,
            // several times slower for the few entries a struct has.
            for _ in 0..<closed.count {
                entries.removeLast()
            }
        }
        guard closed.count > 1 else { return true }
        let first = closed.firstEntry
        let (order, repeats) = keyOrder.order(count: closed.count) { entries[first + $0].key }
        guard !repeats else { return false }
        if !order.indices.elementsEqual(order) {
            reorder(from: first, count: closed.count, order, in: bytes, separator: separator)
        }
        return true
    }

    /// Rewrites the entries from `first` in `order`; each entry's bytes run from its start to
    /// the separator before the next. The longest entry moves once, in place; the others go
    /// through the scratch buffer, so a large value among small siblings (a document's one big
    /// array) is not copied twice.
    private mutating func reorder(
        from first: Int, count: Int, _ order: [Int], in output: UnsafeMutableBufferPointer<UInt8>, separator: Int
    ) {
        guard let target = output.baseAddress else { return }
        let end = output.count
        let scratch = self.scratch ?? OutputBuffer(capacity: end - entries[first].start)
        self.scratch = scratch
        // Each entry's bytes, found once (not from the start list on every use).
        entries.withUnsafeBufferPointer { entries in
            withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: count) { ranges in
                for entry in 0..<count {
                    let upper = entry + 1 < count ? entries[first + entry + 1].start - separator : end
                    ranges.initializeElement(at: entry, to: entries[first + entry].start..<upper)
                }
                Self.reorder(ranges, order, in: target, end: end, separator: separator, through: scratch)
            }
        }
    }

    private static func reorder(
        _ ranges: UnsafeMutableBufferPointer<Range<Int>>, _ order: [Int], in target: UnsafeMutablePointer<UInt8>,
        end: Int, separator: Int, through scratch: OutputBuffer
    ) {
        let start = ranges[0].lowerBound
        var longest = 0
        for entry in 1..<ranges.count where ranges[entry].count > ranges[longest].count { longest = entry }
        let kept = ranges[longest]
        // Where the longest goes: after the entries before it in order, and their separators.
        var keptTarget = start
        for entry in order {
            if entry == longest { break }
            keptTarget += ranges[entry].count + separator
        }
        // Everything but the longest entry (the separators with it), then the longest in place.
        scratch.removeAll()
        scratch.appendBytes(UnsafeBufferPointer(start: target + start, count: kept.lowerBound - start))
        scratch.appendBytes(UnsafeBufferPointer(start: target + kept.upperBound, count: end - kept.upperBound))
        let origin = scratch.base
        memmove(target + keptTarget, target + kept.lowerBound, kept.count)
        // A separator: the one before the longest entry, or the one after it when it is first
        // (where the scratch then begins).
        let separatorInScratch = longest > 0 ? kept.lowerBound - start - separator : 0
        var position = start
        for (rank, entry) in order.enumerated() {
            if rank > 0, separator > 0 {
                // Compact JSON's comma is one byte: stored, not copied with a call.
                if separator == 1 {
                    target[position] = origin[separatorInScratch]
                } else {
                    (target + position).update(from: origin + separatorInScratch, count: separator)
                }
                position += separator
            }
            let bytesOfEntry = ranges[entry]
            if entry != longest {
                let from = bytesOfEntry.lowerBound - start - (entry > longest ? kept.count : 0)
                (target + position).update(from: origin + from, count: bytesOfEntry.count)
            }
            position += bytesOfEntry.count
        }
    }
}
