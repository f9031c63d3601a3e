import Foundation

/// The JSON writer as an ``EncodingSink``: the same bytes ``JSONOutput`` writes for the tree
/// the tree path would build.
///
/// A class, so the thread's spare and the encode holding it share one reference instead of
/// copying (and retaining) each buffer. One encode writes into it at a time, so its state is
/// exempt from run-time exclusivity checks.
final class JSONSink: EncodingSink {
    @exclusivity(unchecked) private var pretty: Bool
    private let output: OutputBuffer
    @exclusivity(unchecked) private(set) var valueCount = 0
    @exclusivity(unchecked) private var containers = SinkContainers()

    init(pretty: Bool) {
        self.pretty = pretty
        output = OutputBuffer()
    }

    /// A sink for one encode: the thread's spare, with the capacity its buffers grew to in an
    /// earlier encode, or a new one. Allocating and freeing the buffers was about a tenth of
    /// a settings-sized encode. An encode inside another (a model encoding a value itself)
    /// finds no spare and makes its own.
    static func takingSpare(pretty: Bool) -> JSONSink {
        guard let sink = RecursionGuard.state.spareJSONSink.take() else { return JSONSink(pretty: pretty) }
        sink.pretty = pretty
        return sink
    }

    /// The document, as data; the buffers become the thread's spare unless they are large.
    func finishData() -> Data {
        let data = output.data()
        recycle()
        return data
    }

    /// The document, as a string (the writer writes only valid UTF-8); the buffers become the
    /// thread's spare unless they are large.
    func finishString() -> String {
        let text = String(decoding: output.written, as: UTF8.self)
        recycle()
        return text
    }

    private func recycle() {
        guard output.isSmallEnoughToKeep else { return }
        output.removeAll()
        valueCount = 0
        containers.clear()
        RecursionGuard.state.spareJSONSink = self
    }

    func writeNull() {
        valueCount += 1
        output.appendBytes("null")
    }

    func writeBool(_ value: Bool) {
        valueCount += 1
        output.appendBytes(value ? "true" : "false")
    }

    func writeInt(_ value: Int64) {
        valueCount += 1
        var output = output
        NumberText.append(value, to: &output)
    }

    func writeUInt(_ value: UInt64) {
        valueCount += 1
        var output = output
        NumberText.append(value, to: &output)
    }

    func writeDouble(_ value: Double) {
        valueCount += 1
        var output = output
        NumberText.append(value, to: &output)
    }

    /// JSON numbers cannot hold infinities or NaN.
    func writeNonFinite(_ value: Double) -> Bool { false }

    func writeString(_ value: String) {
        valueCount += 1
        var output = output
        output.appendJSONString(value)
    }

    func writeDecimal(_ value: Decimal) -> Bool {
        guard !value.isNaN else { return false }
        valueCount += 1
        var output = output
        DecimalText.append(value, to: &output)
        return true
    }

    /// JSON has no dates or bytes; the codecs' strategies never ask for them.
    func writeDate(_ value: Date) -> Bool { false }
    func writeData(_ value: Data) -> Bool { false }

    @inline(__always)
    private func newline(_ indent: Int) {
        guard pretty else { return }
        var output = output
        output.appendJSONNewline(indent: indent)
    }

    func beginArray() {
        valueCount += 1
        containers.push(start: output.count)
        output.appendByte(UInt8(ascii: "["))
    }

    func beginElement() {
        if !containers.addMember() { output.appendByte(UInt8(ascii: ",")) }
        newline(containers.depth)
    }

    func endArray() {
        let closed = containers.pop()
        if closed.count > 0 { newline(containers.depth) }
        output.appendByte(UInt8(ascii: "]"))
    }

    func beginDictionary() {
        valueCount += 1
        containers.push(start: output.count)
        output.appendByte(UInt8(ascii: "{"))
    }

    func beginEntry(key: String) {
        if !containers.addMember() { output.appendByte(UInt8(ascii: ",")) }
        newline(containers.depth)
        containers.addEntry(key: key, start: output.count)
        var output = output
        output.appendJSONString(key)
        if pretty { output.appendBytes(" : ") } else { output.appendByte(UInt8(ascii: ":")) }
    }

    func endDictionary() -> Bool {
        let closed = containers.pop()
        let indent = containers.depth
        // A separator is the comma and, pretty, the newline and indent of the next entry.
        let separator = 1 + (pretty ? 1 + 2 * (indent + 1) : 0)
        guard containers.sortEntries(of: closed, in: output.written, separator: separator) else { return false }
        if closed.count > 0 { newline(indent) }
        output.appendByte(UInt8(ascii: "}"))
        return true
    }
}

extension JSONSink: StreamingSink {
    /// A scalar as ``JSONOutput`` writes it for the tool (dates and data never reach here: the
    /// tool's mapping makes them text); what JSON cannot hold is refused.
    func writeScalar(_ value: StoredValue) throws(FormatFailure) {
        switch value {
        case .null: writeNull()
        case .bool(let flag): writeBool(flag)
        case .int(let number): writeInt(number)
        case .uint(let number): writeUInt(number)
        case .double(let number):
            guard number.isFinite else { throw .unwritable("JSON cannot hold the number \(number)") }
            writeDouble(number)
        case .decimal(let number):
            guard writeDecimal(number) else { throw .unwritable("JSON cannot hold a NaN Decimal") }
        case .string(let text): writeString(text)
        case .date, .data, .array, .dictionary: throw .unwritable("not a JSON scalar")
        }
    }

    /// The bytes written so far that nothing later changes, taken out of the output
    /// (``SinkContainers/takeFinished(from:minimum:)``).
    func takeFinished(minimum: Int) -> [UInt8] {
        containers.takeFinished(from: output, minimum: minimum)
    }

    func finish() -> [UInt8]? {
        output.array(upTo: output.count)
    }
}
