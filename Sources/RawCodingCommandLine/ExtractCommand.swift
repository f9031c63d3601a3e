import Foundation
import RawCoding

/// `rawcoding extract KEYPATH FILE [--to FORMAT]`: one value of a document.
enum ExtractCommand {
    static let help = """
        usage: rawcoding extract KEYPATH FILE [--to FORMAT] [--expect TYPE] [--from FORMAT] [limits]

        Prints the value at KEYPATH in FILE (or - for standard input). A key path is keys
        separated by dots, with [N] or .N for array elements: settings.links[1].url or
        settings.links.1.url. Write a key that holds dots or brackets as ["a.b"]. An empty key
        path is the whole document.

        options:
          --to FORMAT        json, json-pretty (the default), xml, binary, or raw: a string as
                             it is, a number or Boolean as text, a date in RFC 3339 (UTC), data
                             in Base64, a dictionary's keys one per line, an array's count
          --expect TYPE      fail unless the value is of TYPE: bool, integer, float, string,
                             date, data, dictionary or array (the names rawcoding type prints)
          --from FORMAT      auto (the default, from the bytes), json, xml, binary or openstep
          --restore KINDS    as for convert
          --max-bytes N, --max-depth N, --max-values N, --max-expansion N   as for convert
        """

    static func run(_ arguments: [String], io: ToolIO) throws(ToolFailure) -> Int32 {
        let parsed = try Arguments(
            arguments, valued: Set(["--to", "--from", "--restore", "--expect"]).union(ToolLimits.options), flags: [],
            command: "extract")
        guard parsed.positional.count == 2 else {
            throw .usage("extract takes a KEYPATH and a FILE; see rawcoding extract --help")
        }
        let (keyPath, path) = (parsed.positional[0], parsed.positional[1])
        let steps = try KeyPath.parse(keyPath, command: "extract")
        let raw = parsed.values["--to"] == "raw"
        let target = raw ? .jsonPretty : try OutputFormat.read(parsed.values["--to"], default: .jsonPretty, raw: true)
        let restore = try FormatMapping.Restore.read(parsed.values["--restore"])
        let limits = try ToolLimits.read(parsed)
        let data = try Document.bytes(of: path, io: io)
        let read = try Document.tree(
            data, path: path, from: try InputFormat.read(parsed.values["--from"]), limits: limits)
        let value = try KeyPath.value(at: steps, in: read.tree, file: path)
        try expect(parsed.values["--expect"], of: value, at: steps, option: "--expect", file: path)
        if raw {
            try Document.write(Array((ValueText.raw(value) + "\n").utf8), to: "-", io: io)
        } else {
            try EditedDocument.write(
                value, as: target, to: "-", name: path, restoring: restore, under: steps, limits: limits, io: io)
        }
        return 0
    }

    /// Checks `--expect` (plutil's `-expect`): the value's type name must be `expected`.
    static func expect(
        _ expected: String?, of value: StoredValue, at steps: [KeyPathStep], option: String, file: String
    ) throws(ToolFailure) {
        guard let expected else { return }
        guard ValueText.Kind.expectable.contains(where: { $0.rawValue == expected }) else {
            let names = ValueText.Kind.expectable.map(\.rawValue).joined(separator: ", ")
            throw .usage("\(option) takes one of \(names), not \(expected)")
        }
        let actual = ValueText.typeName(value)
        guard actual == expected else {
            throw .input(
                "\(Document.display(file)): the value at \(KeyPath.render(steps)) is \(KeyPath.article(actual)) \(actual), not \(KeyPath.article(expected)) \(expected) (\(option) \(expected))"
            )
        }
    }
}
