import Foundation
import RawCoding

/// One conversion: through the tree, or value by value for large JSON inputs, and the
/// mapping's notes. Every failure becomes a ``ConvertFailure`` and is rendered in one place.
struct Conversion {
    /// JSON inputs larger than this go to binary property lists without a tree in between
    /// (``streamToBinary(_:io:)``), in a layout of their own.
    static let streamingThreshold = 16 << 20
    /// JSON inputs larger than this go to XML and to JSON without a tree in between
    /// (``streamToText(_:io:)``): those
    /// conversions write the tree path's bytes exactly, so only a small input, which the tree
    /// converts quickly, is left to it.
    static let textStreamingThreshold = 1 << 20

    let options: ConvertOptions
    private(set) var mapping = FormatMapping()

    init(options: ConvertOptions) {
        self.options = options
        mapping = FormatMapping(roundingNumbers: options.roundsNumbers, nulls: options.nulls)
    }

    /// Converts `data` to XML or to JSON (compact or pretty), as the target says, piece by
    /// piece, writing each piece as it is finished, when it is JSON larger than
    /// ``textStreamingThreshold`` and the streaming conversion takes it: the tree path's bytes
    /// (``JSONToXMLPropertyList``, ``JSONToJSON``). `false` (nothing written) otherwise, for
    /// ``convert(_:)`` to do it through the tree, which reports what the streaming conversion
    /// stopped at.
    /// - Throws: A failure to write the output.
    mutating func streamToText(_ data: Data, io: ToolIO) throws(ToolFailure) -> Bool {
        let target = options.target
        guard target != .binary else { return false }
        let restore = options.restore
        let limits = options.limits
        return try streaming(data, to: target, io: io) { emit, streamed in
            do throws(JSONToXMLPropertyList.Stop) {
                func transform(_ value: StoredValue, _ place: () -> String) throws(ToolFailure) -> StoredValue {
                    try streamed.scalar(value, to: target, restore: restore, path: place)
                }
                if target == .xml {
                    try JSONToXMLPropertyList.convert(data, limits: limits, emit: emit, transform: transform)
                } else {
                    try JSONToJSON.convert(
                        data, pretty: target == .jsonPretty, limits: limits, emit: emit, transform: transform)
                }
            } catch {
                switch error {
                case .leftToTree: return false
                case .emitting(let failure): throw failure
                }
            }
            // As the tree path writes it: pretty JSON ends with a line break.
            if target == .jsonPretty { try emit([UInt8(ascii: "\n")]) }
            return true
        }
    }

    /// Converts `data` to a binary property list value by value (``JSONToBinaryPropertyList``),
    /// writing each finished piece as it is made, when it is JSON larger than
    /// ``streamingThreshold``: the same values, mapped the same way, in the streaming writer's
    /// layout, with memory within a few times the input (the tree of a large JSON document of
    /// numbers takes about ten times its text). `false` (nothing written) otherwise.
    /// - Throws: The tool's input failure, naming the file, the format and the place; a
    ///   failure to write the output.
    mutating func streamToBinary(_ data: Data, io: ToolIO) throws(ToolFailure) -> Bool {
        let restore = options.restore
        let limits = options.limits
        // A failure of the conversion, kept apart from the output's own failures.
        var failure: ConvertFailure?
        let written = try streaming(data, to: .binary, io: io) { emit, streamed in
            do throws(JSONToBinaryPropertyList.Failure<ToolFailure>) {
                // Without --restore the mapping returns every string as it is.
                try JSONToBinaryPropertyList.convert(
                    data, limits: limits, stringsUnchanged: restore.isEmpty, pieceSize: 1 << 20, emit: emit
                ) { (value, place) throws(ToolFailure) -> StoredValue in
                    try streamed.scalar(value, to: .binary, restore: restore, path: place)
                }
                return true
            } catch {
                switch error {
                case .reading(let reading): failure = .reading(reading, format: JSONTreeFormat())
                case .writing(let writing): failure = .writing(writing, format: BinaryPropertyListTreeFormat())
                case .transforming(let mapping): failure = .mapping(mapping)
                case .emitting(let emitting): throw emitting
                }
                return false
            }
        }
        if let failure { throw failure.toolFailure(for: options.input) }
        return written
    }

    /// Runs `convert` for a JSON input larger than ``streamingThreshold`` going to a binary
    /// property list, or than ``textStreamingThreshold`` going to XML or JSON,
    /// with the output's pieces going to ``ToolIO/writePieces`` and a mapping of its own, kept
    /// when `convert` returns `true` (the notes of a conversion that stops are not kept: the
    /// tree path makes its own). `false`, with nothing written, for other inputs.
    /// - Throws: A failure to write the output.
    private mutating func streaming(
        _ data: Data, to target: OutputFormat, io: ToolIO,
        _ convert: (_ emit: ([UInt8]) throws -> Void, _ streamed: inout FormatMapping) throws -> Bool
    ) throws(ToolFailure) -> Bool {
        // Dropping a null removes its key or element, which the streaming writers, fed one
        // scalar at a time, cannot do: such conversions go through the tree.
        let threshold = target == .binary ? Self.streamingThreshold : Self.textStreamingThreshold
        guard options.target == target, data.count > threshold, options.nulls != .drop,
            options.source.format(for: data, path: options.input) is JSONTreeFormat
        else { return false }
        var streamed = FormatMapping(roundingNumbers: options.roundsNumbers, nulls: options.nulls)
        let written: Bool
        do {
            // The two closures never call each other back; the rule that forbids passing one
            // non-escaping closure to another cannot see that.
            written = try withoutActuallyEscaping(convert) { convert in
                try io.writePieces(options.output) { emit in try convert(emit, &streamed) }
            }
        } catch {
            throw .input(Document.writeFailure(options.output, error))
        }
        if written { mapping = streamed }
        return written
    }

    /// The converted bytes.
    /// - Throws: The tool's input failure, naming the file, the format and the place.
    mutating func convert(_ data: Data) throws(ToolFailure) -> [UInt8] {
        do throws(ConvertFailure) {
            return try convertTree(data, in: options.source.format(for: data, path: options.input))
        } catch {
            throw error.toolFailure(for: options.input)
        }
    }

    private mutating func convertTree(_ data: Data, in format: any TreeFormat) throws(ConvertFailure) -> [UInt8] {
        let read: StoredValue
        do {
            read = try format.readTree(data, limits: options.limits)
        } catch {
            throw .reading(error, format: format)
        }
        let tree: StoredValue
        do {
            tree = try mapping.map(read, to: options.target, restoring: options.restore)
        } catch {
            throw .mapping(error)
        }
        return try Self.write(tree, as: options.target, limits: options.limits)
    }

    /// `tree` in `format`, nearest values allowed (the mapping notes what it changed).
    static func write(_ tree: StoredValue, as format: OutputFormat, limits: Limits) throws(ConvertFailure) -> [UInt8] {
        do {
            return try format.treeFormat.writeTree(tree, limits: limits, loss: .allow)
        } catch {
            throw .writing(error, format: format.treeFormat)
        }
    }
}

/// Why a conversion failed, as the step that failed saw it.
enum ConvertFailure: Error {
    /// The input is malformed or over a limit.
    case reading(FormatFailure, format: any TreeFormat)
    /// The mapping between JSON and property lists refused a value.
    case mapping(ToolFailure)
    /// The output format cannot hold a value.
    case writing(FormatFailure, format: any TreeFormat)

    /// The tool's message for `path`:
    /// - `FILE: <format> error at <position>: <reason>` for reading;
    /// - `FILE: <reason>` for mapping;
    /// - `FILE: the <format> cannot hold the value at <path>: <reason>` for writing.
    func toolFailure(for path: String, under: [any CodingKey] = []) -> ToolFailure {
        switch self {
        case .reading(let failure, let format):
            return .input(Document.errorLine(path: path, format: format, failure: failure))
        case .mapping(let failure):
            return .input("\(Document.display(path)): \(failure.description)")
        case .writing(let failure, let format):
            let error = RawCodingError(failure, subject: StoredValue.self, under: under)
            let place = error.codingPath.isEmpty ? "" : " at \(Document.shortPath(error))"
            return .input(
                "\(Document.display(path)): the \(format.formatName) cannot hold the value\(place): \(Document.inToolWords(error.reason))"
            )
        }
    }
}
