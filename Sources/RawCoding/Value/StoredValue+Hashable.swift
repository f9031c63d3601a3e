import Foundation

// Equality, hashing and merging in bounded stack: a tree may be nested as deeply as its reader
// allows (and a hand-built one deeper), and these operations cannot throw, so they must not
// depend on the stack of the thread that calls them. They recurse a fixed number of levels at
// most, and queue what is deeper.

extension StoredValue {
    /// Whether two trees hold the same values: the same kinds, equal scalars, arrays equal
    /// element by element, dictionaries with the same entries in any order.
    ///
    /// Disfavored as the synthesized `==` it replaces was invisible to overload resolution:
    /// `decoded == 1.5` still compares a `Double`, not a tree made from the literal.
    @_disfavoredOverload
    public static func == (lhs: StoredValue, rhs: StoredValue) -> Bool {
        // Containers are compared by recursion down to `equalityRecursion` levels, and the
        // pairs below that are queued: a settings-sized tree needs no queue (an empty array
        // allocates nothing), and a deep one takes bounded stack.
        var pending: [(StoredValue, StoredValue)] = []
        guard lhs.equals(rhs, depth: 0, queueing: &pending) else { return false }
        while let (left, right) = pending.popLast() {
            guard left.equals(right, depth: 0, queueing: &pending) else { return false }
        }
        return true
    }

    /// Levels of containers ``==`` compares by recursion before it queues what is below.
    private static var equalityRecursion: Int { 8 }

    /// Whether this value equals `other` down to ``equalityRecursion`` levels below `depth`,
    /// with the pairs of containers below those appended to `pending`.
    private func equals(_ other: StoredValue, depth: Int, queueing pending: inout [(StoredValue, StoredValue)])
        -> Bool
    {
        switch self {
        case .array(let a):
            guard case .array(let b) = other, a.count == b.count else { return false }
            // A tree compared with its own copy (a store's payload with what was written) is
            // equal at once.
            if Self.sameStorage(a, b) { return true }
            guard depth < Self.equalityRecursion else {
                pending.append((self, other))
                return true
            }
            for (x, y) in zip(a, b) where !x.equals(y, depth: depth + 1, queueing: &pending) { return false }
            return true
        case .dictionary(let a):
            guard case .dictionary(let b) = other, a.count == b.count else { return false }
            if Self.sameStorage(a.entries, b.entries) { return true }
            guard depth < Self.equalityRecursion else {
                pending.append((self, other))
                return true
            }
            for (position, entry) in a.entries.enumerated() {
                // Same order is the common case; fall back to a lookup.
                let other: StoredValue
                if position < b.entries.count, KeyIndex.same(b.entries[position].key, entry.key) {
                    other = b.entries[position].value
                } else if let found = b[entry.key] {
                    other = found
                } else {
                    return false
                }
                guard entry.value.equals(other, depth: depth + 1, queueing: &pending) else { return false }
            }
            return true
        default:
            return scalarEquals(other)
        }
    }

    /// Whether two arrays share one buffer (a copy of a tree, a container a binary property
    /// list shares): then they are equal without looking inside.
    @inline(__always)
    private static func sameStorage<Element>(_ a: [Element], _ b: [Element]) -> Bool {
        a.withUnsafeBufferPointer { left in b.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress }
        }
    }

    /// Equality of two values at least one of which is not a container (containers of the
    /// same kind are compared by the caller).
    private func scalarEquals(_ other: StoredValue) -> Bool {
        switch (self, other) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.uint(let a), .uint(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.decimal(let a), .decimal(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.data(let a), .data(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        default: false
        }
    }

    /// Hashes the tree's kinds and scalars down to 16 levels, and only the sizes
    /// of containers below that: equal trees hash equally, and hashing takes bounded stack.
    public func hash(into hasher: inout Hasher) {
        hash(into: &hasher, depth: 0)
    }

    /// How many levels of containers ``hash(into:)`` looks into.
    static let hashedDepth = 16

    func hash(into hasher: inout Hasher, depth: Int) {
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .bool(let value): hasher.combine(value)
        case .int(let value): hasher.combine(value)
        case .uint(let value): hasher.combine(value)
        case .double(let value): hasher.combine(value)
        case .decimal(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .data(let value): hasher.combine(value)
        case .date(let value): hasher.combine(value)
        case .array(let elements):
            hasher.combine(elements.count)
            guard depth < Self.hashedDepth else { return }
            for element in elements { element.hash(into: &hasher, depth: depth + 1) }
        case .dictionary(let dictionary):
            dictionary.hash(into: &hasher, depth: depth)
        }
    }

    /// This tree with `other` laid over it: where both are dictionaries, their entries are
    /// merged key by key, recursively, `other`'s winning; everywhere else (scalars, arrays, a
    /// dictionary against a scalar) `other` replaces this value. Keys only this tree has are
    /// kept, in their places; keys only `other` has are appended.
    ///
    /// ```swift
    /// let defaults: StoredValue = ["theme": "light", "volume": 0.5, "account": ["plan": "free"]]
    /// let stored: StoredValue = ["theme": "dark", "account": ["email": "me@example.com"]]
    /// defaults.merging(stored)
    /// // ["theme": "dark", "volume": 0.5, "account": ["plan": "free", "email": "me@example.com"]]
    /// ```
    /// - Parameter other: The tree whose values win.
    /// - Returns: The merged tree.
    public func merging(_ other: StoredValue) -> StoredValue {
        guard case .dictionary(let base) = self, case .dictionary(let overlay) = other else { return other }
        /// A dictionary being merged: its base so far, the overlay's next entry, and the key
        /// it goes back under in the frame below.
        struct Frame {
            var base: StoredDictionary
            let overlay: StoredDictionary
            var next = 0
            let key: String?
        }
        var frames = [Frame(base: base, overlay: overlay, key: nil)]
        while true {
            let top = frames.count - 1
            guard frames[top].next < frames[top].overlay.count else {
                let done = frames.removeLast()
                guard let key = done.key else { return .dictionary(done.base) }
                frames[top - 1].base.set(.dictionary(done.base), forKey: key)
                continue
            }
            let (key, value) = frames[top].overlay.entries[frames[top].next]
            frames[top].next += 1
            guard let existing = frames[top].base[key] else {
                frames[top].base.append(key: key, value: value)
                continue
            }
            if case .dictionary(let nestedBase) = existing, case .dictionary(let nestedOverlay) = value {
                frames.append(Frame(base: nestedBase, overlay: nestedOverlay, key: key))
            } else {
                frames[top].base.set(value, forKey: key)
            }
        }
    }
}

extension StoredDictionary: Hashable {
    /// Whether both hold the same entries, in any order.
    public static func == (lhs: StoredDictionary, rhs: StoredDictionary) -> Bool {
        StoredValue.dictionary(lhs) == StoredValue.dictionary(rhs)
    }

    public func hash(into hasher: inout Hasher) {
        hash(into: &hasher, depth: 0)
    }

    func hash(into hasher: inout Hasher, depth: Int) {
        hasher.combine(count)
        guard depth < StoredValue.hashedDepth else { return }
        // Order-independent, to agree with ==: combine per-entry hashes commutatively.
        var combined = 0
        for entry in entries {
            var entryHasher = Hasher()
            entryHasher.combine(KeyIndex.hash(entry.key))
            entry.value.hash(into: &entryHasher, depth: depth + 1)
            combined = combined &+ entryHasher.finalize()
        }
        hasher.combine(combined)
    }
}
