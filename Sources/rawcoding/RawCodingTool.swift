import Foundation
import RawCodingCommandLine

/// `rawcoding`: the command-line tool. Its logic is in `RawCodingCommandLine`.
@main
struct RawCodingTool {
    static func main() {
        exit(Tool.run(Array(CommandLine.arguments.dropFirst()), io: .process))
    }
}
