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
          --max-values N     most values (default 134217728)
          --max-expansion N  values per input byte a binary plist's shared
                             containers may expand to, past 65536 (default 1)

        JSON inputs over 16 MiB go to binary property lists without building the whole tree
        first, in a layout that differs from the library's canonical one (4-byte references,
        dictionary keys in the input's order), with the same values.

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
        var mapping = FormatMapping()
        var bytes: [UInt8]
        if target == .binary, data.count > streamingThreshold, source.format(for: data) is JSONTreeFormat {
            bytes = try streamToBinary(data, path: input, limits: limits, mapping: &mapping, restore: restore)
        } else {
            let read = try Document.tree(data, path: input, from: source, limits: limits)
            let tree: StoredValue
            do {
                tree = try mapping.map(read.tree, to: target, restoring: restore)
            } catch {
                throw .input("\(Document.display(input)): \(error.description)")
            }
            bytes = try write(tree, as: target, limits: limits, name: input)
        }
        if target == .jsonPretty { bytes.append(UInt8(ascii: "\n")) }
        for note in mapping.notes { io.message("rawcoding: \(note)") }
        do {
            try io.write(bytes, output)
        } catch {
            throw .input("\(output): cannot write: \((error as NSError).localizedDescription)")
        }
        return 0
    }

    /// JSON inputs larger than this go to binary property lists without a tree in between, so
    /// memory stays within a few times the input (the tree of a large JSON document of numbers
    /// takes about ten times its text).
    static let streamingThreshold = 16 << 20

    /// JSON to a binary property list through ``JSONToBinaryPropertyList``: the same values,
    /// mapped the same way, in the streaming writer's layout.
    static func streamToBinary(
        _ data: Data, path: String, limits: Limits, mapping: inout FormatMapping, restore: FormatMapping.Restore
    ) throws(ToolFailure) -> [UInt8] {
        var local = mapping
        defer { mapping = local }
        do {
            return try JSONToBinaryPropertyList.convert(data, limits: limits) { value, place in
                try local.scalar(value, to: .binary, restore: restore, path: place)
            }
        } catch let failure as FormatFailure {
            guard RawCodingError(failure, subject: StoredValue.self).position != nil else {
                throw .input(writeFailure(failure, name: path, format: BinaryPropertyListTreeFormat()))
            }
            throw .input(Document.errorLine(path: path, format: JSONTreeFormat(), failure: failure))
        } catch let failure as ToolFailure {
            throw .input("\(Document.display(path)): \(failure.description)")
        } catch {
            throw .input("\(Document.display(path)): \(error)")
        }
    }

    /// `FILE: a <format> cannot hold the value at <path>: <reason>`.
    static func writeFailure(_ failure: FormatFailure, name: String, format: any TreeFormat) -> String {
        let error = RawCodingError(failure, subject: StoredValue.self)
        let place = error.codingPath.isEmpty ? "" : " at \(Document.shortPath(error))"
        return "\(Document.display(name)): the \(format.formatName) cannot hold the value\(place): \(error.reason)"
    }

    /// `tree` in `format`; what the format cannot hold is an input error naming its path.
    static func write(_ tree: StoredValue, as format: OutputFormat, limits: Limits, name: String) throws(ToolFailure)
        -> [UInt8]
    {
        do {
            return try format.treeFormat.writeTree(tree, limits: limits, loss: .allow)
        } catch {
            throw .input(writeFailure(error, name: name, format: format.treeFormat))
        }
    }
}

/// The progress line: inputs over about 50 MB get one on standard error when it is a terminal.
package enum LargeInputNotice {
    package static let threshold = 50_000_000

    package static func announce(bytes: Int, path: String, io: ToolIO) {
        guard bytes > threshold, io.messagesGoToTerminal else { return }
        io.message("rawcoding: reading \(Document.display(path)) (\(bytes / 1_000_000) MB)…")
    }
}
