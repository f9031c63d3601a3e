import Foundation

/// What a command reads and writes, so the commands run the same in tests as in a terminal.
package struct ToolIO {
    /// Reads a file's bytes; `-` is standard input.
    package var read: (String) throws -> Data
    /// Writes a file's bytes (atomically: a temporary file renamed over it); `-` is standard
    /// output. Bytes, not `Data`, so a large output is never copied.
    package var write: ([UInt8], String) throws -> Void
    /// Writes a file from pieces as `produce` hands them to its argument, and only when
    /// `produce` returns `true`; when it returns `false` or throws, the target is left as it
    /// was. Returns what `produce` returned. The process writes a file's pieces to the
    /// temporary file as they come (so a large output is never held whole) and renames it as
    /// `write` does, on a thread of its own, so the next piece is made while the last one is
    /// copied into the file; standard output, and an IO made without it, get the whole output through
    /// `write` at the end, so a failure never leaves part of a document there either.
    package var writePieces: (String, (_ emit: ([UInt8]) throws -> Void) throws -> Bool) throws -> Bool
    /// Writes a message line to standard error.
    package var message: (String) -> Void
    /// Whether standard error is a terminal (for the progress line).
    package var messagesGoToTerminal: Bool

    package init(
        read: @escaping (String) throws -> Data, write: @escaping ([UInt8], String) throws -> Void,
        writePieces: ((String, (_ emit: ([UInt8]) throws -> Void) throws -> Bool) throws -> Bool)? = nil,
        message: @escaping (String) -> Void, messagesGoToTerminal: Bool
    ) {
        self.read = read
        self.write = write
        self.writePieces = writePieces ?? { path, produce in try Self.collecting(path, produce, write: write) }
        self.message = message
        self.messagesGoToTerminal = messagesGoToTerminal
    }

    /// `writePieces` through `write`: the pieces collected, written once `produce` succeeds.
    static func collecting(
        _ path: String, _ produce: (_ emit: ([UInt8]) throws -> Void) throws -> Bool,
        write: ([UInt8], String) throws -> Void
    ) throws -> Bool {
        var whole: [UInt8] = []
        guard try produce({ whole.append(contentsOf: $0) }) else { return false }
        try write(whole, path)
        return true
    }

    /// The process's files and standard streams.
    package static var process: ToolIO {
        ToolIO(
            read: { path in
                if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
                return try FileReading.contents(of: path)
            },
            write: { bytes, path in
                if path == "-" { return try FileHandle.standardOutput.write(contentsOf: bytes) }
                try writeAtomically(to: URL(fileURLWithPath: path)) { handle in
                    try handle.write(contentsOf: bytes)
                    return true
                }
            },
            writePieces: { path, produce in
                if path == "-" {
                    return try collecting(path, produce) { bytes, _ in
                        try FileHandle.standardOutput.write(contentsOf: bytes)
                    }
                }
                return try writeAtomically(to: URL(fileURLWithPath: path)) { handle in
                    try PieceWriter.writing(to: handle, produce)
                }
            },
            message: { line in FileHandle.standardError.write(Data((line + "\n").utf8)) },
            messagesGoToTerminal: isatty(STDERR_FILENO) == 1)
    }
}

extension ToolIO {
    /// Writes a temporary file beside `target` with `fill`, flushes it and renames it over
    /// `target` (with `target`'s permissions, when it exists), so a reader sees the old file or
    /// the new one, never part of one. When `fill`
    /// returns `false` or throws, the temporary file is removed and `target` left as it was.
    @discardableResult
    static func writeAtomically(to target: URL, fill: (FileHandle) throws -> Bool) throws -> Bool {
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).rawcoding-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        do {
            // A file edited in place keeps its permissions (a 0600 file stays private).
            var existing = stat()
            if stat(target.path, &existing) == 0, chmod(temporary.path, existing.st_mode & 0o7777) != 0 {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPERM)
            }
            let handle = try FileHandle(forWritingTo: temporary)
            let written = Result { () throws -> Bool in
                guard try fill(handle) else { return false }
                try handle.synchronize()
                return true
            }
            try handle.close()
            guard try written.get() else {
                try FileManager.default.removeItem(at: temporary)
                return false
            }
            // rename(2) replaces the target in one step (FileManager.replaceItemAt removes it
            // first on Linux, and fails when it does not exist).
            guard rename(temporary.path, target.path) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            return true
        } catch {
            do {
                try FileManager.default.removeItem(at: temporary)
            } catch let cleanup {
                throw CocoaError(
                    .fileWriteUnknown,
                    userInfo: [
                        NSUnderlyingErrorKey: error,
                        NSLocalizedDescriptionKey:
                            "\(error); and the temporary file \(temporary.path) could not be removed: \(cleanup)",
                    ])
            }
            throw error
        }
    }
}

/// A failure that ends a command: bad input (exit 1) or bad usage (exit 2).
package struct ToolFailure: Error, CustomStringConvertible {
    package var description: String
    package var exitCode: Int32

    static func input(_ message: String) -> ToolFailure { ToolFailure(description: message, exitCode: 1) }
    static func usage(_ message: String) -> ToolFailure { ToolFailure(description: message, exitCode: 2) }
}

/// Writes the pieces of a file on a dispatch queue of its own, in order, while the caller makes
/// the next ones: the copy into the file takes the other core instead of adding to the time.
/// At most ``room`` pieces wait at once, so memory stays bounded when writing is slower.
package final class PieceWriter: @unchecked Sendable {
    static let room = 4
    private let handle: FileHandle
    private let queue = DispatchQueue(label: "rawcoding.pieces")
    private let waiting = DispatchSemaphore(value: PieceWriter.room)
    /// The first failure to write; read and written on `queue` only.
    private var failure: (any Error)?

    private init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// Runs `produce` with a function that writes a piece to `handle`, and waits until every
    /// piece is written. Throws what `produce` threw, else the first failure to write (after
    /// which later pieces are dropped, and the next piece handed over throws it).
    package static func writing<Result>(
        to handle: FileHandle, _ produce: (_ emit: ([UInt8]) throws -> Void) throws -> Result
    ) throws -> Result {
        let writer = PieceWriter(handle)
        let produced = Swift.Result { try produce(writer.enqueue) }
        let failure = writer.queue.sync { writer.failure }
        let result = try produced.get()
        if let failure { throw failure }
        return result
    }

    private func enqueue(_ piece: [UInt8]) throws {
        if let failure = queue.sync(execute: { failure }) { throw failure }
        waiting.wait()
        queue.async {
            defer { self.waiting.signal() }
            guard self.failure == nil else { return }
            do {
                try self.handle.write(contentsOf: piece)
            } catch {
                self.failure = error
            }
        }
    }
}
