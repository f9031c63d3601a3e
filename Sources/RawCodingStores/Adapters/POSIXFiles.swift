import Foundation
import RawCoding

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file operations ``FileStore`` needs, on file descriptors, with `errno` turned into
/// `RawCodingError` of kind `.storageFailed`.
enum POSIXFiles {
    /// What identifies one version of a file: a rename gives a new inode, a rewrite a new time.
    struct Signature: Hashable {
        var inode: UInt64
        var size: Int64
        var seconds: Int
        var nanoseconds: Int
    }

    static func failure(
        _ action: String, _ path: String, key: String?, code: Int32 = errno, in store: Any.Type = FileStore.self
    ) -> RawCodingError {
        .storage(
            "could not \(action) \(path): \(String(cString: strerror(code))) (errno \(code))", in: store, key: key)
    }

    /// Runs `body` holding an exclusive `flock` on `lockPath`, which is created with
    /// `permissions` if missing. Each call opens its own descriptor, so threads of one process
    /// exclude each other too.
    static func withExclusiveLock<Result>(
        _ lockPath: String, permissions: StoreFilePermissions, key: String?, _ body: () throws(RawCodingError) -> Result
    ) throws(RawCodingError) -> Result {
        var descriptor = open(lockPath, O_RDWR | O_CLOEXEC)
        if descriptor < 0 && errno == ENOENT {
            descriptor =
                try permissions.createFile(lockPath, in: FileStore.self, key: key)
                ?? open(lockPath, O_RDWR | O_CLOEXEC)
        }
        guard descriptor >= 0 else { throw failure("open the lock file", lockPath, key: key) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure("lock", lockPath, key: key) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// The file's bytes, or `nil` if it does not exist.
    static func read(_ path: String, key: String?, maximumBytes: Int) throws(RawCodingError) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("open", path, key: key)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("inspect", path, key: key) }
        let size = Int(status.st_size)
        guard size <= maximumBytes else {
            throw RawCodingError(
                kind: .limitExceeded, typeName: "FileStore",
                codingPath: key.map { [StoredCodingKey(stringValue: $0)] } ?? [],
                reason: "\(path) is \(size) bytes, over the store's maximumFileBytes of \(maximumBytes); "
                    + "it was not read and is left as it is")
        }
        var data = Data(count: size)
        var filled = 0
        while filled < size {
            let count = data.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress! + filled, size - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read", path, key: key)
            }
            if count == 0 { break }  // shrank while reading: a writer that does not rename
            filled += count
        }
        return data.prefix(filled)
    }

    /// Writes `data` to `path` so that a crash at any moment leaves either the old file or
    /// the new one: a temporary file in the same directory, flushed, renamed over `path`, and
    /// the directory flushed. The new file has the mode of the file it replaces, or
    /// `permissions.files` when there is none.
    static func writeAtomically(
        _ data: Data, to path: String, temporaryPath: String, directory: String, permissions: StoreFilePermissions,
        key: String?
    ) throws(RawCodingError) {
        var existing = stat()
        var permissions = permissions
        if stat(path, &existing) == 0 { permissions.files = UInt16(existing.st_mode & 0o7777) }
        guard let descriptor = try permissions.createFile(temporaryPath, in: FileStore.self, key: key)
        else { throw failure("create", temporaryPath, key: key, code: EEXIST) }
        var closed = false
        defer { if !closed { close(descriptor) } }
        do throws(RawCodingError) {
            let writeError = data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int32? in
                var written = 0
                while written < buffer.count {
                    let count = systemWrite(descriptor, buffer.baseAddress! + written, buffer.count - written)
                    if count < 0 {
                        if errno == EINTR { continue }
                        return errno
                    }
                    written += count
                }
                return nil
            }
            if let writeError { throw failure("write", temporaryPath, key: key, code: writeError) }
            guard fsync(descriptor) == 0 else { throw failure("flush", temporaryPath, key: key) }
            closed = true
            guard close(descriptor) == 0 else { throw failure("close", temporaryPath, key: key) }
            guard rename(temporaryPath, path) == 0 else { throw failure("rename over", path, key: key) }
        } catch {
            unlink(temporaryPath)
            throw error
        }
        try flushDirectory(directory, key: key)
    }

    static func flushDirectory(_ directory: String, key: String?) throws(RawCodingError) {
        let descriptor = open(directory, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open the directory", directory, key: key) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("flush the directory", directory, key: key) }
    }

    /// Removes `path`; whether it existed.
    @discardableResult
    static func remove(_ path: String, key: String?) throws(RawCodingError) -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw failure("remove", path, key: key)
    }

    /// Renames `from` to `to`; whether `from` existed.
    static func move(_ from: String, to: String, key: String?) throws(RawCodingError) -> Bool {
        if rename(from, to) == 0 { return true }
        if errno == ENOENT { return false }
        throw failure("move \(from) to", to, key: key)
    }

    /// Creates the directory `path`, with its missing parents, each with exactly
    /// `permissions.directories`; existing directories keep theirs.
    static func makeDirectories(_ path: String, permissions: StoreFilePermissions, key: String?) throws(RawCodingError)
    {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != path { try makeDirectories(parent, permissions: permissions, key: key) }
        try makeDirectory(path, permissions: permissions, key: key)
    }

    /// Creates the directory `path` with exactly `permissions.directories` if it is missing.
    static func makeDirectory(_ path: String, permissions: StoreFilePermissions, key: String?) throws(RawCodingError) {
        let mode = mode_t(permissions.directories)
        if mkdir(path, mode) != 0 {
            if errno == EEXIST { return }
            throw failure("create the directory", path, key: key)
        }
        guard chmod(path, mode) == 0 else { throw failure("set the permissions of", path, key: key) }
    }

    /// The names in `directory` (without `.` and `..`).
    static func names(in directory: String, key: String?) throws(RawCodingError) -> [String] {
        guard let stream = opendir(directory) else {
            if errno == ENOENT { return [] }
            throw failure("list", directory, key: key)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { buffer in
                String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The file's signature, or `nil` if it does not exist.
    static func signature(_ path: String) -> Signature? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        #if canImport(Darwin)
            let time = status.st_mtimespec
        #else
            let time = status.st_mtim
        #endif
        return Signature(
            inode: UInt64(status.st_ino), size: Int64(status.st_size), seconds: Int(time.tv_sec),
            nanoseconds: Int(time.tv_nsec))
    }
}

// `read` and `write` are shadowed by methods of the store types; these name the C functions.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
