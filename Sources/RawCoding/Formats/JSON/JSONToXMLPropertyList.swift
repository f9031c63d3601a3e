import Foundation

/// JSON text to an XML property list without the tree in between, for the command-line tool's
/// large inputs: the parser walks the document with a stack of open containers, each value goes
/// to an ``XMLPropertyListSink`` as it is read, and the finished part of the output is handed
/// on as it grows, so memory stays near the input's size.
///
/// It writes exactly the bytes the tree path writes (reading the tree, mapping each scalar
/// with the same transform, writing with nearest values allowed), and only those: on anything
/// the tree path would report (malformed input, a limit, a value the transform or the writer
/// refuses, a repeated key, output over the size limit) it stops and says so, and the caller
/// converts through the tree, whose messages are the reference.
package enum JSONToXMLPropertyList {
    /// Why the conversion stopped before the end.
    package enum Stop: Error {
        /// The tree path is to convert this document (and report what it finds).
        case leftToTree
        /// `emit` threw this.
        case emitting(any Error)
    }

    /// Converts `data`, passing every scalar through `transform` (with a function that renders
    /// its path) and every finished piece of output to `emit`, in order. The pieces make the
    /// whole document when the call returns; when it throws, what was emitted is to be
    /// discarded.
    /// - Parameter pieceSize: Finished output is handed on in pieces of at least this many
    ///   bytes (the last piece excepted).
    /// - Throws: ``Stop``.
    package static func convert<TransformFailure: Error>(
        _ data: Data, limits: Limits, pieceSize: Int = 1 << 20, emit: ([UInt8]) throws -> Void,
        transform: (StoredValue, () -> String) throws(TransformFailure) -> StoredValue
    ) throws(Stop) {
        try JSONParser.convert(
            data, into: XMLPropertyListSink(refusingLoss: false), limits: limits, pieceSize: pieceSize, emit: emit,
            transform: transform)
    }
}

/// JSON text to JSON text in the tree writer's form (keys in order, compact or pretty) without
/// the tree in between, for the command-line tool's large inputs, as ``JSONToXMLPropertyList``
/// converts to XML: the same bytes as reading the tree and writing it, and on anything the tree
/// path would report, a ``JSONToXMLPropertyList/Stop/leftToTree`` instead.
package enum JSONToJSON {
    /// Converts `data` as ``JSONToXMLPropertyList/convert(_:limits:pieceSize:emit:transform:)``
    /// does, to JSON that is `pretty` or compact.
    /// - Throws: ``JSONToXMLPropertyList/Stop``.
    package static func convert<TransformFailure: Error>(
        _ data: Data, pretty: Bool, limits: Limits, pieceSize: Int = 1 << 20, emit: ([UInt8]) throws -> Void,
        transform: (StoredValue, () -> String) throws(TransformFailure) -> StoredValue
    ) throws(JSONToXMLPropertyList.Stop) {
        try JSONParser.convert(
            data, into: JSONSink(pretty: pretty), limits: limits, pieceSize: pieceSize, emit: emit, transform: transform
        )
    }
}

/// A writer the JSON reader streams a document into (``JSONParser/stream(into:transform:finished:)``):
/// the bytes of the tree path's writer for the tree it would read, handed on as they are finished.
protocol StreamingSink: EncodingSink {
    /// A scalar as the tree writer writes it (its refusals as failures); containers are refused.
    func writeScalar(_ value: StoredValue) throws(FormatFailure)
    /// The bytes written so far that nothing later changes, taken out of the output; nothing
    /// when fewer than `minimum` are finished. Only between values.
    func takeFinished(minimum: Int) -> [UInt8]
    /// The rest of the document; `nil` where the tree writer would refuse it.
    func finish() -> [UInt8]?
}

extension XMLPropertyListSink: StreamingSink {}

extension JSONParser {
    /// Converts `data` into `sink`, handing finished output to `emit` in pieces of at least
    /// `pieceSize` bytes (see ``JSONToXMLPropertyList/convert(_:limits:pieceSize:emit:transform:)``).
    static func convert<Sink: StreamingSink, TransformFailure: Error>(
        _ data: Data, into sink: Sink, limits: Limits, pieceSize: Int, emit: ([UInt8]) throws -> Void,
        transform: (StoredValue, () -> String) throws(TransformFailure) -> StoredValue
    ) throws(JSONToXMLPropertyList.Stop) {
        typealias Stop = JSONToXMLPropertyList.Stop
        guard data.count <= limits.maximumInputBytes else { throw .leftToTree }
        let result = data.withUnsafeBytes { raw -> Result<Void, Stop> in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self), limits: limits)
            var sink = sink
            var emitted = 0
            func hand(_ piece: [UInt8]) throws(Stop) {
                guard !piece.isEmpty else { return }
                emitted += piece.count
                guard emitted <= limits.maximumInputBytes else { throw .leftToTree }
                do { try emit(piece) } catch { throw .emitting(error) }
            }
            do throws(Stop) {
                try parser.stream(into: &sink, transform: transform) { (sink) throws(Stop) in
                    try hand(sink.takeFinished(minimum: pieceSize))
                }
                guard sink.valueCount <= limits.maximumValueCount else { throw .leftToTree }
                guard let document = sink.finish() else { throw .leftToTree }
                try hand(document)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Writes the document's values to `sink`, calling `finished` after each container ends.
    /// Any failure of the reader, the transform or the sink is ``JSONToXMLPropertyList/Stop/leftToTree``.
    mutating func stream<Sink: StreamingSink, TransformFailure: Error>(
        into sink: inout Sink,
        transform: (StoredValue, () -> String) throws(TransformFailure) -> StoredValue,
        finished: (inout Sink) throws(JSONToXMLPropertyList.Stop) -> Void
    ) throws(JSONToXMLPropertyList.Stop) {
        typealias Stop = JSONToXMLPropertyList.Stop
        // Open containers: whether each is an object, and its current key (for paths).
        var open: [(isObject: Bool, key: String?, count: Int)] = []
        func reading<Value>(_ body: () throws(FormatFailure) -> Value) throws(Stop) -> Value {
            do { return try body() } catch { throw .leftToTree }
        }
        func readKey(_ parser: inout JSONParser, _ sink: inout Sink) throws(Stop) -> String {
            let key = try reading { () throws(FormatFailure) in try parser.parseKey() }
            sink.beginEntry(key: key)
            return key
        }
        try reading { () throws(FormatFailure) in try startDocument() } as Void
        values: while true {
            valueCount += 1
            if valueCount > limits.maximumValueCount || index >= bytes.count { throw .leftToTree }
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[index] == UInt8(ascii: "{")
                try reading { () throws(FormatFailure) in try enterContainer() } as Void
                if isObject { sink.beginDictionary() } else { sink.beginArray() }
                skipWhitespace()
                if index < bytes.count, bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    depth -= 1
                    if isObject {
                        _ = sink.endDictionary()
                    } else {
                        sink.endArray()
                    }
                } else {
                    open.append((isObject, nil, 1))
                    if isObject {
                        open[open.count - 1].key = try readKey(&self, &sink)
                    } else {
                        sink.beginElement()
                    }
                    continue values
                }
            default:
                let scalar = try reading { () throws(FormatFailure) in try parseScalar() } as StoredValue
                let mapped: StoredValue
                do throws(TransformFailure) {
                    mapped = try transform(scalar) { Self.pathText(Self.steps(of: open)) }
                } catch {
                    throw .leftToTree
                }
                try reading { () throws(FormatFailure) in try sink.writeScalar(mapped) }
            }
            // The value is complete: separators and closing brackets up to the next value.
            while let last = open.indices.last {
                let isObject = open[last].isObject
                skipWhitespace()
                guard index < bytes.count else { throw .leftToTree }
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: ",") {
                    skipWhitespace()
                    open[last].count += 1
                    if isObject {
                        open[last].key = try readKey(&self, &sink)
                    } else {
                        sink.beginElement()
                    }
                    continue values
                }
                guard byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { throw .leftToTree }
                open.removeLast()
                depth -= 1
                if isObject {
                    // A repeated key: the tree keeps the last value in the first one's place.
                    guard sink.endDictionary() else { throw .leftToTree }
                } else {
                    sink.endArray()
                }
                try finished(&sink)
            }
            break
        }
        try reading { () throws(FormatFailure) in try endDocument() } as Void
    }

    /// The path steps of the open containers, for the transform's messages.
    private static func steps(of open: [(isObject: Bool, key: String?, count: Int)]) -> [TreePathStep] {
        open.map { container in container.isObject ? .key(container.key ?? "") : .index(container.count - 1) }
    }
}
