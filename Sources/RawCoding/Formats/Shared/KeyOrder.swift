import Foundation

/// Canonical key order: by UTF-8 bytes, so the order never depends on locale or
/// normalization.
///
/// Writers see the same key lists again and again (every element of an array of structs), so
/// the last order computed for each dictionary size is kept and reused when the keys match.
struct KeyOrder {
    private var cache: [Int: [(keys: [String], order: [Int])]] = [:]
    /// How many key lists of one size are remembered.
    private static let remembered = 4

    /// The positions of `dictionary`'s entries in canonical order.
    mutating func order(of dictionary: StoredDictionary) -> [Int] {
        let entries = dictionary.entries
        return order(count: entries.count) { entries[$0].key }.order
    }

    /// The canonical order of `count` keys, the key at each position given by `key`, and
    /// whether two of them are the same (a dictionary's keys never are; an encoder's may be).
    /// Lists of up to ``KeyOrderCache/largestCount`` keys are looked up in this thread's
    /// cache, kept across calls; longer ones in this writer's own.
    mutating func order(count: Int, key: (Int) -> String) -> (order: [Int], repeats: Bool) {
        if count < 2 { return (count == 0 ? [] : [0], false) }
        if count <= KeyOrderCache.largestCount {
            let shared = RecursionGuard.state.keyOrders
            if let order = shared.known(count: count, key: key) { return (order, false) }
            let sorted = Self.sorted(count: count, key: key)
            if !sorted.repeats { shared.remember(sorted.keys, sorted.order) }
            return (sorted.order, sorted.repeats)
        }
        var known = cache[count] ?? []
        for (slot, candidate) in known.enumerated() where Self.matches(candidate.keys, key) {
            if slot > 0 {
                known.swapAt(slot, slot - 1)
                cache[count] = known
            }
            return (candidate.order, false)
        }
        let sorted = Self.sorted(count: count, key: key)
        guard !sorted.repeats else { return (sorted.order, true) }
        if known.count == Self.remembered { known.removeLast() }
        known.append((sorted.keys, sorted.order))
        cache[count] = known
        return (sorted.order, false)
    }

    /// The keys, their canonical order, and whether two are the same.
    private static func sorted(count: Int, key: (Int) -> String) -> (keys: [String], order: [Int], repeats: Bool) {
        let keys = (0..<count).map(key)
        let order = keys.indices.sorted { precedes(keys[$0], keys[$1]) }
        for position in 1..<count where KeyIndex.same(keys[order[position - 1]], keys[order[position]]) {
            return (keys, order, true)
        }
        return (keys, order, false)
    }

    static func matches(_ keys: [String], _ key: (Int) -> String) -> Bool {
        for position in keys.indices where !KeyIndex.same(keys[position], key(position)) { return false }
        return true
    }

    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                let common = min(left.count, right.count)
                if common > 0, let a = left.baseAddress, let b = right.baseAddress {
                    let order = memcmp(a, b, common)
                    if order != 0 { return order < 0 }
                }
                return left.count < right.count
            }
        }
    }
}

/// The canonical orders of short key lists one thread found, kept across calls: a type's keys
/// come in the same order each time it is encoded, so a settings-sized value's order is found
/// once, not on every call. A few lists per length are kept, the most used first.
final class KeyOrderCache {
    /// The longest key list kept (a struct's properties, not a large dictionary's keys).
    static let largestCount = 32
    private static let remembered = 4
    /// The lists of each length, by length.
    private var lists = [[(keys: [String], order: [Int])]](repeating: [], count: largestCount + 1)

    /// The order of the list `key` gives, if it is one of those kept.
    func known(count: Int, key: (Int) -> String) -> [Int]? {
        for slot in lists[count].indices where KeyOrder.matches(lists[count][slot].keys, key) {
            if slot > 0 { lists[count].swapAt(slot, slot - 1) }
            return lists[count][slot > 0 ? slot - 1 : 0].order
        }
        return nil
    }

    func remember(_ keys: [String], _ order: [Int]) {
        if lists[keys.count].count == Self.remembered { lists[keys.count].removeLast() }
        lists[keys.count].append((keys, order))
    }
}
