import Foundation
import RawCoding

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The permissions a store gives the files and directories it creates: owner-only by default,
/// since stored settings often hold tokens, and a server's other users should not read them.
///
/// A store sets exactly these bits on what it creates (the process's `umask` does not remove
/// any), and leaves the permissions of files and directories that already exist as they are: a
/// rewritten file keeps the mode it had.
///
/// ```swift
/// let store = try FileStore(directory: folder, permissions: StoreFilePermissions(files: 0o640, directories: 0o750))
/// ```
public struct StoreFilePermissions: Hashable, Sendable, CustomStringConvertible {
    /// The mode of a new file, such as `0o600`.
    public var files: UInt16
    /// The mode of a new directory, such as `0o700`.
    public var directories: UInt16

    /// Permissions with the given modes (the low 12 bits of each are used).
    /// - Parameters:
    ///   - files: The mode of a new file.
    ///   - directories: The mode of a new directory.
    public init(files: UInt16, directories: UInt16) {
        self.files = files & 0o7777
        self.directories = directories & 0o7777
    }

    /// Files `0600` and directories `0700`: only the owner reads or writes. The default.
    public static let ownerOnly = StoreFilePermissions(files: 0o600, directories: 0o700)

    public var description: String {
        "files " + String(files, radix: 8) + ", directories " + String(directories, radix: 8)
    }

    /// Creates the file `path` with exactly ``files`` as its mode, whatever the `umask`, and
    /// returns its open descriptor (read and write); `nil` when `path` exists, which is left as
    /// it is, with its mode.
    /// - Throws: `RawCodingError` of kind `.storageFailed`, in `store`, when it cannot be made.
    package func createFile(_ path: String, in store: Any.Type, key: String?) throws(RawCodingError) -> Int32? {
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(files))
        guard descriptor >= 0 else {
            if errno == EEXIST { return nil }
            throw POSIXFiles.failure("create", path, key: key, in: store)
        }
        guard fchmod(descriptor, mode_t(files)) == 0 else {
            let code = errno
            close(descriptor)
            unlink(path)
            throw POSIXFiles.failure("set the permissions of", path, key: key, code: code, in: store)
        }
        return descriptor
    }
}
