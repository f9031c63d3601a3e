import Foundation
import RawCoding

/// `rawcoding convert INPUT --to FORMAT [--from FORMAT] [-o OUTPUT] [--restore dates,data]`.
enum ConvertCommand {
    static let help = """
        usage: rawcoding convert INPUT --to json|json-pretty|xml|binary [options]

        Converts INPUT (a file, or - for standard input) between JSON, XML property lists and
        binary property lists. The input format is detected from its bytes unless --from says.

        options:
          --to FORMAT        json (compact), json-pretty, xml or binary
          --from FORMAT      auto (the default), json, xml or binary
          -o, --output FILE  where to write (default: - , standard output)
          --restore KINDS    into a property list, read ISO 8601 strings back as dates (dates)
                             and data URLs as data (data): --restore dates,data
          --max-bytes N      largest input (default 4G; K, M, G suffixes)
          --max-depth N      deepest nesting (default 512)
          --max-values N     most values (default 2147483648)

        Mapping: in JSON a date is ISO 8601 text in UTC with every fractional digit it needs,
        and data is Base64 text in a data URL (data:;base64,AP8Q); each such change is noted on
        standard error, as is a real with a whole value, which JSON writes as an integer. JSON null cannot
        go into a property list: it is an error naming its path. XML property lists keep whole
        seconds only: a dropped fraction is noted.
        """

    static func run(_ arguments: [String], io: ToolIO) throws(ToolFailure) -> Int32 {
        let parsed = try Arguments(
            arguments, valued: Set(["--to", "--from", "-o", "--output", "--restore"]).union(ToolLimits.options),
            flags: [],
            command: "convert")
        guard parsed.positional.count == 1 else {
            throw .usage(
                parsed.positional.isEmpty
                    ? "convert needs an INPUT file (or - for standard input); see rawcoding convert --help"
                    : "convert takes one INPUT, not \(parsed.positional.count); see rawcoding convert --help")
        }
        let input = parsed.positional[0]
        let output = parsed.values["-o"] ?? parsed.values["--output"] ?? "-"
        let target = try OutputFormat.read(parsed.values["--to"], default: nil)
        let source = try InputFormat.read(parsed.values["--from"])
        let restore = try FormatMapping.Restore.read(parsed.values["--restore"])
        let limits = try ToolLimits.read(parsed)

        let data = try Document.bytes(of: input, io: io)
        Progress.announce(bytes: data.count, path: input, io: io)
        let read = try Document.tree(data, path: input, from: source, limits: limits)
        var mapping = FormatMapping()
        let tree: StoredValue
        do {
            tree = try mapping.map(read.tree, to: target, restoring: restore)
        } catch {
            throw .input("\(Document.display(input)): \(error.description)")
        }
        var bytes = try write(tree, as: target, limits: limits, name: input)
        if target == .jsonPretty { bytes.append(UInt8(ascii: "\n")) }
        for note in mapping.notes { io.message("rawcoding: \(note)") }
        do {
            try io.write(Data(bytes), output)
        } catch {
            throw .input("\(output): cannot write: \((error as NSError).localizedDescription)")
        }
        return 0
    }

    /// `tree` in `format`; what the format cannot hold is an input error naming its path.
    static func write(_ tree: StoredValue, as format: OutputFormat, limits: Limits, name: String) throws(ToolFailure)
        -> [UInt8]
    {
        do {
            return try format.treeFormat.writeTree(tree, limits: limits, allowingLoss: true)
        } catch {
            throw .input("\(Document.display(name)): \(RawCodingError(error, subject: StoredValue.self))")
        }
    }
}

/// The progress line: inputs over about 50 MB get one on standard error when it is a terminal.
enum Progress {
    static let threshold = 50_000_000

    static func announce(bytes: Int, path: String, io: ToolIO) {
        guard bytes > threshold, io.messagesGoToTerminal else { return }
        io.message("rawcoding: reading \(Document.display(path)) (\(bytes / 1_000_000) MB)…")
    }
}
