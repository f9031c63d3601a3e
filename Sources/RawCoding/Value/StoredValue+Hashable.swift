import Foundation

// Equality, hashing and merging without recursion: a tree may be nested as deeply as its
// reader allows (and a hand-built one deeper), and these operations cannot throw, so they must
// not depend on the stack of the thread that calls them.

extension StoredValue {
    /// Whether two trees hold the same values: the same kinds, equal scalars, arrays equal
    /// element by element, dictionaries with the same entries in any order.
    ///
    /// Disfavored as the synthesized `==` it replaces was invisible to overload resolution:
    /// `decoded == 1.5` still compares a `Double`, not a tree made from the literal.
    @_disfavoredOverload
    public static func == (lhs: StoredValue, rhs: StoredValue) -> Bool {
        switch (lhs, rhs) {
        // A tree compared with its own copy (a store's payload with what was written) is
        // equal at once, without the queue.
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return false }
            if Self.sameStorage(a, b) { return true }
        case (.dictionary(let a), .dictionary(let b)):
            guard a.count == b.count else { return false }
            if Self.sameStorage(a.entries, b.entries) { return true }
        default: return lhs.scalarEquals(rhs)
        }
        var pending: [(StoredValue, StoredValue)] = [(lhs, rhs)]
        while let (left, right) = pending.popLast() {
            switch (left, right) {
            case (.array(let a), .array(let b)):
                guard a.count == b.count else { return false }
                if Self.sameStorage(a, b) { continue }
                for (x, y) in zip(a, b) where !x.appendPair(y, to: &pending) { return false }
            case (.dictionary(let a), .dictionary(let b)):
                guard a.count == b.count else { return false }
                if Self.sameStorage(a.entries, b.entries) { continue }
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
                    guard entry.value.appendPair(other, to: &pending) else { return false }
                }
            default:
                guard left.scalarEquals(right) else { return false }
            }
        }
        return true
    }

    /// Whether two arrays share one buffer (a copy of a tree, a container a binary property
    /// list shares): then they are equal without looking inside.
    @inline(__always)
    private static func sameStorage<Element>(_ a: [Element], _ b: [Element]) -> Bool {
        a.withUnsafeBufferPointer { left in b.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress }
        }
    }

    /// Compares scalars now and queues containers; `false` when they already differ.
    @inline(__always)
    private func appendPair(_ other: StoredValue, to pending: inout [(StoredValue, StoredValue)]) -> Bool {
        switch (self, other) {
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return false }
        case (.dictionary(let a), .dictionary(let b)):
            guard a.count == b.count else { return false }
        default:
            return scalarEquals(other)
        }
        pending.append((self, other))
        return true
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
