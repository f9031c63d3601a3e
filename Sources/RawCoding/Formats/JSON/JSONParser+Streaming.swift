import Foundation

/// JSON text to a binary property list without the tree in between: the parser walks the
/// document with a stack of open containers instead of recursion, and each value goes to a
/// ``StreamingBinaryPropertyListWriter`` as soon as it is complete. For documents too large to
/// hold as a tree (the command-line tool's large inputs).
package enum JSONToBinaryPropertyList {
    /// Why a conversion failed, told apart where each failure happens.
    package enum Failure<TransformFailure: Error>: Error {
        /// The JSON is malformed or over a reader's limit: what ``JSONReader`` with the same
        /// limits reports, with its position and path.
        case reading(FormatFailure)
        /// A value the property list cannot hold, or more than its reader would take, with
        /// its path.
        case writing(FormatFailure)
        /// What the transform threw.
        case transforming(TransformFailure)
        /// What `emit` threw (``JSONToBinaryPropertyList/convert(_:limits:stringsUnchanged:pieceSize:emit:transform:)``).
        case emitting(any Error)

        /// The failure as seen from outside a container at `step`.
        func inside(_ step: TreePathStep) -> Self {
            switch self {
            case .reading(let failure): .reading(failure.inside(step))
            case .writing(let failure): .writing(failure.inside(step))
            case .transforming, .emitting: self
            }
        }

        /// Runs a step of the reader, marking its failure as reading.
        @inline(__always)
        static func whileReading<Value>(_ body: () throws(FormatFailure) -> Value) throws(Self) -> Value {
            do { return try body() } catch { throw .reading(error) }
        }

        /// Runs a step of the writer, marking its failure as writing.
        @inline(__always)
        static func whileWriting<Value>(_ body: () throws(FormatFailure) -> Value) throws(Self) -> Value {
            do { return try body() } catch { throw .writing(error) }
        }
    }

    /// Converts `data`, passing every scalar through `transform` (with a function that renders
    /// its path, such as `a.b[1]`) before it is written; with `stringsUnchanged` (the transform
    /// returns every string as it is), short strings without escapes skip it.
    /// - Throws: ``Failure``: reading for malformed JSON and the reader's limits, writing for a
    ///   value a property list cannot hold, transforming for what `transform` throws.
    package static func convert<TransformFailure: Error>(
        _ data: Data, limits: Limits, stringsUnchanged: Bool = false,
        transform: (StoredValue, () -> String) throws(TransformFailure) -> StoredValue
    ) throws(Failure<TransformFailure>) -> [UInt8] {
        var whole: [UInt8] = []
        try convert(
            data, limits: limits, stringsUnchanged: stringsUnchanged, pieceSize: .max,
            emit: { piece in whole = piece }, transform: transform)
        return whole
    }

    /// ``convert(_:limits:stringsUnchanged:transform:)``, handing each finished piece of the
    /// output to `emit` in order as soon as it is at least `pieceSize` bytes long (the last
    /// piece excepted), so the output is never held whole; when the call throws, what was
    /// emitted is to be discarded. With `pieceSize` `.max`, `emit` gets the whole file once.
    /// - Throws: ``Failure``, `emitting` for what `emit` threw.
    package static func convert<TransformFailure: Error>(
        _ data: Data, limits: Limits, stringsUnchanged: Bool = false, pieceSize: Int,
        emit: ([UInt8]) throws -> Void,
        transform: (StoredValue, () -> String) throws(TransformFailure) -> StoredValue
    ) throws(Failure<TransformFailure>) {
        guard data.count <= limits.maximumInputBytes else { throw .reading(limits.inputSizeFailure(data.count)) }
        let result = data.withUnsafeBytes { raw -> Result<Void, Failure<TransformFailure>> in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self), limits: limits)
            // Binary output of a JSON document of numbers and short strings is about its size;
            // the offset table adds up to a fifth.
            var writer = StreamingBinaryPropertyListWriter(
                maximumPlaces: limits.maximumValueCount,
                expectedSize: pieceSize == .max ? data.count * 2 + (1 << 20) : pieceSize + pieceSize / 2)
            func hand(_ piece: [UInt8]) throws(Failure<TransformFailure>) {
                guard !piece.isEmpty else { return }
                do { try emit(piece) } catch { throw .emitting(error) }
            }
            do throws(Failure<TransformFailure>) {
                let root = try parser.stream(into: &writer, stringsUnchanged: stringsUnchanged, transform: transform) {
                    (writer) throws(Failure<TransformFailure>) in
                    try hand(writer.takeFinished(minimum: pieceSize))
                }
                try hand(writer.finish(root: root))
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }
}

extension JSONParser {
    /// An open array or object: the numbers of the values (and keys) written so far.
    struct OpenContainer {
        let isObject: Bool
        var values: [UInt32] = []
        var keys: [UInt32] = []
        /// The key of the value being read, as text or as where its bytes are in the input
        /// (made into text only for a path); `nil` until it has been read.
        var key: String?
        var keyBytes: Range<Int>?
        /// Whether a value is being read (not the separator after one), for error paths: a
        /// failure between values is the container's, as the recursive reader reports it.
        var readingValue = true

        /// The path step of the value being read, with the input `bytes` the key is in.
        func step(in bytes: UnsafeBufferPointer<UInt8>) -> TreePathStep? {
            guard readingValue else { return nil }
            guard isObject else { return .index(values.count) }
            if let key { return .key(key) }
            return keyBytes.map { .key(String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self)) }
        }
    }

    /// Writes the document's values to `writer`, calling `finished` after each container ends;
    /// the root object's number.
    mutating func stream<TransformFailure: Error>(
        into writer: inout StreamingBinaryPropertyListWriter, stringsUnchanged: Bool,
        transform: (StoredValue, () -> String) throws(TransformFailure) -> StoredValue,
        finished: (inout StreamingBinaryPropertyListWriter) throws(JSONToBinaryPropertyList.Failure<TransformFailure>)
            -> Void
    ) throws(JSONToBinaryPropertyList.Failure<TransformFailure>) -> UInt32 {
        typealias Failure = JSONToBinaryPropertyList.Failure<TransformFailure>
        try Failure.whileReading { () throws(FormatFailure) in try startDocument() } as Void
        var open: [OpenContainer] = []
        var root: UInt32 = 0
        do throws(Failure) {
            values: while true {
                valueCount += 1
                if valueCount > limits.maximumValueCount || index >= bytes.count { throw .reading(valueFailure()) }
                try Failure.whileWriting { () throws(FormatFailure) in try writer.countPlaces(1) } as Void
                var completed: UInt32
                switch bytes[index] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let isObject = bytes[index] == UInt8(ascii: "{")
                    try Failure.whileReading { () throws(FormatFailure) in try enterContainer() } as Void
                    skipWhitespace()
                    if index < bytes.count, bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        index += 1
                        depth -= 1
                        completed = try Failure.whileWriting { () throws(FormatFailure) in
                            isObject ? try writer.dictionary(keys: [], values: []) : try writer.array([])
                        }
                    } else {
                        open.append(OpenContainer(isObject: isObject))
                        if isObject {
                            try readKey(into: &open[open.count - 1], writer: &writer, failing: TransformFailure.self)
                        }
                        continue values
                    }
                case UInt8(ascii: "\""):
                    // A short string without escapes, when the transform leaves strings as they
                    // are: its bytes, shared by the writer without a `String` when it repeats.
                    guard stringsUnchanged,
                        let plain = parsePlainString(upTo: StreamingBinaryPropertyListWriter.sharedLength)
                    else { fallthrough }
                    completed = try Failure.whileWriting { () throws(FormatFailure) in
                        try writer.string(utf8: UnsafeBufferPointer(rebasing: bytes[plain]))
                    }
                default:
                    let scalar =
                        try Failure.whileReading { () throws(FormatFailure) in try parseScalar() } as StoredValue
                    let mapped: StoredValue
                    do throws(TransformFailure) {
                        mapped = try transform(
                            scalar, { [bytes] in Self.pathText(open.compactMap { $0.step(in: bytes) }) })
                    } catch {
                        throw .transforming(error)
                    }
                    completed = try Failure.whileWriting { () throws(FormatFailure) in try writer.scalar(mapped) }
                }
                // The value is complete: add it to its container, closing those that end here.
                while !open.isEmpty {
                    let last = open.count - 1
                    open[last].values.append(completed)
                    open[last].readingValue = false
                    let isObject = open[last].isObject
                    skipWhitespace()
                    let expected = isObject ? "',' or '}'" : "',' or ']'"
                    guard index < bytes.count else { throw .reading(unexpected(at: index, expecting: expected)) }
                    let byte = bytes[index]
                    index += 1
                    if byte == UInt8(ascii: ",") {
                        skipWhitespace()
                        open[last].key = nil
                        open[last].keyBytes = nil
                        if isObject { try readKey(into: &open[last], writer: &writer, failing: TransformFailure.self) }
                        open[last].readingValue = true
                        continue values
                    }
                    guard byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                        throw .reading(unexpected(at: index - 1, expecting: expected))
                    }
                    let container = open.removeLast()
                    depth -= 1
                    completed = try Failure.whileWriting { () throws(FormatFailure) in
                        isObject
                            ? try writer.dictionary(keys: container.keys, values: container.values)
                            : try writer.array(container.values)
                    }
                    try finished(&writer)
                }
                root = completed
                break
            }
        } catch {
            var located = error
            for step in open.reversed().compactMap({ $0.step(in: bytes) }) { located = located.inside(step) }
            throw located
        }
        try Failure.whileReading { () throws(FormatFailure) in try endDocument() } as Void
        return root
    }

    /// Reads `"key":` and writes the key. Not generic over the transform's failure (a key is
    /// not transformed): a generic one looked up its failure type's metadata for every key.
    mutating func readKey<TransformFailure: Error>(
        into container: inout OpenContainer, writer: inout StreamingBinaryPropertyListWriter,
        failing _: TransformFailure.Type
    ) throws(JSONToBinaryPropertyList.Failure<TransformFailure>) {
        do throws(JSONToBinaryPropertyList.Failure<Never>) {
            try readKey(into: &container, writer: &writer)
        } catch {
            switch error {
            case .reading(let failure): throw .reading(failure)
            case .writing(let failure): throw .writing(failure)
            case .emitting(let failure): throw .emitting(failure)
            }
        }
    }

    private mutating func readKey(
        into container: inout OpenContainer, writer: inout StreamingBinaryPropertyListWriter
    ) throws(JSONToBinaryPropertyList.Failure<Never>) {
        typealias Failure = JSONToBinaryPropertyList.Failure<Never>
        // A short key without escapes goes to the writer as its bytes: most keys repeat, and a
        // repeated one then costs no `String`.
        let plain = try Failure.whileReading { () throws(FormatFailure) in
            try parsePlainKey(upTo: StreamingBinaryPropertyListWriter.sharedLength)
        }
        let written: UInt32
        if let plain {
            (container.key, container.keyBytes) = (nil, plain)
            written = try Failure.whileWriting { () throws(FormatFailure) -> UInt32 in
                try writer.countPlaces(1)
                return try writer.string(utf8: UnsafeBufferPointer(rebasing: bytes[plain]))
            }
        } else {
            let key = try Failure.whileReading { () throws(FormatFailure) in try parseKey() }
            (container.key, container.keyBytes) = (key, nil)
            written = try Failure.whileWriting { () throws(FormatFailure) -> UInt32 in
                try writer.countPlaces(1)
                return try writer.string(key)
            }
        }
        container.keys.append(written)
    }

    /// `a.b[1]`, `<top level>` for none.
    static func pathText(_ steps: [TreePathStep]) -> String {
        CodingPathFormatter.render(steps.map(\.codingKey))
    }
}
