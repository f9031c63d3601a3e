import Foundation
import RawCoding

/// `rawcoding extract KEYPATH FILE [--to FORMAT]`: one value of a document.
enum ExtractCommand {
    static let help = """
        usage: rawcoding extract KEYPATH FILE [--to FORMAT] [--from FORMAT] [limits]

        Prints the value at KEYPATH in FILE (or - for standard input). A key path is keys
        separated by dots, with [N] for array elements: settings.links[1].url. Write a key that
        holds dots or brackets as ["a.b"]. An empty key path is the whole document.

        options:
          --to FORMAT        json, json-pretty (the default), xml or binary
          --from FORMAT      auto (the default, from the bytes), json, xml, binary or openstep
          --restore KINDS    as for convert
          --max-bytes N, --max-depth N, --max-values N, --max-expansion N   as for convert
        """

    static func run(_ arguments: [String], io: ToolIO) throws(ToolFailure) -> Int32 {
        let parsed = try Arguments(
            arguments, valued: Set(["--to", "--from", "--restore"]).union(ToolLimits.options), flags: [],
            command: "extract")
        guard parsed.positional.count == 2 else {
            throw .usage("extract takes a KEYPATH and a FILE; see rawcoding extract --help")
        }
        let (keyPath, path) = (parsed.positional[0], parsed.positional[1])
        let steps = try KeyPathStep.parse(keyPath)
        let target = try OutputFormat.read(parsed.values["--to"], default: .jsonPretty)
        let restore = try FormatMapping.Restore.read(parsed.values["--restore"])
        let limits = try ToolLimits.read(parsed)
        let data = try Document.bytes(of: path, io: io)
        let read = try Document.tree(
            data, path: path, from: try InputFormat.read(parsed.values["--from"]), limits: limits)
        var value = read.tree
        var walked: [any CodingKey] = []
        for step in steps {
            guard let next = step.value(in: value) else {
                throw .input(
                    "\(Document.display(path)): no value at \(keyPath): \(step.miss(in: value, at: CodingPathFormatter.render(walked)))"
                )
            }
            walked.append(step.codingKey)
            value = next
        }
        var mapping = FormatMapping()
        let mapped: StoredValue
        do {
            mapped = try mapping.map(value, to: target, restoring: restore)
        } catch {
            throw .input("\(Document.display(path)): \(error.description)")
        }
        var bytes = try ConvertCommand.write(mapped, as: target, limits: limits, name: path)
        if target.isJSON { bytes.append(UInt8(ascii: "\n")) }
        for note in mapping.notes { io.message("rawcoding: \(note)") }
        do {
            try io.write(bytes, "-")
        } catch {
            throw .input("cannot write: \(error)")
        }
        return 0
    }
}

/// One step of a key path: a key or an array index.
enum KeyPathStep {
    case key(String)
    case index(Int)

    var codingKey: any CodingKey {
        switch self {
        case .key(let key): StoredCodingKey(stringValue: key)
        case .index(let index): StoredCodingKey(index: index)
        }
    }

    func value(in tree: StoredValue) -> StoredValue? {
        switch self {
        case .key(let key): tree[key]
        case .index(let index): tree[index]
        }
    }

    /// Why there is nothing here, for the error line.
    func miss(in tree: StoredValue, at place: String) -> String {
        switch (self, tree) {
        case (.key(let key), .dictionary): "\(place) has no key \(TreeView.quoted(key))"
        case (.index(let index), .array(let elements)):
            "\(place) has \(elements.count) element(s), so no [\(index)]"
        default:
            "\(place) is \(tree.kindName == "integer" ? "an" : "a") \(tree.kindName), not \(isIndex ? "an array" : "a dictionary")"
        }
    }

    private var isIndex: Bool {
        if case .index = self { return true }
        return false
    }

    /// Parses `a.b[1]["c.d"]`.
    static func parse(_ text: String) throws(ToolFailure) -> [KeyPathStep] {
        var steps: [KeyPathStep] = []
        var characters = Substring(text)
        var expectsKey = true
        func bad(_ reason: String) -> ToolFailure {
            .usage("the key path \(text) is not valid: \(reason); see rawcoding extract --help")
        }
        while !characters.isEmpty {
            if characters.first == "[" {
                characters.removeFirst()
                if characters.first == "\"" {
                    characters.removeFirst()
                    guard let end = characters.firstIndex(of: "\"") else { throw bad("a quoted key is not closed") }
                    steps.append(.key(String(characters[..<end])))
                    characters = characters[characters.index(after: end)...]
                } else {
                    let digits = characters.prefix { $0.isASCII && $0.isNumber }
                    guard let index = Int(digits) else { throw bad("[ must hold an index or a quoted key") }
                    steps.append(.index(index))
                    characters = characters.dropFirst(digits.count)
                }
                guard characters.first == "]" else { throw bad("a [ is not closed") }
                characters.removeFirst()
                expectsKey = false
            } else if characters.first == "." {
                guard !expectsKey else {
                    throw bad(steps.isEmpty ? "it starts with a dot" : "it has two dots in a row")
                }
                characters.removeFirst()
                expectsKey = true
                if characters.isEmpty { throw bad("it ends with a dot") }
            } else {
                guard expectsKey else { throw bad("a key must follow a dot") }
                let key = characters.prefix { $0 != "." && $0 != "[" }
                steps.append(.key(String(key)))
                characters = characters.dropFirst(key.count)
                expectsKey = false
            }
        }
        return steps
    }
}
