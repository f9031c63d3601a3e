import Foundation
import RawCoding

/// A supported input format, chosen by `--from` or detected from the bytes.
enum InputFormat: String, CaseIterable {
    case auto, json, xml, binary, openstep

    /// The format to read `data` in: the one `--from` names, else JSON for a file named
    /// `*.json` (so its errors are JSON errors, and a bare word in it is not an OpenStep string),
    /// else the one its bytes show.
    func format(for data: Data, path: String) -> any TreeFormat {
        switch self {
        case .auto:
            path.lowercased().hasSuffix(".json") && !BinaryPropertyListTreeFormat.hasSignature(data)
                ? JSONTreeFormat() : TreeFormats.detect(data)
        case .json: JSONTreeFormat()
        case .xml: XMLPropertyListTreeFormat()
        case .binary: BinaryPropertyListTreeFormat()
        case .openstep: OpenStepPropertyListTreeFormat()
        }
    }

    static func read(_ text: String?) throws(ToolFailure) -> InputFormat {
        guard let text else { return .auto }
        guard let format = InputFormat(rawValue: text) else {
            throw .usage("--from takes auto, json, xml, binary or openstep, not \(text)")
        }
        return format
    }
}

/// An output format.
enum OutputFormat: String, CaseIterable {
    case json
    case jsonPretty = "json-pretty"
    case xml, binary

    var treeFormat: any TreeFormat {
        switch self {
        case .json: JSONTreeFormat(formatting: .compact)
        case .jsonPretty: JSONTreeFormat(formatting: .pretty)
        case .xml: XMLPropertyListTreeFormat()
        case .binary: BinaryPropertyListTreeFormat()
        }
    }

    var isJSON: Bool { self == .json || self == .jsonPretty }

    /// The format `--to` names; `raw` says that `raw` is also allowed there (for messages).
    static func read(_ text: String?, default fallback: OutputFormat?, raw: Bool = false) throws(ToolFailure)
        -> OutputFormat
    {
        let names = raw ? "json, json-pretty, xml, binary or raw" : "json, json-pretty, xml or binary"
        guard let text else {
            guard let fallback else { throw .usage("--to is required: \(names)") }
            return fallback
        }
        guard let format = OutputFormat(rawValue: text) else {
            throw .usage("--to takes \(names), not \(text)")
        }
        return format
    }
}

/// Reading a whole input file into a tree, with the error line the commands print.
enum Document {
    /// The file's bytes (announced on a terminal when large); an unreadable file is an input
    /// error naming it.
    static func bytes(of path: String, io: ToolIO) throws(ToolFailure) -> Data {
        do {
            let data = try io.read(path)
            LargeInputNotice.announce(bytes: data.count, path: path, io: io)
            return data
        } catch {
            var isDirectory: ObjCBool = false
            let reason =
                !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                ? "no such file" : isDirectory.boolValue ? "is a directory" : (error as NSError).localizedDescription
            throw .input("\(display(path)): cannot read: \(reason)")
        }
    }

    /// The tree `data` holds, or the lint-style error line:
    /// `FILE: <format> error at <position>: <reason>`.
    static func tree(
        _ data: Data, path: String, from input: InputFormat, limits: Limits
    ) throws(ToolFailure) -> (tree: StoredValue, format: any TreeFormat) {
        let format = input.format(for: data, path: path)
        do {
            return (try format.readTree(data, limits: limits), format)
        } catch {
            throw .input(errorLine(path: path, format: format, failure: error))
        }
    }

    static func errorLine(path: String, format: any TreeFormat, failure: FormatFailure) -> String {
        let error = RawCodingError(failure, subject: StoredValue.self)
        let position = error.position.map(positionText) ?? "the end"
        let place = error.codingPath.isEmpty ? "" : " (in \(shortPath(error)))"
        let truncated =
            !failure.endsEarly
            ? ""
            : format is BinaryPropertyListTreeFormat
                ? "; a binary property list ends with a 32-byte trailer, and these bytes are not one: the file looks truncated or damaged"
                : "; the input ends inside a value: the file looks truncated"
        return
            "\(display(path)): \(format.failureName) error at \(position): \(inToolWords(error.reason))\(place)\(truncated)"
    }

    /// A library message with the tool's option in place of each `Limits` property it names
    /// (`Limits.maximumInputBytes` → `--max-bytes`).
    static func inToolWords(_ reason: String) -> String {
        [
            ("Limits.maximumExpansion (rawcoding: --max-expansion)", "--max-expansion"),
            ("Limits.maximumExpansion", "--max-expansion"), ("Limits.maximumInputBytes", "--max-bytes"),
            ("Limits.maximumDepth", "--max-depth"), ("Limits.maximumValueCount", "--max-values"),
        ].reduce(reason) { text, names in text.replacingOccurrences(of: names.0, with: names.1) }
    }

    /// The error's path, with the middle of a very deep one left out: `[0][0]…(508 more)…[0][0]`.
    static func shortPath(_ error: RawCodingError) -> String {
        let path = error.codingPath
        guard path.count > 12 else { return error.codingPathDescription }
        let tail = CodingPathFormatter.render(Array(path.suffix(2)))
        let separator = tail.hasPrefix("[") ? "" : "."
        return "\(CodingPathFormatter.render(Array(path.prefix(8))))…(\(path.count - 10) more)…\(separator)\(tail)"
    }

    /// `line:column (byte offset N)` for text, `byte offset N` for binary.
    static func positionText(_ position: InputPosition) -> String {
        guard let line = position.line, let column = position.column else {
            return "byte offset \(position.byteOffset)"
        }
        return "\(line):\(column) (byte offset \(position.byteOffset))"
    }

    static func display(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    /// Writes `bytes` to `path` (`-`: standard output); a failure is an input error saying why
    /// in words: a missing folder, a folder in the way, no permission.
    static func write(_ bytes: [UInt8], to path: String, io: ToolIO) throws(ToolFailure) {
        do {
            try io.write(bytes, path)
        } catch {
            throw .input(writeFailure(path, error))
        }
    }

    /// Why writing `path` failed with `error`, for a message.
    static func writeFailure(_ path: String, _ error: any Error) -> String {
        guard path != "-" else { return "cannot write to standard output: \((error as NSError).localizedDescription)" }
        let manager = FileManager.default
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        let reason: String
        if !manager.fileExists(atPath: folder, isDirectory: &isFolder) {
            reason = "the folder \(folder) does not exist"
        } else if !isFolder.boolValue {
            reason = "\(folder) is not a folder"
        } else if manager.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            reason = "it is a folder"
        } else if !manager.isWritableFile(atPath: folder) {
            reason = "the folder \(folder) is not writable (a temporary file is written there, then renamed)"
        } else if let posix = error as? POSIXError {
            reason = String(cString: strerror(posix.code.rawValue))
        } else {
            reason = (error as NSError).localizedDescription
        }
        return "\(path): cannot write: \(reason)"
    }
}
