import Foundation
import RawCoding

/// The `async` API: the synchronous calls, run through ``KeyValueStore/perform(forKey:_:)`` so
/// that waiting for a lock, a disk or a server holds no thread of the Swift concurrency pool.
/// Same names and labels as the synchronous calls; in `async` code Swift chooses these.
///
/// ```swift
/// func handle(_ request: Request) async throws -> Response {
///     let visits = try await store.update(Int.self, forKey: "visits", defaultValue: 0) { $0 += 1; return $0 }
///     return Response(body: "\(visits)")
/// }
/// ```
///
/// When the calling task is cancelled before the call changed anything, it throws
/// `RawCodingError` of kind `.cancelled` and nothing was written; once a write has begun, it
/// completes (a call writes everything or nothing, never part).
extension KeyValueStore {
    /// The tree stored under `key`, or `nil`, as ``read(forKey:)``, without blocking the
    /// concurrency pool.
    /// - Parameter key: The key.
    /// - Returns: The tree, or `nil`.
    /// - Throws: `RawCodingError`, as ``read(forKey:)``, or of kind `.cancelled`.
    public func read(forKey key: String) async throws(RawCodingError) -> StoredValue? {
        try await perform(forKey: key) { () throws(RawCodingError) in try self.read(forKey: key) }
    }

    /// Stores `value` under `key`, as ``write(_:forKey:)``, without blocking the concurrency pool.
    /// - Parameters:
    ///   - value: The tree; `StoredValue.null` is refused.
    ///   - key: The key.
    /// - Throws: `RawCodingError`, as ``write(_:forKey:)``, or of kind `.cancelled`.
    public func write(_ value: StoredValue, forKey key: String) async throws(RawCodingError) {
        try await perform(forKey: key) { () throws(RawCodingError) in try self.write(value, forKey: key) }
    }

    /// Removes the value under `key`, as ``remove(forKey:)``, without blocking the concurrency
    /// pool.
    /// - Parameter key: The key.
    /// - Throws: `RawCodingError`, as ``remove(forKey:)``, or of kind `.cancelled`.
    public func remove(forKey key: String) async throws(RawCodingError) {
        try await perform(forKey: key) { () throws(RawCodingError) in try self.remove(forKey: key) }
    }

    /// Reads, changes and writes the value under `key` as one step, as ``update(forKey:_:)``,
    /// without blocking the concurrency pool. A call cancelled while it waits for the key's lock
    /// writes nothing.
    /// - Parameters:
    ///   - key: The key.
    ///   - body: Gets the current tree and may change it; it runs on a thread of the store's,
    ///     under its lock, and must not call the store.
    /// - Returns: What `body` returns.
    /// - Throws: `RawCodingError`, as ``update(forKey:_:)``, or of kind `.cancelled`.
    public func update<Result: Sendable>(
        forKey key: String, _ body: @escaping @Sendable (inout StoredValue?) throws(RawCodingError) -> Result
    ) async throws(RawCodingError) -> Result {
        try await perform(forKey: key) { () throws(RawCodingError) in
            try self.update(forKey: key) { (tree: inout StoredValue?) throws(RawCodingError) -> Result in
                try StoreJob.checkCancellation()
                return try body(&tree)
            }
        }
    }

    /// Decodes the value under `key`, as ``value(_:forKey:)``, without blocking the concurrency
    /// pool.
    /// - Parameters:
    ///   - type: The type.
    ///   - key: The key.
    /// - Returns: The value, or `nil` if the key holds nothing.
    /// - Throws: `RawCodingError`, as ``value(_:forKey:)``, or of kind `.cancelled`.
    public func value<Value: Decodable & Sendable>(_ type: Value.Type, forKey key: String) async throws(RawCodingError)
        -> Value?
    {
        try await perform(forKey: key) { () throws(RawCodingError) in try self.value(type, forKey: key) }
    }

    /// Decodes the value under `key`, or returns `defaultValue`, as
    /// ``value(_:forKey:defaultValue:)``, without blocking the concurrency pool.
    /// - Parameters:
    ///   - type: The type.
    ///   - key: The key.
    ///   - defaultValue: The value when the key holds nothing, and the source of keys the
    ///     payload lacks.
    /// - Returns: The value.
    /// - Throws: `RawCodingError`, as ``value(_:forKey:defaultValue:)``, or of kind `.cancelled`.
    public func value<Value: Decodable & Sendable>(
        _ type: Value.Type, forKey key: String, defaultValue: Value
    ) async throws(RawCodingError) -> Value {
        try await perform(forKey: key) { () throws(RawCodingError) in
            try self.value(type, forKey: key, defaultValue: defaultValue)
        }
    }

    /// Stores `value` under `key`, as `set(_:forKey:writing:)`, without blocking the
    /// concurrency pool.
    /// - Parameters:
    ///   - value: The value.
    ///   - key: The key.
    ///   - writing: The form to write in; ``StoredWriting/native`` by default.
    /// - Throws: `RawCodingError`, as `set(_:forKey:writing:)`, or of kind `.cancelled`.
    public func set<Value: Codable & Sendable>(
        _ value: Value, forKey key: String, writing: StoredWriting = .native
    ) async throws(RawCodingError) {
        try await perform(forKey: key) { () throws(RawCodingError) in
            try self.set(value, forKey: key, writing: writing)
        }
    }

    /// Reads, changes and writes the value under `key` as one step, as
    /// ``update(_:forKey:defaultValue:_:)``, without blocking the concurrency pool. A call
    /// cancelled while it waits for the key's lock writes nothing.
    ///
    /// ```swift
    /// let launches = try await store.update(Int.self, forKey: "launches", defaultValue: 0) { $0 += 1; return $0 }
    /// ```
    /// - Parameters:
    ///   - type: The type.
    ///   - key: The key.
    ///   - defaultValue: The value `body` gets when the key holds nothing.
    ///   - body: Changes the value; it runs on a thread of the store's, under its lock.
    /// - Returns: What `body` returns.
    /// - Throws: `RawCodingError`, as ``update(_:forKey:defaultValue:_:)``, or of kind `.cancelled`.
    @discardableResult
    public func update<Value: Codable & Sendable, Result: Sendable>(
        _ type: Value.Type, forKey key: String, defaultValue: Value,
        _ body: @escaping @Sendable (inout Value) throws(RawCodingError) -> Result
    ) async throws(RawCodingError) -> Result {
        try await perform(forKey: key) { () throws(RawCodingError) in
            try self.update(type, forKey: key, defaultValue: defaultValue) {
                (value: inout Value) throws(RawCodingError) -> Result in
                try StoreJob.checkCancellation()
                return try body(&value)
            }
        }
    }
}
