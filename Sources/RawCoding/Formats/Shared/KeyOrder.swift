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
    mutating func order(count: Int, key: (Int) -> String) -> (order: [Int], repeats: Bool) {
        if count < 2 { return (count == 0 ? [] : [0], false) }
        var known = cache[count] ?? []
        for (slot, candidate) in known.enumerated() where matches(candidate.keys, key) {
            if slot > 0 {
                known.swapAt(slot, slot - 1)
                cache[count] = known
            }
            return (candidate.order, false)
        }
        let keys = (0..<count).map(key)
        let order = keys.indices.sorted { Self.precedes(keys[$0], keys[$1]) }
        for position in 1..<count where KeyIndex.same(keys[order[position - 1]], keys[order[position]]) {
            return (order, true)
        }
        if known.count == Self.remembered { known.removeLast() }
        known.append((keys, order))
        cache[count] = known
        return (order, false)
    }

    private func matches(_ keys: [String], _ key: (Int) -> String) -> Bool {
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
