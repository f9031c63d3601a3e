import Foundation
import RawCoding

/// `rawcoding insert`, `replace`, `remove`, `create` and `type`: plutil's editing verbs in the
/// style of `convert` and `extract`. An edited file is written whole to a temporary file
/// beside it, flushed and renamed over it, so an interrupted edit leaves the old file or the
/// new one, never part of one.
enum EditCommand {
    enum Verb: String {
        case insert, replace, remove
    }

    static func help(_ verb: Verb) -> String {
        let valued = verb == .remove ? "" : " --type TYPE [--value VALUE]"
        let what: String
        switch verb {
        case .insert:
            what = """
                Inserts a value at KEYPATH in FILE: a key that is not there yet, or an array
                index (the elements from it move up; the array's count appends). With --append,
                KEYPATH names an array and the value goes at its end.
                """
        case .replace:
            what = """
                Sets the value at KEYPATH in FILE, replacing what is there (or adding a key that
                is not there yet, as plutil does); an array index must be inside the array.
                """
        case .remove:
            what = "Removes the value at KEYPATH in FILE: a key of a dictionary or an element of an array."
        }
        var options = ""
        if verb != .remove {
            options += """

                  --type TYPE        bool, integer, float, string, date, data, xml, json, array or
                                     dictionary (the last two add an empty one and take no value)
                  --value VALUE      the value, as text: bool takes YES or true (anything else is
                                     false), date 2026-12-04T08:00:00Z, data Base64, xml an XML
                                     property list and json a JSON document
                """
        }
        if verb == .insert {
            options += "\n  --append           append to the array at KEYPATH"
        }
        return """
            usage: rawcoding \(verb.rawValue) KEYPATH FILE\(valued) [-o OUTPUT] [--to FORMAT] [limits]

            \(what)

            FILE is rewritten in its own format (a JSON file written with line breaks stays
            indented) unless -o or --to says otherwise; an OpenStep file needs --to. The edit
            is atomic: a temporary file, flushed, renamed over the target. KEYPATH as for
            extract: settings.links[1].url or settings.links.1.url.

            options:\(options)
              -o, --output FILE  where to write (default: FILE itself; - for standard output)
              --to FORMAT        json, json-pretty, xml or binary
              --max-bytes N, --max-depth N, --max-values N, --max-expansion N   as for convert
            """
    }

    static func run(_ verb: Verb, _ arguments: [String], io: ToolIO) throws(ToolFailure) -> Int32 {
        let command = verb.rawValue
        let parsed = try Arguments(
            arguments,
            valued: Set(["-o", "--output", "--to", "--type", "--value"]).union(ToolLimits.options),
            flags: verb == .insert ? ["--append"] : [], command: command)
        guard parsed.positional.count == 2 else {
            throw .usage("\(command) takes a KEYPATH and a FILE; see rawcoding \(command) --help")
        }
        let (keyPath, path) = (parsed.positional[0], parsed.positional[1])
        let steps = try KeyPath.parse(keyPath, command: command)
        let limits = try ToolLimits.read(parsed)
        let edit: KeyPath.Edit
        if verb == .remove {
            edit = .remove
        } else {
            guard let typeName = parsed.values["--type"] else {
                throw .usage("\(command) needs --type; see rawcoding \(command) --help")
            }
            guard let kind = ValueText.Kind(rawValue: typeName) else {
                let names = ValueText.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                throw .usage("--type takes one of \(names), not \(typeName)")
            }
            if !kind.takesValue, parsed.values["--value"] != nil {
                throw .usage("--type \(typeName) inserts an empty one and takes no --value")
            }
            let value = try ValueText.value(parsed.values["--value"], as: kind, option: "--value", limits: limits)
            edit =
                verb == .replace ? .replace(value) : parsed.flags.contains("--append") ? .append(value) : .insert(value)
        }
        let data = try Document.bytes(of: path, io: io)
        let read = try Document.tree(data, path: path, from: .auto, limits: limits)
        let edited = try KeyPath.apply(edit, at: steps, in: read.tree, file: path)
        let format = try parsed.values["--to"].map { text throws(ToolFailure) in
            try OutputFormat.read(text, default: nil)
        }
        try EditedDocument.write(
            edited, readAs: read.format, original: data, as: format,
            to: parsed.values["-o"] ?? parsed.values["--output"] ?? path,
            name: path, limits: limits, io: io)
        return 0
    }
}

/// Writing an edited or created document: in the format it was read in unless one is given.
enum EditedDocument {
    /// The format to write a document read as `format` in: its own (JSON with line breaks
    /// stays indented); `nil` for OpenStep, which is not written.
    static func sameFormat(as format: any TreeFormat, original: Data) -> OutputFormat? {
        switch format {
        case is XMLPropertyListTreeFormat: .xml
        case is BinaryPropertyListTreeFormat: .binary
        case is JSONTreeFormat: original.dropLast().contains(UInt8(ascii: "\n")) ? .jsonPretty : .json
        default: nil
        }
    }

    static func write(
        _ tree: StoredValue, readAs format: any TreeFormat, original: Data, as chosen: OutputFormat?, to output: String,
        name: String, limits: Limits, io: ToolIO
    ) throws(ToolFailure) {
        guard let target = chosen ?? sameFormat(as: format, original: original) else {
            throw .usage(
                "\(Document.display(name)) is \(KeyPath.article(format.formatName)) \(format.formatName), which is read but not written: give --to xml, binary or json"
            )
        }
        try write(tree, as: target, to: output, name: name, limits: limits, io: io)
    }

    /// `tree` mapped for `target` (`restoring` as `--restore` says), written to `output`, with
    /// the mapping's notes on standard error. `under` is where `tree` sits in its document (an
    /// extracted value's key path): messages give paths from the document's root.
    static func write(
        _ tree: StoredValue, as target: OutputFormat, to output: String, name: String,
        restoring restore: FormatMapping.Restore = [], under steps: [KeyPathStep] = [], limits: Limits, io: ToolIO
    ) throws(ToolFailure) {
        var mapping = FormatMapping()
        let mapped: StoredValue
        let under = steps.map(\.codingKey)
        do {
            mapped = try mapping.map(tree, to: target, restoring: restore, under: under)
        } catch {
            throw .input("\(Document.display(name)): \(error.description)")
        }
        var bytes = try ConvertCommand.write(mapped, as: target, limits: limits, name: name, under: under)
        if target.isJSON { bytes.append(UInt8(ascii: "\n")) }
        for note in mapping.notes { io.message("rawcoding: \(note)") }
        try Document.write(bytes, to: output, io: io)
    }
}

/// `rawcoding create FILE --to FORMAT`: an empty dictionary.
enum CreateCommand {
    static let help = """
        usage: rawcoding create FILE --to FORMAT

        Writes an empty dictionary to FILE (or - for standard output) in FORMAT: json,
        json-pretty, xml or binary. An existing FILE is replaced, atomically.
        """

    static func run(_ arguments: [String], io: ToolIO) throws(ToolFailure) -> Int32 {
        let parsed = try Arguments(arguments, valued: ["--to"], flags: [], command: "create")
        guard parsed.positional.count == 1 else {
            throw .usage("create takes one FILE (or - for standard output); see rawcoding create --help")
        }
        let target = try OutputFormat.read(parsed.values["--to"], default: nil)
        let path = parsed.positional[0]
        try EditedDocument.write(.dictionary([:]), as: target, to: path, name: path, limits: .default, io: io)
        return 0
    }
}

/// `rawcoding type KEYPATH FILE`: the type of one value.
enum TypeCommand {
    static let help = """
        usage: rawcoding type KEYPATH FILE [--expect TYPE] [--from FORMAT] [limits]

        Prints the type of the value at KEYPATH in FILE (or - for standard input): bool,
        integer, float, string, date, data, dictionary or array (null, in JSON). KEYPATH as
        for extract; an empty one is the whole document.

        options:
          --expect TYPE      fail (exit 1) unless the value is of TYPE
          --from FORMAT      auto (the default, from the bytes), json, xml, binary or openstep
          --max-bytes N, --max-depth N, --max-values N, --max-expansion N   as for convert
        """

    static func run(_ arguments: [String], io: ToolIO) throws(ToolFailure) -> Int32 {
        let parsed = try Arguments(
            arguments, valued: Set(["--expect", "--from"]).union(ToolLimits.options), flags: [], command: "type")
        guard parsed.positional.count == 2 else {
            throw .usage("type takes a KEYPATH and a FILE; see rawcoding type --help")
        }
        let (keyPath, path) = (parsed.positional[0], parsed.positional[1])
        let steps = try KeyPath.parse(keyPath, command: "type")
        let data = try Document.bytes(of: path, io: io)
        let read = try Document.tree(
            data, path: path, from: try InputFormat.read(parsed.values["--from"]), limits: try ToolLimits.read(parsed))
        let value = try KeyPath.value(at: steps, in: read.tree, file: path)
        try ExtractCommand.expect(parsed.values["--expect"], of: value, at: steps, option: "--expect", file: path)
        try Document.write(Array((ValueText.typeName(value) + "\n").utf8), to: "-", io: io)
        return 0
    }
}
