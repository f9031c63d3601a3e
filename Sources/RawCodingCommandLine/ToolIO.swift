import Foundation

/// What a command reads and writes, so the commands run the same in tests as in a terminal.
package struct ToolIO {
    /// Reads a file's bytes; `-` is standard input.
    package var read: (String) throws -> Data
    /// Writes a file's bytes (atomically); `-` is standard output.
    package var write: (Data, String) throws -> Void
    /// Writes a message line to standard error.
    package var message: (String) -> Void
    /// Whether standard error is a terminal (for the progress line).
    package var messagesGoToTerminal: Bool

    package init(
        read: @escaping (String) throws -> Data, write: @escaping (Data, String) throws -> Void,
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
            write: { data, path in
                if path == "-" {
                    FileHandle.standardOutput.write(data)
                } else {
                    try data.write(to: URL(fileURLWithPath: path), options: .atomic)
                }
            },
            message: { line in FileHandle.standardError.write(Data((line + "\n").utf8)) },
            messagesGoToTerminal: isatty(STDERR_FILENO) == 1)
    }
}

/// A failure that ends a command: bad input (exit 1) or bad usage (exit 2).
package struct ToolFailure: Error, CustomStringConvertible {
    package var description: String
    package var exitCode: Int32

    static func input(_ message: String) -> ToolFailure { ToolFailure(description: message, exitCode: 1) }
    static func usage(_ message: String) -> ToolFailure { ToolFailure(description: message, exitCode: 2) }
}
