import Foundation
import RawCoding

/// One conversion: the path it takes, chosen once from the options and the input, and the
/// mapping's notes. Every failure becomes a ``ConvertFailure`` and is rendered in one place.
struct Conversion {
    /// JSON inputs larger than this go to binary property lists without a tree in between, so
    /// memory stays within a few times the input (the tree of a large JSON document of numbers
    /// takes about ten times its text).
    static let streamingThreshold = 16 << 20

    /// How the bytes get from the input format to the output format.
    enum Path {
        /// Read the whole tree, map it, write it: every format pair.
        case tree
        /// JSON to a binary property list, value by value (``JSONToBinaryPropertyList``), for
        /// large inputs: the same values, mapped the same way, in the streaming writer's layout.
        case streamingToBinary
    }

    let options: ConvertOptions
    private(set) var mapping = FormatMapping()

    init(options: ConvertOptions) {
        self.options = options
    }

    /// Converts `data` to XML piece by piece, writing each piece as it is finished, when it is
    /// JSON larger than ``streamingThreshold`` and the streaming conversion takes it; `false`
    /// (nothing written) otherwise, for ``convert(_:)`` to do it through the tree, which
    /// reports what the streaming conversion stopped at.
    /// - Throws: A failure to write the output.
    mutating func streamToXML(_ data: Data, io: ToolIO) throws(ToolFailure) -> Bool {
        guard options.target == .xml, data.count > Self.streamingThreshold,
            options.source.format(for: data) is JSONTreeFormat
        else { return false }
        let restore = options.restore
        let limits = options.limits
        // The notes of a conversion that stops are not kept: the tree path makes its own.
        var streamed = FormatMapping()
        do {
            let written = try io.writePieces(options.output) { emit in
                do throws(JSONToXMLPropertyList.Stop) {
                    try JSONToXMLPropertyList.convert(data, limits: limits, emit: emit) {
                        (value, place) throws(ToolFailure) -> StoredValue in
                        try streamed.scalar(value, to: .xml, restore: restore, path: place)
                    }
                    return true
                } catch {
                    switch error {
                    case .leftToTree: return false
                    case .emitting(let failure): throw failure
                    }
                }
            }
            if written { mapping = streamed }
            return written
        } catch {
            throw .input("\(options.output): cannot write: \((error as NSError).localizedDescription)")
        }
    }

    /// The path for `data`, read as `format`.
    func path(for data: Data, in format: any TreeFormat) -> Path {
        let streams = options.target == .binary && data.count > Self.streamingThreshold && format is JSONTreeFormat
        return streams ? .streamingToBinary : .tree
    }

    /// The converted bytes.
    /// - Throws: The tool's input failure, naming the file, the format and the place.
    mutating func convert(_ data: Data) throws(ToolFailure) -> [UInt8] {
        // Detected once: the path and the tree reader both follow it.
        let format = options.source.format(for: data)
        do throws(ConvertFailure) {
            switch path(for: data, in: format) {
            case .tree: return try convertTree(data, in: format)
            case .streamingToBinary: return try streamToBinary(data)
            }
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

    private mutating func streamToBinary(_ data: Data) throws(ConvertFailure) -> [UInt8] {
        let restore = options.restore
        do {
            // Without --restore the mapping returns every string as it is.
            return try JSONToBinaryPropertyList.convert(data, limits: options.limits, stringsUnchanged: restore.isEmpty)
            {
                (value, place) throws(ToolFailure) -> StoredValue in
                try mapping.scalar(value, to: .binary, restore: restore, path: place)
            }
        } catch {
            switch error {
            case .reading(let failure): throw .reading(failure, format: JSONTreeFormat())
            case .writing(let failure): throw .writing(failure, format: BinaryPropertyListTreeFormat())
            case .transforming(let failure): throw .mapping(failure)
            }
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
    func toolFailure(for path: String) -> ToolFailure {
        switch self {
        case .reading(let failure, let format):
            return .input(Document.errorLine(path: path, format: format, failure: failure))
        case .mapping(let failure):
            return .input("\(Document.display(path)): \(failure.description)")
        case .writing(let failure, let format):
            let error = RawCodingError(failure, subject: StoredValue.self)
            let place = error.codingPath.isEmpty ? "" : " at \(Document.shortPath(error))"
            return .input(
                "\(Document.display(path)): the \(format.formatName) cannot hold the value\(place): \(error.reason)")
        }
    }
}
