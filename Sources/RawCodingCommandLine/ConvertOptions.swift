import Foundation
import RawCoding

/// What `rawcoding convert` was asked to do, read from its arguments.
struct ConvertOptions {
    static let help = """
        usage: rawcoding convert INPUT --to json|json-pretty|xml|binary [options]

        Converts INPUT (a file, or - for standard input) between JSON, XML property lists and
        binary property lists, and from OpenStep property lists and .strings files. The input
        format is detected from its bytes unless --from says.

        options:
          --to FORMAT        json (compact), json-pretty, xml or binary
          --from FORMAT      auto (the default), json, xml, binary or openstep (OpenStep
                             property lists and .strings files, read only)
          -o, --output FILE  where to write (default: - , standard output)
          --restore KINDS    into a property list, read ISO 8601 strings back as dates (dates)
                             and data URLs as data (data): --restore dates,data
          --round-numbers    into a property list, write a JSON number of more than 17
                             significant digits as the nearest real instead of stopping
          --nulls WHAT       into a property list, what a JSON null becomes: refuse (the
                             default: stop, naming its path), drop (leave out its key or
                             array element) or string (the string $null, as Foundation's
                             property-list encoders write nil); the paths are noted
          --max-bytes N      largest input (default \(ToolLimits.sizeText(ToolLimits.default.maximumInputBytes)); K, M, G suffixes)
          --max-depth N      deepest nesting (default \(ToolLimits.default.maximumDepth))
          --max-values N     most values (default \(ToolLimits.default.maximumValueCount))
          --max-expansion N  values per input byte a binary plist's shared
                             containers may expand to, past \(Limits.expansionFloor) (default \(ToolLimits.default.maximumExpansion))

        JSON inputs over \(Conversion.streamingThreshold >> 20) MiB go to binary property lists without building the whole tree
        first, in a layout that differs from the library's canonical one (4-byte references,
        dictionary keys in the input's order), with the same values.

        Mapping: in JSON a date is ISO 8601 text in UTC with every fractional digit it needs,
        and data is Base64 text in a data URL (data:;base64,AP8Q); each such change is noted on
        standard error, as is a real with a whole value, which JSON writes as an integer. JSON
        null cannot go into a property list: it is an error naming its path, unless --nulls
        says what to do with it. A JSON number
        becomes the nearest real (a Double) when it has at most 17 significant digits, as in
        every other tool (0.10000000000000001 is 0.1); with more, it stops the conversion
        unless --round-numbers is given. XML property lists keep whole seconds only: a dropped
        fraction is noted.
        """

    var input: String
    var output: String
    var target: OutputFormat
    var source: InputFormat
    var restore: FormatMapping.Restore
    var roundsNumbers: Bool
    var nulls: FormatMapping.Nulls
    var limits: Limits

    init(
        input: String, output: String, target: OutputFormat, source: InputFormat = .auto,
        restore: FormatMapping.Restore = [], roundsNumbers: Bool = false, nulls: FormatMapping.Nulls = .refuse,
        limits: Limits = ToolLimits.default
    ) {
        self.input = input
        self.output = output
        self.target = target
        self.source = source
        self.restore = restore
        self.roundsNumbers = roundsNumbers
        self.nulls = nulls
        self.limits = limits
    }

    /// Reads `convert`'s arguments (the words after `convert`).
    /// - Throws: A usage failure naming what is wrong.
    init(parsing arguments: [String]) throws(ToolFailure) {
        let parsed = try Arguments(
            arguments,
            valued: Set(["--to", "--from", "-o", "--output", "--restore", "--nulls"]).union(ToolLimits.options),
            flags: ["--round-numbers"],
            command: "convert")
        guard parsed.positional.count == 1 else {
            throw .usage(
                parsed.positional.isEmpty
                    ? "convert needs an INPUT file (or - for standard input); see rawcoding convert --help"
                    : "convert takes one INPUT, not \(parsed.positional.count); see rawcoding convert --help")
        }
        input = parsed.positional[0]
        output = parsed.values["-o"] ?? parsed.values["--output"] ?? "-"
        target = try OutputFormat.read(parsed.values["--to"], default: nil)
        source = try InputFormat.read(parsed.values["--from"])
        restore = try FormatMapping.Restore.read(parsed.values["--restore"])
        roundsNumbers = parsed.flags.contains("--round-numbers")
        nulls = try FormatMapping.Nulls.read(parsed.values["--nulls"])
        limits = try ToolLimits.read(parsed)
    }
}
