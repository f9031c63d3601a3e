/// The entries of a ``StoredValue/dictionary(_:)``: unique `String` keys in insertion order.
///
/// Lookups by key are fast at any size. Setting an existing key replaces its value in place;
/// a new key goes at the end. Two dictionaries are equal when they hold the same entries, in
/// any order.
public struct StoredDictionary: Sendable {
    /// One entry.
    public typealias Element = (key: String, value: StoredValue)

    var entries: [Element]
    /// Positions by key, kept once there are more entries than a linear search handles well.
    var index: [String: Int]?

    static let indexThreshold = 12

    /// Creates an empty dictionary.
    public init() {
        entries = []
    }

    /// Creates a dictionary with room for `capacity` entries.
    /// - Parameter capacity: How many entries to reserve space for.
    public init(minimumCapacity capacity: Int) {
        entries = []
        entries.reserveCapacity(capacity)
    }

    /// Creates a dictionary from key-value pairs; a repeated key keeps its first position and
    /// its last value.
    /// - Parameter pairs: The entries, in order.
    public init<Pairs: Sequence>(_ pairs: Pairs) where Pairs.Element == (String, StoredValue) {
        self.init()
        for (key, value) in pairs { self[key] = value }
    }

    /// The number of entries.
    public var count: Int { entries.count }

    /// Whether there are no entries.
    public var isEmpty: Bool { entries.isEmpty }

    /// The keys, in order.
    public var keys: [String] { entries.map(\.key) }

    /// The values, in the order of their keys.
    public var values: [StoredValue] { entries.map(\.value) }

    /// The position of `key`, if present.
    public func position(of key: String) -> Int? {
        if let index { return index[key] }
        return entries.firstIndex { $0.key == key }
    }

    /// The position of `key`, searching from `hint` first: decoders read a type's properties
    /// in the order it wrote them, so the next key is usually right after the last one.
    func position(of key: String, startingAt hint: Int) -> Int? {
        if index == nil, hint < entries.count {
            for position in hint..<entries.count where entries[position].key == key { return position }
            for position in 0..<hint where entries[position].key == key { return position }
            return nil
        }
        return position(of: key)
    }

    /// The value for `key`; setting `nil` removes the entry.
    public subscript(key: String) -> StoredValue? {
        get { position(of: key).map { entries[$0].value } }
        set {
            if let newValue { return set(newValue, forKey: key) }
            guard let position = position(of: key) else { return }
            entries.remove(at: position)
            rebuildIndex()
        }
    }

    /// Sets `value` for `key`: replaced in place if present, appended otherwise. One call (one
    /// exclusive access) for the encoder's hot path.
    mutating func set(_ value: StoredValue, forKey key: String) {
        if entries.isEmpty {
            entries.reserveCapacity(8)
        } else if let position = position(of: key) {
            entries[position].value = value
            return
        }
        append(key: key, value: value)
    }

    /// Adds an entry for a key known not to be present yet.
    mutating func append(key: String, value: StoredValue) {
        if index != nil {
            index![key] = entries.count
        } else if entries.count == Self.indexThreshold {
            var positions = [String: Int](minimumCapacity: entries.count * 2)
            for (position, entry) in entries.enumerated() { positions[entry.key] = position }
            positions[key] = entries.count
            index = positions
        }
        entries.append((key, value))
    }

    private mutating func rebuildIndex() {
        guard entries.count > Self.indexThreshold else {
            index = nil
            return
        }
        var positions = [String: Int](minimumCapacity: entries.count)
        for (position, entry) in entries.enumerated() { positions[entry.key] = position }
        index = positions
    }
}

extension StoredDictionary: RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count }
    public subscript(position: Int) -> Element { entries[position] }
}

extension StoredDictionary: Hashable {
    public static func == (lhs: StoredDictionary, rhs: StoredDictionary) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (position, entry) in lhs.entries.enumerated() {
            // Same order is the common case; fall back to a lookup.
            if position < rhs.entries.count, rhs.entries[position].key == entry.key {
                if rhs.entries[position].value != entry.value { return false }
            } else if rhs[entry.key] != entry.value {
                return false
            }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, to agree with ==: combine per-entry hashes commutatively.
        var combined = 0
        for entry in entries {
            var entryHasher = Hasher()
            entryHasher.combine(entry.key)
            entryHasher.combine(entry.value)
            combined = combined &+ entryHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

extension StoredDictionary: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, StoredValue)...) {
        self.init(elements)
    }
}
