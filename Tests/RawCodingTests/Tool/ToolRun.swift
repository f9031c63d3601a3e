import Foundation
import RawCoding
import RawCodingCommandLine

/// One run of the tool in process, with in-memory files: what it printed and returned.
struct ToolRun {
    var status: Int32
    var output: Data
    var messages: [String]
    var files: [String: Data]

    var outputText: String { String(decoding: output, as: UTF8.self) }
    var messagesText: String { messages.map { $0 + "\n" }.joined() }

    /// Runs `arguments`, as the program `name`; `files` are readable by path (`-` is `input`),
    /// real files under the package's `Fixtures/` too.
    static func run(
        _ arguments: [String], files: [String: Data] = [:], input: Data = Data(), name: String = "rawcoding"
    ) -> ToolRun {
        final class Box: @unchecked Sendable {
            var output = Data()
            var messages: [String] = []
            var files: [String: Data] = [:]
        }
        let box = Box()
        box.files = files
        let io = ToolIO(
            read: { path in
                if path == "-" { return input }
                if let data = box.files[path] { return data }
                return try Data(contentsOf: URL(fileURLWithPath: path))
            },
            write: { bytes, path in
                if path == "-" { box.output.append(contentsOf: bytes) } else { box.files[path] = Data(bytes) }
            },
            message: { box.messages.append($0) }, messagesGoToTerminal: false)
        let status = Tool.run(arguments, io: io, name: name)
        return ToolRun(status: status, output: box.output, messages: box.messages, files: box.files)
    }
}
