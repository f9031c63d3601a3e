import Foundation
import RawCoding

/// A supported input format, chosen by `--from` or detected from the bytes.
enum InputFormat: String, CaseIterable {
    case auto, json, xml, binary, openstep

    func format(for data: Data) -> any TreeFormat {
        switch self {
        case .auto: TreeFormats.detect(data)
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

    static func read(_ text: String?, default fallback: OutputFormat?) throws(ToolFailure) -> OutputFormat {
        guard let text else {
            guard let fallback else { throw .usage("--to is required: json, json-pretty, xml or binary") }
            return fallback
        }
        guard let format = OutputFormat(rawValue: text) else {
            throw .usage("--to takes json, json-pretty, xml or binary, not \(text)")
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
        let format = input.format(for: data)
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
        return "\(display(path)): \(format.formatName) error at \(position): \(error.reason)\(place)"
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
}
