import Foundation
import RawCoding

/// plutil's command line, as macOS documents it (`man plutil`, `plutil -help`): the tool's
/// only syntax when it runs under the name `plutil`, and selected under its own name when the
/// first argument is one of plutil's command options.
///
/// Exit status 0 on success and 1 on any failure, usage errors included, as plutil's manual
/// page says. Where plutil's behaviour is not documented, the README says what this does.
enum Plutil {
    static let commandOptions: Set<String> = [
        "-help", "-lint", "-p", "-convert", "-insert", "-replace", "-remove", "-extract", "-type", "-create",
    ]

    static func isCommandOption(_ argument: String?) -> Bool {
        argument.map(commandOptions.contains) ?? false
    }

    static let help = """
        usage: plutil [command_option] [other_options] file...
        (rawcoding: the plutil that Linux lacks; - as a file is standard input)

        command options (-lint when none is given):
          -help                          show this text
          -lint                          check each file; FILE: OK for each good one
          -p                             print each file for people (not a stable format)
          -convert fmt                   rewrite each file in fmt: xml1, binary1 or json
          -insert keypath -type [value]  add a value (-append: at the end of the array at keypath)
          -replace keypath -type value   set a value
          -remove keypath                remove a value
          -extract keypath fmt           print the value at keypath in fmt: xml1, binary1, json
                                         or raw (-expect type: fail unless it is of that type)
          -type keypath                  print the type of the value at keypath (-expect type)
          -create fmt                    write an empty dictionary in fmt

        -type is one of -bool (YES or true is true), -integer, -float, -string, -date
        (2026-12-04T08:00:00Z), -data (Base64), -xml (a property list), -json (a JSON
        document), -array and -dictionary (empty; no value). A keypath is keys separated by
        dots; a number is an index in an array (at the end of an -insert keypath, the place
        to insert at); \\. is a dot inside a key.

        other options:
          -s                silent on success
          -r                JSON with line breaks and indentation
          -n                no newline after -extract raw or -type output
          -o path           write the result to path (- for standard output)
          -e extension      with -convert, write beside each file with this extension
          --                the arguments after it are files
        rawcoding's additions: --round-numbers and --nulls refuse|drop|string (as for
        rawcoding convert), --max-bytes N, --max-depth N, --max-values N, --max-expansion N.

        Edited and converted files are replaced atomically (a temporary file, flushed, renamed).
        Exit status: 0 on success, 1 on any failure.
        """

    /// What the command line asked for.
    struct Request {
        var command = "-lint"
        var format: String?
        var keyPath: String?
        var kind: ValueText.Kind?
        var value: String?
        var files: [String] = []
        var silent = false
        var readable = false
        var noNewline = false
        var append = false
        var output: String?
        var fileExtension: String?
        var expect: String?
        var roundsNumbers = false
        var nulls = FormatMapping.Nulls.refuse
        var limitOptions: [String: String] = [:]
    }

    /// Every message of plutil's syntax starts `plutil:`, under either name, as plutil's own
    /// do (the README and `-help` say so); the commands shared with `rawcoding`'s verbs write
    /// `rawcoding:`, which this rewrites.
    static func run(_ arguments: [String], io: ToolIO, name: String) -> Int32 {
        var io = io
        let message = io.message
        io.message = { line in
            message(line.hasPrefix("rawcoding: ") ? "plutil: " + line.dropFirst("rawcoding: ".count) : line)
        }
        // -help anywhere (or --help, -h) shows the help: `plutil -convert --help` asks for it,
        // and would otherwise read --help as the format.
        if arguments.contains(where: { ["-help", "--help", "-h"].contains($0) }) {
            return Tool.printed(help, io: io) == 0 ? 0 : 1
        }
        do {
            return try perform(try parse(arguments), io: io)
        } catch {
            io.message("plutil: \(error.description)")
            return 1
        }
    }

    /// The format names a command option takes.
    static func formats(for command: String) -> [String] {
        command == "-extract" ? ["xml1", "binary1", "json", "raw"] : ["xml1", "binary1", "json"]
    }

    /// Reads the format after `command`: one of ``formats(for:)``; a file name or anything
    /// else is named as what it is, a missing format.
    static func format(_ text: String, after command: String) throws(ToolFailure) -> String {
        let names = formats(for: command)
        guard !names.contains(text), !["swift", "objc"].contains(text) else { return text }
        let usage = command == "-extract" ? "-extract keypath fmt file" : "\(command) fmt file"
        let listed = names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
        throw .usage(
            "\(command) needs a format before the files (\(usage)): \(listed); "
                + (text.hasPrefix("-") ? "\(text) is an option, not a format" : "\(text) is not a format")
                + "; see -help")
    }

    static func parse(_ arguments: [String]) throws(ToolFailure) -> Request {
        var request = Request()
        var rest = arguments[...]
        func next(_ what: String) throws(ToolFailure) -> String {
            guard let value = rest.popFirst() else { throw .usage("\(request.command) needs \(what); see -help") }
            return value
        }
        if let first = rest.first, commandOptions.contains(first) {
            request.command = rest.removeFirst()
            switch request.command {
            case "-convert", "-create":
                request.format = try format(try next("a format"), after: request.command)
            case "-extract":
                request.keyPath = try next("a keypath")
                request.format = try format(try next("a format"), after: request.command)
            case "-remove", "-type":
                request.keyPath = try next("a keypath")
            case "-insert", "-replace":
                request.keyPath = try next("a keypath")
                let type = try next("a type such as -string")
                guard type.hasPrefix("-"), let kind = ValueText.Kind(rawValue: String(type.dropFirst())) else {
                    throw .usage(
                        "\(request.command) takes a type (-bool, -integer, -float, -string, -date, -data, -xml, -json, -array or -dictionary), not \(type)"
                    )
                }
                request.kind = kind
                if kind.takesValue { request.value = try next("a value for \(type)") }
            default:
                break
            }
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--":
                request.files += rest
                rest = []
            case "-s": request.silent = true
            case "-r": request.readable = true
            case "-n": request.noNewline = true
            case "-append": request.append = true
            case "--round-numbers": request.roundsNumbers = true
            case "--nulls":
                request.nulls = try FormatMapping.Nulls.read(try next("refuse, drop or string after --nulls"))
            case "-o": request.output = try next("a path after -o")
            case "-e": request.fileExtension = try next("an extension after -e")
            case "-expect": request.expect = try next("a type after -expect")
            case _ where ToolLimits.options.contains(argument):
                request.limitOptions[argument] = try next("a number after \(argument)")
            case "-":
                request.files.append(argument)
            case _ where argument.hasPrefix("-"):
                throw .usage("unknown option \(argument); see -help")
            default:
                request.files.append(argument)
            }
        }
        guard !request.files.isEmpty || request.command == "-help" else {
            throw .usage("\(request.command) needs a file (- for standard input); none was given; see -help")
        }
        if request.append, request.command != "-insert" { throw .usage("-append goes with -insert") }
        return request
    }

    /// The output format a plutil format name means; `raw` only where `allowsRaw`.
    static func outputFormat(_ name: String?, readable: Bool) throws(ToolFailure) -> OutputFormat {
        switch name {
        case "xml1": return .xml
        case "binary1": return .binary
        case "json": return readable ? .jsonPretty : .json
        case "swift", "objc":
            throw .input("the \(name ?? "") format (source code literals) is not supported: use xml1, binary1 or json")
        default:
            throw .usage("the format must be xml1, binary1 or json, not \(name ?? "nothing")")
        }
    }

    static func perform(_ request: Request, io: ToolIO) throws(ToolFailure) -> Int32 {
        let limits = try ToolLimits.read(values: request.limitOptions)
        var status: Int32 = 0
        switch request.command {
        case "-lint":
            var lines: [String] = []
            for file in request.files {
                do throws(ToolFailure) {
                    try LintCommand.check(file, from: .auto, limits: limits, io: io)
                    if !request.silent { lines.append("\(Document.display(file)): OK") }
                } catch {
                    lines.append(error.description)
                    status = 1
                }
            }
            if !lines.isEmpty {
                try Document.write(Array((lines.joined(separator: "\n") + "\n").utf8), to: "-", io: io)
            }
        case "-p":
            for file in request.files {
                let tree = try Document.tree(
                    try Document.bytes(of: file, io: io), path: file, from: .auto, limits: limits)
                try Document.write(Array((HumanReadable.text(tree.tree) + "\n").utf8), to: "-", io: io)
            }
        case "-convert":
            let target = try outputFormat(request.format, readable: request.readable)
            for file in request.files {
                let options = ConvertOptions(
                    input: file, output: destination(of: file, request), target: target,
                    roundsNumbers: request.roundsNumbers, nulls: request.nulls, limits: limits)
                try ConvertCommand.run(options, io: io, quiet: request.silent)
            }
        case "-create":
            let target = try outputFormat(request.format, readable: request.readable)
            for file in request.files {
                try EditedDocument.write(
                    .dictionary([:]), as: target, to: request.output ?? file, name: file, limits: limits, io: io)
            }
        case "-insert", "-replace", "-remove":
            try edit(request, limits: limits, io: io)
        case "-extract", "-type":
            let steps = KeyPath.parsePlutil(request.keyPath ?? "")
            for file in request.files {
                let tree = try Document.tree(
                    try Document.bytes(of: file, io: io), path: file, from: .auto, limits: limits)
                let value = try KeyPath.value(at: steps, in: tree.tree, file: file)
                try ExtractCommand.expect(request.expect, of: value, at: steps, option: "-expect", file: file)
                let newline = request.noNewline ? "" : "\n"
                let output = request.output ?? "-"
                if request.command == "-type" {
                    try Document.write(Array((ValueText.typeName(value) + newline).utf8), to: output, io: io)
                } else if request.format == "raw" {
                    try Document.write(Array((ValueText.raw(value) + newline).utf8), to: output, io: io)
                } else {
                    let target = try outputFormat(request.format, readable: request.readable)
                    try EditedDocument.write(
                        value, as: target, to: output, name: file, under: steps, limits: limits, io: io)
                }
            }
        default:
            throw .usage("unknown command option \(request.command)")
        }
        return status
    }

    /// Where `-convert` writes `file`: `-o`, else beside it with `-e`'s extension, else over
    /// it (standard input goes to standard output).
    static func destination(of file: String, _ request: Request) -> String {
        if let output = request.output { return output }
        if file == "-" { return "-" }
        if let fileExtension = request.fileExtension {
            let url = URL(fileURLWithPath: file)
            let base = url.pathExtension.isEmpty ? file : String(file.dropLast(url.pathExtension.count + 1))
            return base + "." + fileExtension.drop { $0 == "." }
        }
        return file
    }

    /// `-insert`, `-replace` and `-remove` on each file, written back in its own format (JSON
    /// compact unless `-r`; an OpenStep file as XML, since it is not written), or to `-o`.
    static func edit(_ request: Request, limits: Limits, io: ToolIO) throws(ToolFailure) {
        let steps = KeyPath.parsePlutil(request.keyPath ?? "")
        let edit: KeyPath.Edit
        switch request.command {
        case "-remove":
            edit = .remove
        default:
            let kind = request.kind ?? .string
            let value = try ValueText.value(request.value, as: kind, option: "-\(kind.rawValue)", limits: limits)
            edit = request.command == "-replace" ? .replace(value) : request.append ? .append(value) : .insert(value)
        }
        for file in request.files {
            let data = try Document.bytes(of: file, io: io)
            let read = try Document.tree(data, path: file, from: .auto, limits: limits)
            let edited = try KeyPath.apply(edit, at: steps, in: read.tree, file: file)
            var target = EditedDocument.sameFormat(as: read.format, original: data) ?? .xml
            if target.isJSON { target = request.readable ? .jsonPretty : .json }
            try EditedDocument.write(
                edited, as: target, to: request.output ?? (file == "-" ? "-" : file), name: file, limits: limits, io: io
            )
        }
    }
}

/// `plutil -p`: a tree for people, in the shape plutil prints (`"key" => value`, arrays with
/// their indexes). Not a stable format, in plutil either.
enum HumanReadable {
    static func text(_ value: StoredValue) -> String {
        var text = ""
        write(value, indent: 0, into: &text)
        return text
    }

    static func write(_ value: StoredValue, indent: Int, into text: inout String) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch value {
        case .dictionary(let dictionary):
            if let uid = value.keyedArchiverUID {
                text += "<CFKeyedArchiverUID>{value = \(uid)}"
                return
            }
            text += "{\n"
            for (key, element) in dictionary {
                text += "\(pad)\(StoredValue.quoted(key)) => "
                write(element, indent: indent + 1, into: &text)
                text += "\n"
            }
            text += closing + "}"
        case .array(let elements):
            text += "[\n"
            for (index, element) in elements.enumerated() {
                text += "\(pad)\(index) => "
                write(element, indent: indent + 1, into: &text)
                text += "\n"
            }
            text += closing + "]"
        case .string(let string): text += StoredValue.quoted(string)
        case .date(let date):
            text += DateText.exactISO8601(of: date) ?? "\(date.timeIntervalSinceReferenceDate) seconds from 2001"
        case .data(let bytes):
            let hex = { (part: Data) in part.map { String(format: "%02x", $0) }.joined() }
            let shown = bytes.count <= 24 ? hex(bytes) : "\(hex(bytes.prefix(8))) ... \(hex(bytes.suffix(8)))"
            text += "{length = \(bytes.count), bytes = 0x\(shown)}"
        default:
            text += ValueText.raw(value)
        }
    }
}
