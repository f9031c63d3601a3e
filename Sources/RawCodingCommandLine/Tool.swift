import Foundation

/// The `rawcoding` command line: the commands, `--help` and `--version`. `main` only calls
/// ``run(_:io:)`` and exits with what it returns: 0 success, 1 invalid input, 2 usage error.
package enum Tool {
    /// The newest release in CHANGELOG.md, which the README's installation line asks for and
    /// whose commit carries the git tag of the same name (`ProjectVersionTests` holds all three
    /// together); raised in the commit that cuts a release.
    package static let version = "0.10.0"

    static let help = """
        usage: rawcoding <command> [arguments]

        The plutil that Linux lacks: JSON, XML property lists and binary property lists.

        commands:
          convert INPUT --to FORMAT   convert between JSON and property lists
          print FILE                  show a file as an indented tree with types
          lint FILE...                check files, one line each
          extract KEYPATH FILE        print one value (settings.links[1], or links.1)
          type KEYPATH FILE           print the type of one value
          insert KEYPATH FILE         add a value (--type TYPE --value VALUE), in place
          replace KEYPATH FILE        set a value (--type TYPE --value VALUE), in place
          remove KEYPATH FILE         remove a value, in place
          create FILE --to FORMAT     write an empty dictionary
          fixtures check [DIR]        check that fixtures are in canonical form (--fix)

        plutil's own command line works too (rawcoding -convert xml1 file.plist), and is the
        only one when the tool is run under the name plutil (ln -s rawcoding plutil); see
        rawcoding -help.

        rawcoding <command> --help shows a command's options; rawcoding --version its version.
        Data goes to standard output, messages to standard error. Exit status: 0 success,
        1 invalid input, 2 usage error.
        """

    /// The commands by name. An enum, not a table of `throws(ToolFailure)` closures: a typed-throws
    /// function value needs runtime support that Apple systems only have from the 2024 releases
    /// (iOS 18, macOS 15), below the package's deployment targets.
    enum Command: String {
        case convert, print, lint, extract, type, insert, replace, remove, create, fixtures

        var help: String {
            switch self {
            case .convert: ConvertCommand.help
            case .print: PrintCommand.help
            case .lint: LintCommand.help
            case .extract: ExtractCommand.help
            case .type: TypeCommand.help
            case .insert: EditCommand.help(.insert)
            case .replace: EditCommand.help(.replace)
            case .remove: EditCommand.help(.remove)
            case .create: CreateCommand.help
            case .fixtures: FixturesCommand.help
            }
        }

        func run(_ arguments: [String], io: ToolIO) throws(ToolFailure) -> Int32 {
            switch self {
            case .convert: try ConvertCommand.run(arguments, io: io)
            case .print: try PrintCommand.run(arguments, io: io)
            case .lint: try LintCommand.run(arguments, io: io)
            case .extract: try ExtractCommand.run(arguments, io: io)
            case .type: try TypeCommand.run(arguments, io: io)
            case .insert: try EditCommand.run(.insert, arguments, io: io)
            case .replace: try EditCommand.run(.replace, arguments, io: io)
            case .remove: try EditCommand.run(.remove, arguments, io: io)
            case .create: try CreateCommand.run(arguments, io: io)
            case .fixtures: try FixturesCommand.run(arguments, io: io)
            }
        }
    }

    /// Runs the tool on `arguments` (without the program name) and returns the exit status.
    /// Run as `plutil` (`name`, the program's file name, through a link), the arguments are
    /// plutil's command line only; as `rawcoding`, a first argument that is one of plutil's
    /// command options (`-convert`, `-lint`, …) also selects it.
    package static func run(_ arguments: [String], io: ToolIO, name: String = "rawcoding") -> Int32 {
        if name == "plutil" || Plutil.isCommandOption(arguments.first) {
            return Plutil.run(arguments, io: io, name: name)
        }
        guard let first = arguments.first else {
            io.message("rawcoding: missing command\n\(help)")
            return 2
        }
        if first == "--help" || first == "-h" || first == "help" {
            return printed(help, io: io)
        }
        if first == "--version" {
            return printed("rawcoding \(version)", io: io)
        }
        guard let command = Command(rawValue: first) else {
            io.message("rawcoding: unknown command '\(first)'; see rawcoding --help")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            return printed(command.help, io: io)
        }
        do {
            return try command.run(rest, io: io)
        } catch {
            io.message("rawcoding: \(error.description)")
            return error.exitCode
        }
    }

    /// Writes `text` to standard output; 0, or 1 when it cannot.
    static func printed(_ text: String, io: ToolIO) -> Int32 {
        do {
            try io.write(Array((text + "\n").utf8), "-")
            return 0
        } catch {
            io.message("rawcoding: cannot write to standard output: \(error)")
            return 1
        }
    }
}
