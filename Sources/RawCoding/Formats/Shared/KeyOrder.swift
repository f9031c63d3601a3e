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
        let count = entries.count
        if count < 2 { return count == 0 ? [] : [0] }
        var known = cache[count] ?? []
        for (slot, candidate) in known.enumerated() where matches(candidate.keys, entries) {
            if slot > 0 {
                known.swapAt(slot, slot - 1)
                cache[count] = known
            }
            return candidate.order
        }
        let order = (0..<count).sorted { Self.precedes(entries[$0].key, entries[$1].key) }
        if known.count == Self.remembered { known.removeLast() }
        known.append((dictionary.keys, order))
        cache[count] = known
        return order
    }

    private func matches(_ keys: [String], _ entries: [StoredDictionary.Element]) -> Bool {
        for position in keys.indices where !KeyIndex.same(keys[position], entries[position].key) { return false }
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
