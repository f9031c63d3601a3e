import Foundation
import RawCodingCommandLine

/// `rawcoding`: the command-line tool. Its logic is in `RawCodingCommandLine`.
@main
struct RawCodingTool {
    static func main() {
        let name = URL(fileURLWithPath: CommandLine.arguments.first ?? "rawcoding").lastPathComponent
        exit(Tool.run(Array(CommandLine.arguments.dropFirst()), io: .process, name: name))
    }
}
