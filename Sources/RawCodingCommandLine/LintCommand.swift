import Foundation
import RawCoding

/// `rawcoding lint FILE...`: one line per file, exit 0 when every file is valid.
enum LintCommand {
    static let help = """
        usage: rawcoding lint FILE... [--from FORMAT] [limits]

        Checks that each FILE (or - for standard input) is a valid JSON document, XML property
        list or binary property list, and prints one line per file:

          FILE: OK
          FILE: <format> error at <line:column (byte offset N) | byte offset N>: <reason>

        Exit status: 0 when every file is valid, 1 otherwise.

        options:
          --from FORMAT      auto (the default, from the bytes), json, xml, binary or openstep
          --max-bytes N, --max-depth N, --max-values N, --max-expansion N   as for convert
        """

    static func run(_ arguments: [String], io: ToolIO) throws(ToolFailure) -> Int32 {
        let parsed = try Arguments(
            arguments, valued: Set(["--from"]).union(ToolLimits.options), flags: [], command: "lint")
        guard !parsed.positional.isEmpty else {
            throw .usage("lint needs at least one FILE; see rawcoding lint --help")
        }
        let source = try InputFormat.read(parsed.values["--from"])
        let limits = try ToolLimits.read(parsed)
        var status: Int32 = 0
        var lines: [String] = []
        for path in parsed.positional {
            do throws(ToolFailure) {
                try check(path, from: source, limits: limits, io: io)
                lines.append("\(Document.display(path)): OK")
            } catch {
                lines.append(error.description)
                status = 1
            }
        }
        do {
            try io.write(Array((lines.joined(separator: "\n") + "\n").utf8), "-")
        } catch {
            throw .input("cannot write the results: \(error)")
        }
        return status
    }

    /// Checks one file (`rawcoding lint`, `plutil -lint`): JSON the scan takes is valid without
    /// a tree; anything else is read whole, for its message.
    /// - Throws: The file's error line.
    static func check(_ path: String, from source: InputFormat, limits: Limits, io: ToolIO) throws(ToolFailure) {
        let data = try Document.bytes(of: path, io: io)
        let json = source.format(for: data, path: path) as? JSONTreeFormat
        if json?.acceptsWithoutTree(data, limits: limits) != true {
            _ = try Document.tree(data, path: path, from: source, limits: limits)
        }
    }
}
