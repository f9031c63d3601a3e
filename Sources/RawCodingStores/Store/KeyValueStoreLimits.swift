import Foundation
import RawCoding

/// Quotas a store enforces before it writes: a write that would exceed one is refused with
/// `.limitExceeded` and nothing is stored.
///
/// ``ubiquitousKeyValueStore`` holds the iCloud key-value store's documented quotas, so code
/// meant for `NSUbiquitousKeyValueStore` can be tested on any platform with
/// `InMemoryStore(limits: .ubiquitousKeyValueStore)`.
///
/// A value's size is measured as its binary property-list encoding: the closest portable
/// measure of what the iCloud store counts, which Apple does not define to the byte. Sizes
/// count the key's UTF-8 bytes too.
public struct KeyValueStoreLimits: Sendable, Hashable {
    /// Most keys the store may hold.
    public var maximumKeyCount: Int
    /// Longest key, in UTF-8 bytes.
    public var maximumKeyBytes: Int
    /// Largest single value (with its key), in bytes.
    public var maximumValueBytes: Int
    /// Largest total of all keys and values, in bytes.
    public var maximumTotalBytes: Int

    /// Creates limits.
    /// - Parameters:
    ///   - maximumKeyCount: Most keys.
    ///   - maximumKeyBytes: Longest key, in UTF-8 bytes.
    ///   - maximumValueBytes: Largest value with its key, in bytes.
    ///   - maximumTotalBytes: Largest total, in bytes.
    public init(maximumKeyCount: Int, maximumKeyBytes: Int, maximumValueBytes: Int, maximumTotalBytes: Int) {
        self.maximumKeyCount = maximumKeyCount
        self.maximumKeyBytes = maximumKeyBytes
        self.maximumValueBytes = maximumValueBytes
        self.maximumTotalBytes = maximumTotalBytes
    }

    /// No quotas.
    public static let unlimited = KeyValueStoreLimits(
        maximumKeyCount: .max, maximumKeyBytes: .max, maximumValueBytes: .max, maximumTotalBytes: .max)

    /// The iCloud key-value store's quotas (`NSUbiquitousKeyValueStore`): 1,024 keys, keys of
    /// at most 64 bytes, 1 MB per value and 1 MB in all (1 MB taken as 1,000,000 bytes, the
    /// stricter reading).
    public static let ubiquitousKeyValueStore = KeyValueStoreLimits(
        maximumKeyCount: 1_024, maximumKeyBytes: 64, maximumValueBytes: 1_000_000, maximumTotalBytes: 1_000_000)

    /// The size a value counts for under these limits: its key's UTF-8 bytes plus its binary
    /// property-list encoding.
    /// - Parameters:
    ///   - value: The tree.
    ///   - key: Its key.
    /// - Returns: The size in bytes.
    /// - Throws: `RawCodingError` if the tree cannot be written as a property list.
    public static func size(of value: StoredValue, forKey key: String) throws(RawCodingError) -> Int {
        key.utf8.count + (try PropertyListCodec(format: .binary).writeTree(value).count)
    }

    /// Checks that writing a value of `size` bytes under `key` keeps within the limits.
    /// - Parameters:
    ///   - size: ``size(of:forKey:)`` of the new value.
    ///   - key: The key to write.
    ///   - sizes: The size of every value the store holds now, by key.
    ///   - store: The store, named in the error.
    /// - Throws: `RawCodingError` of kind `.limitExceeded` naming the
    ///   limit and the numbers.
    public func check(
        writingBytes size: Int, forKey key: String, into sizes: [String: Int], store: Any.Type
    ) throws(RawCodingError) {
        func refuse(_ reason: String) -> RawCodingError {
            RawCodingError(
                kind: .limitExceeded, typeName: String(describing: store),
                codingPath: [StoredCodingKey(stringValue: key)], reason: reason + "; nothing was written")
        }
        let keyBytes = key.utf8.count
        if keyBytes > maximumKeyBytes {
            throw refuse("the key is \(keyBytes) bytes long, over the limit of \(maximumKeyBytes) bytes")
        }
        if key.isEmpty { throw refuse("the key is empty") }
        if sizes[key] == nil, sizes.count + 1 > maximumKeyCount {
            throw refuse("the store holds \(sizes.count) keys, the limit; remove one before adding another")
        }
        if size > maximumValueBytes {
            throw refuse("the value takes \(size) bytes, over the limit of \(maximumValueBytes) bytes per value")
        }
        let total = sizes.values.reduce(0, +) - (sizes[key] ?? 0) + size
        if total > maximumTotalBytes {
            throw refuse(
                "the store would hold \(total) bytes, over the limit of \(maximumTotalBytes) bytes in all")
        }
    }

    /// Checks that writing `value` under `key` into a store holding `current` keeps within the
    /// limits: what a store that cannot track sizes as it goes (the iCloud adapter) calls.
    /// - Parameters:
    ///   - value: The new value.
    ///   - key: Its key.
    ///   - current: Every value the store holds now, by key.
    ///   - store: The store, named in the error.
    /// - Throws: `RawCodingError` of kind `.limitExceeded`, or the
    ///   error of measuring a value a property list cannot hold.
    public func check(
        writing value: StoredValue, forKey key: String, into current: [String: StoredValue], store: Any.Type
    ) throws(RawCodingError) {
        var sizes: [String: Int] = [:]
        for (existing, stored) in current { sizes[existing] = try Self.size(of: stored, forKey: existing) }
        try check(writingBytes: try Self.size(of: value, forKey: key), forKey: key, into: sizes, store: store)
    }
}
