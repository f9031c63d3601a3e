import Foundation
import RawCoding

/// A payload that no longer decoded, moved out of the way before a write replaced it, kept
/// until the app recovers or discards it (``KeyValueStore/setAsidePayloads()``).
public struct SetAsidePayload: Sendable, Hashable, Identifiable {
    /// What was set aside: bytes for a byte store, a tree for a tree store.
    public enum Content: Sendable, Hashable {
        /// The file's bytes, exactly as they were stored.
        case bytes(Data)
        /// The tree, exactly as it was stored.
        case tree(StoredValue)
    }

    /// Identifies the payload in its store (for ``KeyValueStore/discardSetAside(_:)``).
    public var id: String
    /// The key it was stored under.
    public var key: String
    /// When it was set aside.
    public var date: Date
    /// The payload.
    public var content: Content

    /// Creates a description of a set-aside payload.
    /// - Parameters:
    ///   - id: Its identifier in the store.
    ///   - key: The key it was stored under.
    ///   - date: When it was set aside.
    ///   - content: The payload.
    public init(id: String, key: String, date: Date, content: Content) {
        self.id = id
        self.key = key
        self.date = date
        self.content = content
    }

    /// The payload as a tree: the tree itself, or the bytes read with `codec`.
    /// - Parameter codec: The codec the bytes were written with (the store's).
    /// - Returns: The tree.
    /// - Throws: `RawCodingError` if the bytes do not read (they may be why it was set aside).
    public func tree(readingWith codec: any Codec) throws(RawCodingError) -> StoredValue {
        switch content {
        case .tree(let tree): return tree
        case .bytes(let data): return try codec.readTree(from: data)
        }
    }
}
