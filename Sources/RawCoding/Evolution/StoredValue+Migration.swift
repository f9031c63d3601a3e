extension StoredValue {
    /// Moves the value at `key` to `newKey`, replacing any value `newKey` had; does nothing when
    /// this is not a dictionary or has no `key`. For migration steps.
    ///
    /// ```swift
    /// .tree(from: 1) { tree in tree.renameKey("name", to: "username") }
    /// ```
    /// - Parameters:
    ///   - key: The key to rename.
    ///   - newKey: Its new name.
    public mutating func renameKey(_ key: String, to newKey: String) {
        guard key != newKey, let value = self[key] else { return }
        self[key] = nil
        self[newKey] = value
    }
}
