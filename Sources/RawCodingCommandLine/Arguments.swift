/// A command's arguments: options with values (`--to json`, `-o out`), flags (`--fix`) and
/// the rest in order. Unknown options are usage errors.
struct Arguments {
    var positional: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    /// Splits `arguments` into options taking a value, flags and positional arguments. `-`
    /// alone is positional (standard input or output).
    init(_ arguments: [String], valued: Set<String>, flags known: Set<String>, command: String) throws(ToolFailure) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" {
                positional += rest
                break
            }
            if argument.hasPrefix("-"), argument != "-" {
                var name = argument
                var inline: String?
                if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                    name = String(argument[..<equals])
                    inline = String(argument[argument.index(after: equals)...])
                }
                if valued.contains(name) {
                    guard let value = inline ?? rest.popFirst() else {
                        throw .usage("\(name) needs a value; see rawcoding \(command) --help")
                    }
                    values[name] = value
                } else if known.contains(name), inline == nil {
                    flags.insert(name)
                } else {
                    throw .usage("unknown option \(argument) for rawcoding \(command); see rawcoding \(command) --help")
                }
            } else {
                positional.append(argument)
            }
        }
    }
}
