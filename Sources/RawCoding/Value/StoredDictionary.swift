import Foundation

/// The entries of a ``StoredValue/dictionary(_:)``: unique `String` keys in insertion order.
///
/// Keys are compared by their exact UTF-8 bytes, as JSON compares member names: `"é"` and
/// `"e\u{301}"` are two keys here, although Swift's `String` calls them equal. Lookups by key
/// are fast at any size. Setting an existing key replaces its value in place; a new key goes
/// at the end. Two dictionaries are equal when they hold the same entries, in any order.
public struct StoredDictionary: Sendable {
    /// One entry.
    public typealias Element = (key: String, value: StoredValue)

    var entries: [Element]
    /// Positions by key, kept once there are more entries than a linear search handles well.
    var index: KeyIndex?

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
        self.init(readEntries: pairs.map { (key: $0.0, value: $0.1) })
    }

    /// Creates a dictionary from entries collected in order (by a reader or an encoder): a
    /// repeated key keeps its first position and its last value. One pass, one hash per key
    /// for large dictionaries.
    init(readEntries: [Element]) {
        entries = readEntries
        if entries.count > Self.indexThreshold {
            var index = KeyIndex(capacity: entries.count)
            var duplicates = false
            for position in entries.indices where !index.insert(position, in: entries) {
                duplicates = true
            }
            if duplicates {
                removeDuplicates()
            } else {
                self.index = index
            }
        } else if entries.count > 1 {
            let repeats = withKeys { keys in
                (1..<keys.count).contains { position in
                    (0..<position).contains { KeyIndex.same(keys[$0], keys[position]) }
                }
            }
            if repeats { removeDuplicates() }
        }
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
        if let index { return index.find(key, in: entries) }
        return withKeys { keys in (0..<keys.count).first { KeyIndex.same(keys[$0], key) } }
    }

    /// The position of `key`, searching from `hint` first: decoders read a type's properties
    /// in the order it wrote them, so the next key is usually right after the last one.
    ///
    /// Keys are read in place (``withKeys(_:)``): `entries[position].key` copied the whole
    /// entry, its value retained and released, for each key passed over.
    func position(of key: String, startingAt hint: Int) -> Int? {
        guard hint < entries.count else { return position(of: key) }
        if withKeys({ KeyIndex.same($0[hint], key) }) { return hint }
        if let index { return index.find(key, in: entries) }
        return withKeys { keys in
            for position in (hint + 1)..<keys.count where KeyIndex.same(keys[position], key) { return position }
            for position in 0..<hint where KeyIndex.same(keys[position], key) { return position }
            return nil
        }
    }

    /// Calls `body` with the entries' keys, read in place.
    @inline(__always)
    func withKeys<Result>(_ body: (EntryKeys) -> Result) -> Result {
        EntryKeys.of(entries, body)
    }

    /// The keys of a buffer of entries, each read where it is: an entry's key is its first
    /// element, at the entry's own address (a tuple's elements are laid out in order).
    struct EntryKeys {
        let entries: UnsafeBufferPointer<Element>

        var count: Int { entries.count }

        /// Calls `body` with the keys of `entries`.
        @inline(__always)
        static func of<Result>(_ entries: [Element], _ body: (EntryKeys) -> Result) -> Result {
            entries.withUnsafeBufferPointer { body(EntryKeys(entries: $0)) }
        }

        subscript(position: Int) -> String {
            @inline(__always) unsafeAddress {
                UnsafeRawPointer(entries.baseAddress! + position).assumingMemoryBound(to: String.self)
            }
        }
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
        entries.append((key, value))
        if index != nil {
            _ = index!.insert(entries.count - 1, in: entries)
        } else if entries.count == Self.indexThreshold + 1 {
            rebuildIndex()
        }
    }

    /// Keeps the first position and the last value of every repeated key; rare, so simple.
    private mutating func removeDuplicates() {
        var kept: [Element] = []
        var index = KeyIndex(capacity: entries.count)
        for entry in entries {
            if let position = index.find(entry.key, in: kept) {
                kept[position].value = entry.value
            } else {
                kept.append(entry)
                _ = index.insert(kept.count - 1, in: kept)
            }
        }
        entries = kept
        self.index = kept.count > Self.indexThreshold ? index : nil
    }

    private mutating func rebuildIndex() {
        guard entries.count > Self.indexThreshold else {
            index = nil
            return
        }
        var positions = KeyIndex(capacity: entries.count)
        for position in entries.indices { _ = positions.insert(position, in: entries) }
        index = positions
    }
}

/// An open-addressing table from keys (by their UTF-8 bytes) to entry positions. Cheaper than
/// `[String: Int]`, whose hashing normalizes Unicode, and exact where `String`'s `==` is not.
struct KeyIndex: Sendable {
    /// Entry positions plus one; zero marks an empty slot. The count is a power of two.
    private var slots: [Int32]

    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: 0, count: size)
    }

    /// A hash of the key's UTF-8 bytes, eight at a time.
    static func hash(_ key: String) -> Int {
        key.utf8.withContiguousStorageIfAvailable(hash(bytes:)) ?? Array(key.utf8).withUnsafeBufferPointer(hash(bytes:))
    }

    static func hash(bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
        var index = 0
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            while bytes.count - index >= 8 {
                hash = (hash ^ base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 29
                index += 8
            }
        }
        while index < bytes.count {
            hash = (hash ^ UInt64(bytes[index])) &* 0x0000_0100_0000_01B3
            index += 1
        }
        hash ^= hash >> 32
        return Int(truncatingIfNeeded: hash)
    }

    /// Whether two strings have the same UTF-8 bytes.
    @inline(__always)
    static func same(_ lhs: String, _ rhs: String) -> Bool {
        if MemoryLayout<String>.size == 16 {
            // The same representation is the same string (a small string's bytes, or the same
            // storage and count): the common case of a coding key compared with itself.
            let left = unsafeBitCast(lhs, to: (UInt64, UInt64).self)
            let right = unsafeBitCast(rhs, to: (UInt64, UInt64).self)
            if left == right { return true }
            // Two small strings (up to 15 UTF-8 bytes, held in the representation itself, with
            // the unused bytes zero) are the same only with the same representation: most keys
            // a lookup passes over are told apart here, without reading their bytes.
            if left.1 & right.1 & smallStringFlag != 0 { return false }
        }
        return sameBytes(lhs, rhs)
    }

    /// The flag of a 64-bit `String`'s second word that marks a small string (the standard
    /// library's ABI-stable layout: bit 61 of the discriminator byte).
    private static let smallStringFlag: UInt64 = 1 << 61

    private static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                guard left.count == right.count else { return false }
                guard left.count > 0, let a = left.baseAddress, let b = right.baseAddress else { return true }
                return a == b || memcmp(a, b, left.count) == 0
            }
        }
        if let compared, let compared { return compared }
        // Strings without contiguous UTF-8 (bridged ones) take the slow path.
        return lhs.utf8.elementsEqual(rhs.utf8)
    }

    func find(_ key: String, in entries: [StoredDictionary.Element]) -> Int? {
        let mask = slots.count - 1
        var slot = Self.hash(key) & mask
        return StoredDictionary.EntryKeys.of(entries) { keys in
            while true {
                let stored = Int(slots[slot])
                if stored == 0 { return nil }
                if Self.same(keys[stored - 1], key) { return stored - 1 }
                slot = (slot + 1) & mask
            }
        }
    }

    /// Adds `entries[position]`'s key; `false` (and nothing added) when the key is there already.
    mutating func insert(_ position: Int, in entries: [StoredDictionary.Element]) -> Bool {
        if (position + 1) * 2 > slots.count { grow(entries) }
        let mask = slots.count - 1
        return StoredDictionary.EntryKeys.of(entries) { keys in
            let key = keys[position]
            var slot = Self.hash(key) & mask
            while true {
                let stored = Int(slots[slot])
                if stored == 0 {
                    slots[slot] = Int32(truncatingIfNeeded: position + 1)
                    return true
                }
                if Self.same(keys[stored - 1], key) { return false }
                slot = (slot + 1) & mask
            }
        }
    }

    private mutating func grow(_ entries: [StoredDictionary.Element]) {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        let mask = slots.count - 1
        StoredDictionary.EntryKeys.of(entries) { keys in
            for stored in old where stored != 0 {
                var slot = Self.hash(keys[Int(stored) - 1]) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = stored
            }
        }
    }
}

extension StoredDictionary: RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count }
    public subscript(position: Int) -> Element { entries[position] }
}

extension StoredDictionary: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, StoredValue)...) {
        self.init(elements)
    }
}
