import Foundation

/// Canonical key order: by UTF-8 bytes, so the order never depends on locale or
/// normalization.
///
/// Writers see the same key lists again and again (every element of an array of structs), so
/// the last order computed for each dictionary size is kept and reused when the keys match.
struct KeyOrder {
    /// The lists longer than the thread's cache keeps, by length.
    private var cache: [Int: RememberedKeyOrders] = [:]

    /// Whether no long list's order is kept.
    var isEmpty: Bool { cache.isEmpty }

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
            return Self.order(count: count, key: key, in: &RecursionGuard.state.keyOrders.lists[count])
        }
        return Self.order(count: count, key: key, in: &cache[count, default: RememberedKeyOrders()])
    }

    /// The order from `remembered` if it holds the list `key` gives, else found and remembered
    /// there (unless two keys are the same).
    private static func order(
        count: Int, key: (Int) -> String, in remembered: inout RememberedKeyOrders
    ) -> (order: [Int], repeats: Bool) {
        if let order = remembered.known(key) { return (order, false) }
        let sorted = Self.sorted(count: count, key: key)
        if !sorted.repeats { remembered.remember(sorted.keys, sorted.order) }
        return (sorted.order, sorted.repeats)
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
/// once, not on every call.
final class KeyOrderCache {
    /// The longest key list kept (a struct's properties, not a large dictionary's keys).
    static let largestCount = 32
    /// The lists of each length, by length. Touched only by its own thread, one call at a
    /// time, so exempt from run-time exclusivity checks.
    @exclusivity(unchecked) var lists = [RememberedKeyOrders](repeating: RememberedKeyOrders(), count: largestCount + 1)
}

/// A few key lists of one length and their canonical orders, the most used first.
struct RememberedKeyOrders {
    /// How many lists are remembered.
    private static let capacity = 4
    private var lists: [(keys: [String], order: [Int])] = []

    /// The order of the list `key` gives, if it is one of those remembered; it moves a place
    /// towards the front.
    mutating func known(_ key: (Int) -> String) -> [Int]? {
        for slot in lists.indices where KeyOrder.matches(lists[slot].keys, key) {
            let order = lists[slot].order
            if slot > 0 { lists.swapAt(slot, slot - 1) }
            return order
        }
        return nil
    }

    mutating func remember(_ keys: [String], _ order: [Int]) {
        if lists.count == Self.capacity { lists.removeLast() }
        lists.append((keys, order))
    }
}
