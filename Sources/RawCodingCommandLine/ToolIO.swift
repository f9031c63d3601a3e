import Foundation

/// What a command reads and writes, so the commands run the same in tests as in a terminal.
package struct ToolIO {
    /// Reads a file's bytes; `-` is standard input.
    package var read: (String) throws -> Data
    /// Writes a file's bytes (atomically: a temporary file renamed over it); `-` is standard
    /// output. Bytes, not `Data`, so a large output is never copied.
    package var write: ([UInt8], String) throws -> Void
    /// Writes a message line to standard error.
    package var message: (String) -> Void
    /// Whether standard error is a terminal (for the progress line).
    package var messagesGoToTerminal: Bool

    package init(
        read: @escaping (String) throws -> Data, write: @escaping ([UInt8], String) throws -> Void,
        message: @escaping (String) -> Void, messagesGoToTerminal: Bool
    ) {
        self.read = read
        self.write = write
        self.message = message
        self.messagesGoToTerminal = messagesGoToTerminal
    }

    /// The process's files and standard streams.
    package static var process: ToolIO {
        ToolIO(
            read: { path in
                if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
                return try Data(contentsOf: URL(fileURLWithPath: path))
            },
            write: { bytes, path in
                if path == "-" { return try FileHandle.standardOutput.write(contentsOf: bytes) }
                try writeAtomically(bytes, to: URL(fileURLWithPath: path))
            },
            message: { line in FileHandle.standardError.write(Data((line + "\n").utf8)) },
            messagesGoToTerminal: isatty(STDERR_FILENO) == 1)
    }
}

extension ToolIO {
    /// Writes `bytes` to a temporary file beside `target`, flushes it and renames it over
    /// `target`, so a reader sees the old file or the new one, never part of one.
    static func writeAtomically(_ bytes: [UInt8], to target: URL) throws {
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).rawcoding-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            let written = Result { () throws -> Void in
                try handle.write(contentsOf: bytes)
                try handle.synchronize()
            }
            try handle.close()
            try written.get()
            // rename(2) replaces the target in one step (FileManager.replaceItemAt removes it
            // first on Linux, and fails when it does not exist).
            guard rename(temporary.path, target.path) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
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
