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

    private let path: String
    private let shared: FileStoreWatcher
    private let names: FileStoreNames

    /// Opens (creating if needed) the store in `directory`, and removes temporary files that
    /// a crashed writer left behind.
    /// - Parameters:
    ///   - directory: The directory; created with its parents if missing.
    ///   - codec: The files' format; compact JSON by default. Its `Codec.fileExtension` ends
    ///     each file name, so stores with different codecs can share a directory.
    ///   - maximumFileBytes: Largest file read; 64 MiB by default.
    /// - Throws: `RawCodingError` of kind `.storageFailed` if the
    ///   directory cannot be created or locked.
    public init(directory: URL, codec: any Codec = .json, maximumFileBytes: Int = 64 << 20) throws(RawCodingError) {
        self.directory = directory.standardizedFileURL
        self.codec = codec
        self.maximumFileBytes = maximumFileBytes
        path = self.directory.path
        names = FileStoreNames(fileExtension: codec.fileExtension)
        do {
            try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        } catch {
            throw RawCodingError.storage(
                "could not create the directory \(path)", in: FileStore.self, key: nil, underlying: error)
        }
        shared = FileStoreWatcher.shared(for: self.directory.resolvingSymlinksInPath().path)
        try removeLeftoverTemporaryFiles()
    }

    private var lockPath: String { path + "/" + FileStoreNames.lockName }
    private var setAsidePath: String { path + "/" + FileStoreNames.setAsideFolder }

    private func filePath(_ key: String) throws(RawCodingError) -> String {
        path + "/" + (try names.fileName(for: key))
    }

    /// Under the lock no writer is between creating and renaming its temporary file, so every
    /// one present is a crashed writer's.
    private func removeLeftoverTemporaryFiles() throws(RawCodingError) {
        try POSIXFiles.withExclusiveLock(lockPath, key: nil) { () throws(RawCodingError) in
            for name in try POSIXFiles.names(in: path, key: nil) where name.hasPrefix(FileStoreNames.temporaryPrefix) {
                try POSIXFiles.remove(path + "/" + name, key: nil)
            }
        }
    }

    public func read(forKey key: String) throws(RawCodingError) -> StoredValue? {
        let file = try filePath(key)
        guard let data = try POSIXFiles.read(file, key: key, maximumBytes: maximumFileBytes) else { return nil }
        do throws(RawCodingError) {
            return try codec.readTree(from: data)
        } catch {
            throw error.at(key: key)
        }
    }

    public func write(_ value: StoredValue, forKey key: String) throws(RawCodingError) {
        // Not `update`: no need to read and parse the old file to replace it.
        let file = try filePath(key)
        try POSIXFiles.withExclusiveLock(lockPath, key: key) { () throws(RawCodingError) in
            try writeLocked(value, key: key, file: file)
            shared.noteOwnChange(file)
        }
        shared.broadcaster.send(key: key, from: self)
    }

    public func remove(forKey key: String) throws(RawCodingError) {
        let file = try filePath(key)
        let removed = try POSIXFiles.withExclusiveLock(lockPath, key: key) { () throws(RawCodingError) in
            let removed = try POSIXFiles.remove(file, key: key)
            if removed {
                try POSIXFiles.flushDirectory(path, key: key)
                shared.noteOwnChange(file)
            }
            return removed
        }
        if removed { shared.broadcaster.send(key: key, from: self) }
    }

    public func update<Result>(
        forKey key: String, _ body: (inout StoredValue?) throws(RawCodingError) -> Result
    ) throws(RawCodingError) -> Result {
        let file = try filePath(key)
        let (result, changed) = try POSIXFiles.withExclusiveLock(lockPath, key: key) {
            () throws(RawCodingError) -> (Result, Bool) in
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
            shared.noteOwnChange(file)
            return (result, true)
        }
        if changed { shared.broadcaster.send(key: key, from: self) }
        return result
    }

    /// Writes `value` to `file`; the caller holds the lock.
    private func writeLocked(_ value: StoredValue, key: String, file: String) throws(RawCodingError) {
        let data = try fileData(value, key: key)
        let temporary = path + "/" + FileStoreNames.temporaryName()
        try POSIXFiles.writeAtomically(data, to: file, temporaryPath: temporary, directory: path, key: key)
    }

    /// The bytes of `value`'s file, refusing `null` at the top level.
    private func fileData(_ value: StoredValue, key: String) throws(RawCodingError) -> Data {
        if value.isNull {
            throw RawCodingError(
                kind: .encodingFailed, typeName: "FileStore", codingPath: [StoredCodingKey(stringValue: key)],
                reason: "a store cannot hold null at the top level; remove the key instead")
        }
        do throws(RawCodingError) {
            return try codec.writeTree(value)
        } catch {
            throw error.at(key: key)
        }
    }

    public func keys() throws(RawCodingError) -> [String] {
        try POSIXFiles.names(in: path, key: nil).compactMap(names.key(forFileName:)).sorted()
    }

    public func observe(_ handler: @escaping @Sendable (StoreChange) -> Void) -> StoreObservation {
        let observation = shared.broadcaster.add(for: self, handler)
        shared.startWatching()
        return observation
    }

    // MARK: Set-aside payloads, in `.set-aside/` as `<escaped key>@<milliseconds>-<unique>.<extension>`

    public func setAside(forKey key: String) throws(RawCodingError) -> SetAsidePayload? {
        let file = try filePath(key)
        let payload = try POSIXFiles.withExclusiveLock(lockPath, key: key) {
            () throws(RawCodingError) -> SetAsidePayload? in
            let payload = try setAsideLocked(key, file: file)
            if payload != nil {
                try POSIXFiles.flushDirectory(path, key: key)
                shared.noteOwnChange(file)
            }
            return payload
        }
        if payload != nil { shared.broadcaster.send(key: key, from: self) }
        return payload
    }

    /// Moves `file` into `.set-aside/`, byte for byte; the caller holds the lock and flushes
    /// the store's directory.
    private func setAsideLocked(_ key: String, file: String) throws(RawCodingError) -> SetAsidePayload? {
        let date = Date()
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let id = try names.setAsideID(for: key, milliseconds: milliseconds)
        guard let data = try POSIXFiles.read(file, key: key, maximumBytes: .max) else { return nil }
        try POSIXFiles.makeDirectory(setAsidePath, key: key)
        guard try POSIXFiles.move(file, to: setAsidePath + "/" + id, key: key) else { return nil }
        try POSIXFiles.flushDirectory(setAsidePath, key: key)
        return SetAsidePayload(
            id: id, key: key, date: Date(timeIntervalSince1970: Double(milliseconds) / 1000), content: .bytes(data))
    }

    /// Moves a payload just set aside back to `file`; the caller holds the lock.
    private func restore(
        _ payload: SetAsidePayload, to file: String, key: String, after failure: RawCodingError
    ) throws(RawCodingError) {
        do throws(RawCodingError) {
            _ = try POSIXFiles.move(setAsidePath + "/" + payload.id, to: file, key: key)
            try POSIXFiles.flushDirectory(path, key: key)
        } catch {
            throw RawCodingError.storage(
                "the new value could not be written (\(failure.reason)), and the payload set aside as "
                    + "\(payload.id) could not be moved back (\(error.reason)); it is in .set-aside",
                in: FileStore.self, key: key, underlying: error)
        }
    }

    public func replace(_ value: StoredValue?, forKey key: String, settingAside: Bool) throws(RawCodingError)
        -> SetAsidePayload?
    {
        let file = try filePath(key)
        // Encoded before anything moves: a value that cannot be written leaves the old payload.
        let data = try value.map { value throws(RawCodingError) in try fileData(value, key: key) }
        let (payload, changed) = try POSIXFiles.withExclusiveLock(lockPath, key: key) {
            () throws(RawCodingError) -> (SetAsidePayload?, Bool) in
            let payload = settingAside ? try setAsideLocked(key, file: file) : nil
            var changed = payload != nil
            do throws(RawCodingError) {
                if let data {
                    try POSIXFiles.writeAtomically(
                        data, to: file, temporaryPath: path + "/" + FileStoreNames.temporaryName(), directory: path,
                        key: key)
                    changed = true
                } else if try POSIXFiles.remove(file, key: key) {
                    changed = true
                }
            } catch {
                // The write failed: the payload goes back under its key, so neither step happened.
                if let payload { try restore(payload, to: file, key: key, after: error) }
                throw error
            }
            if changed {
                try POSIXFiles.flushDirectory(path, key: key)
                shared.noteOwnChange(file)
            }
            return (payload, changed)
        }
        if changed { shared.broadcaster.send(key: key, from: self) }
        return payload
    }

    public func setAsidePayloads() throws(RawCodingError) -> [SetAsidePayload] {
        var payloads: [SetAsidePayload] = []
        for id in try POSIXFiles.names(in: setAsidePath, key: nil).sorted() {
            // Payloads of stores with other codecs in the directory are theirs.
            guard let (key, milliseconds) = names.setAside(id: id),
                let data = try POSIXFiles.read(setAsidePath + "/" + id, key: key, maximumBytes: .max)
            else { continue }
            payloads.append(
                SetAsidePayload(
                    id: id, key: key, date: Date(timeIntervalSince1970: Double(milliseconds) / 1000),
                    content: .bytes(data)))
        }
        return payloads.sorted { ($0.date, $0.id) < ($1.date, $1.id) }
    }

    public func discardSetAside(_ id: String) throws(RawCodingError) {
        guard !id.contains("/"), names.setAside(id: id) != nil else {
            throw RawCodingError.storage("\"\(id)\" is not a set-aside payload's id", in: FileStore.self, key: nil)
        }
        try POSIXFiles.remove(setAsidePath + "/" + id, key: nil)
    }
}
