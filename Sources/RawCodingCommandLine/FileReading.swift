import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads whole files into memory the kernel can back with large pages.
///
/// A large input read into ordinary memory costs one page fault per 4 KiB page touched (a
/// 50 MB document: about 12,800, a fifth of `rawcoding lint`'s time on it). Linux backs memory
/// marked `MADV_HUGEPAGE` with 2 MiB pages where it can, so the same read faults a few dozen
/// times. Elsewhere (without Glibc), and for small files, it reads the way Foundation does.
enum FileReading {
    /// Files from this size are read into large-page memory.
    static let largeFile = 8 << 20

    /// The bytes of the file at `path`.
    /// - Throws: What opening or reading it throws (a `POSIXError` or Foundation's error).
    static func contents(of path: String) throws -> Data {
        #if canImport(Glibc)
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return try Data(contentsOf: URL(fileURLWithPath: path)) }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size >= largeFile
            else { return try Data(contentsOf: URL(fileURLWithPath: path)) }
            return try read(descriptor, expected: Int(status.st_size))
        #else
            return try Data(contentsOf: URL(fileURLWithPath: path))
        #endif
    }

    #if canImport(Glibc)
        /// Reads `descriptor` to its end (which may differ from `expected`, the size it had when
        /// it was opened: a file can change while it is read).
        private static func read(_ descriptor: Int32, expected: Int) throws -> Data {
            let pageSize = 2 << 20
            var capacity = (expected + 1 + pageSize - 1) / pageSize * pageSize
            var start: UnsafeMutableRawPointer?
            guard posix_memalign(&start, pageSize, capacity) == 0, var buffer = start else {
                throw POSIXError(.ENOMEM)
            }
            _ = madvise(buffer, capacity, MADV_HUGEPAGE)  // advice only: ordinary pages otherwise
            var count = 0
            while true {
                if count == capacity {
                    capacity *= 2
                    guard let grown = realloc(buffer, capacity) else {
                        free(buffer)
                        throw POSIXError(.ENOMEM)
                    }
                    buffer = grown
                }
                let read = Glibc.read(descriptor, buffer + count, capacity - count)
                if read == 0 { break }
                if read < 0 {
                    if errno == EINTR { continue }
                    let code = POSIXErrorCode(rawValue: errno) ?? .EIO
                    free(buffer)
                    throw POSIXError(code)
                }
                count += read
            }
            return Data(bytesNoCopy: buffer, count: count, deallocator: .free)
        }
    #endif
}
