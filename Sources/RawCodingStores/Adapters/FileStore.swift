import Foundation
import RawCoding

/// A store in a directory: one file per key, written with a codec, safe across crashes and
/// across processes.
///
/// - Each write is atomic: a temporary file is written and flushed, renamed over the key's
///   file, and the directory is flushed, so a crash or a `kill -9` at any moment leaves the
///   old value or the new one, never a torn file. A temporary file left by a crash is removed
///   the next time a store opens the directory.
/// - Writes and ``update(forKey:_:)`` hold an advisory lock (`flock` on `.lock` in the directory),
///   so read-modify-write is safe across threads and processes that use `FileStore`.
/// - Observers are told of writes through any instance in this process at once, and of
///   changes made by other processes within ``pollInterval`` (a watcher compares each file's
///   inode, size and modification time; it runs only while someone observes).
///
/// ```swift
/// let store = try FileStore(directory: URL(fileURLWithPath: "/var/lib/myapp/settings"))
/// try store.update(Int.self, forKey: "launches", defaultValue: 0) { $0 += 1 }
/// ```
///
/// - New files and directories are owner-only (`0600`, `0700`) unless `permissions` says
///   otherwise; a rewritten file keeps its mode.
/// - In `async` code, every call (`try await store.update(…)`) runs on threads of the store's
///   own and never blocks the Swift concurrency pool; one cancelled while it waits for the lock
///   writes nothing. The synchronous calls block the calling thread.
///
/// File names: see the article on stores; keys are escaped so any string is a safe name.
public final class FileStore: KeyValueStore {
    /// How often, in seconds, the watcher looks for other processes' changes.
    public static let pollInterval: TimeInterval = 0.2

    /// The directory.
    public let directory: URL
    public let codec: any Codec
    /// Largest file ``read(forKey:)`` reads; a bigger one is a `.limitExceeded`
    /// error and is left as it is.
    public let maximumFileBytes: Int
    /// The permissions of the files and directories the store creates.
    public let permissions: StoreFilePermissions

    let path: String
    let shared: FileStoreWatcher
    let names: FileStoreNames
    private let threads = StoreThreads(name: "FileStore", width: 4)

    /// Opens (creating if needed) the store in `directory`, and removes temporary files that
    /// a crashed writer left behind.
    /// - Parameters:
    ///   - directory: The directory; created with its parents if missing.
    ///   - codec: The files' format; compact JSON by default. Its `Codec.fileExtension` ends
    ///     each file name, so stores with different codecs can share a directory.
    ///   - maximumFileBytes: Largest file read; 64 MiB by default.
    ///   - permissions: The modes of the files and directories the store creates (the directory
    ///     and its missing parents too); owner-only by default.
    /// - Throws: `RawCodingError` of kind `.storageFailed` if the
    ///   directory cannot be created or locked.
    public init(
        directory: URL, codec: any Codec = .json, maximumFileBytes: Int = 64 << 20,
        permissions: StoreFilePermissions = .ownerOnly
    ) throws(RawCodingError) {
        self.directory = directory.standardizedFileURL
        self.codec = codec
        self.maximumFileBytes = maximumFileBytes
        self.permissions = permissions
        path = self.directory.path
        names = FileStoreNames(fileExtension: codec.fileExtension)
        try POSIXFiles.makeDirectories(path, permissions: permissions, key: nil)
        shared = FileStoreWatcher.shared(for: self.directory.resolvingSymlinksInPath().path)
        try removeLeftoverTemporaryFiles()
    }

    var lockPath: String { path + "/" + FileStoreNames.lockName }
    var setAsidePath: String { path + "/" + FileStoreNames.setAsideFolder }

    func filePath(_ key: String) throws(RawCodingError) -> String {
        path + "/" + (try names.fileName(for: key))
    }

    /// Under the lock no writer is between creating and renaming its temporary file, so every
    /// one present is a crashed writer's.
    private func removeLeftoverTemporaryFiles() throws(RawCodingError) {
        try POSIXFiles.withExclusiveLock(lockPath, permissions: permissions, key: nil) { () throws(RawCodingError) in
            for name in try POSIXFiles.names(in: path, key: nil) where name.hasPrefix(FileStoreNames.temporaryPrefix) {
                try POSIXFiles.remove(path + "/" + name, key: nil)
            }
        }
    }

    /// The one path of every change: runs `body` under the directory's lock, which returns
    /// whether it changed `file`; a change is noted as this instance's own (so the watcher does
    /// not report it again) before the lock is released, and observers are told after, as
    /// GRDB tells its observers after a commit.
    func mutate<Result>(
        forKey key: String, file: String, _ body: () throws(RawCodingError) -> (result: Result, changed: Bool)
    ) throws(RawCodingError) -> Result {
        let (result, changed) = try POSIXFiles.withExclusiveLock(lockPath, permissions: permissions, key: key) {
            () throws(RawCodingError) -> (Result, Bool) in
            // An `async` call cancelled while it waited for the lock writes nothing.
            try StoreJob.checkCancellation()
            let outcome = try body()
            if outcome.changed { shared.noteOwnChange(file) }
            return outcome
        }
        if changed { shared.broadcaster.send(forKey: key, from: self) }
        return result
    }

    /// Runs `work` on the store's own threads.
    /// - Parameters:
    ///   - key: The key the work is about.
    ///   - work: The work.
    /// - Returns: What `work` returns.
    /// - Throws: `RawCodingError`: what `work` throws, or of kind `.cancelled`.
    public func perform<Result: Sendable>(
        forKey key: String?, _ work: @escaping @Sendable () throws(RawCodingError) -> Result
    ) async throws(RawCodingError) -> Result {
        try await threads.run(in: FileStore.self, key: key, work)
    }

    public func read(forKey key: String) throws(RawCodingError) -> StoredValue? {
        let file = try filePath(key)
        guard let data = try POSIXFiles.read(file, key: key, maximumBytes: maximumFileBytes) else { return nil }
        return try codec.tree(ofPayload: data, forKey: key)
    }

    public func write(_ value: StoredValue, forKey key: String) throws(RawCodingError) {
        // Not `update`: no need to read and parse the old file to replace it.
        let file = try filePath(key)
        try mutate(forKey: key, file: file) { () throws(RawCodingError) in
            try writeLocked(value, key: key, file: file)
            return ((), true)
        }
    }

    public func remove(forKey key: String) throws(RawCodingError) {
        let file = try filePath(key)
        try mutate(forKey: key, file: file) { () throws(RawCodingError) in
            let removed = try POSIXFiles.remove(file, key: key)
            if removed { try POSIXFiles.flushDirectory(path, key: key) }
            return ((), removed)
        }
    }

    public func update<Result>(
        forKey key: String, _ body: (inout StoredValue?) throws(RawCodingError) -> Result
    ) throws(RawCodingError) -> Result {
        let file = try filePath(key)
        return try mutate(forKey: key, file: file) { () throws(RawCodingError) -> (result: Result, changed: Bool) in
            let old = try read(forKey: key)
            var value = old
            let result = try body(&value)
            guard value != old else { return (result, false) }
            if let value {
                try writeLocked(value, key: key, file: file)
            } else {
                try POSIXFiles.remove(file, key: key)
                try POSIXFiles.flushDirectory(path, key: key)
            }
            return (result, true)
        }
    }

    /// Writes `value` to `file`; the caller holds the lock.
    private func writeLocked(_ value: StoredValue, key: String, file: String) throws(RawCodingError) {
        try writeLocked(try fileData(value, key: key), key: key, file: file)
    }

    /// Writes `data` to `file` atomically, through a temporary file; the caller holds the lock.
    func writeLocked(_ data: Data, key: String, file: String) throws(RawCodingError) {
        let temporary = path + "/" + FileStoreNames.temporaryName()
        try POSIXFiles.writeAtomically(
            data, to: file, temporaryPath: temporary, directory: path, permissions: permissions, key: key)
    }

    /// The bytes of `value`'s file, refusing `null` at the top level.
    func fileData(_ value: StoredValue, key: String) throws(RawCodingError) -> Data {
        try codec.payload(of: value, forKey: key, in: FileStore.self)
    }

    public func keys() throws(RawCodingError) -> [String] {
        try POSIXFiles.names(in: path, key: nil).compactMap(names.key(forFileName:)).sorted()
    }

    public func observe(_ handler: @escaping @Sendable (StoreChange) -> Void) -> StoreObservation {
        let observation = shared.broadcaster.add(for: self, handler)
        shared.startWatching()
        return observation
    }
}
