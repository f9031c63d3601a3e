import Foundation

/// The XML property-list writer as an ``EncodingSink``: the same bytes ``XMLOutput`` writes
/// for the tree the tree path would build, refusing what a codec's write refuses.
///
/// A class, so the thread's spare and the encode holding it share one reference instead of
/// copying each buffer. One encode or conversion writes into it at a time, so its state is
/// exempt from run-time exclusivity checks.
final class XMLPropertyListSink: EncodingSink {
    @exclusivity(unchecked) private var output: XMLOutput<OutputBuffer>
    @exclusivity(unchecked) private(set) var valueCount = 0
    @exclusivity(unchecked) private var containers = SinkContainers()
    private static let trailer: StaticString = "</plist>\n"

    /// - Parameter refusingLoss: As ``XMLPropertyListWriter``'s: whether a date with a fraction
    ///   of a second is refused (a codec's write) or written to the second (the tool's, which
    ///   allows the nearest value).
    init(refusingLoss: Bool = true) {
        output = XMLOutput(bytes: OutputBuffer())
        output.refusesLoss = refusingLoss
        output.append(XMLPropertyListWriter.header)
    }

    /// A codec's sink for one encode: the thread's spare, its buffers' capacity kept from an
    /// earlier encode, or a new one (as ``JSONSink/takingSpare(pretty:)``).
    static func takingSpare() -> XMLPropertyListSink {
        guard let sink = RecursionGuard.state.spareXMLSink.take() else { return XMLPropertyListSink() }
        return sink
    }

    /// The bytes written so far that nothing later changes, taken out of the output
    /// (``SinkContainers/takeFinished(from:minimum:)``). Only between values: right after a
    /// value ends, never between a container's start and its first member.
    func takeFinished(minimum: Int) -> [UInt8] {
        containers.takeFinished(from: output.bytes, minimum: minimum)
    }

    /// A scalar the way the tree writer writes it (its refusals as failures); containers are
    /// not scalars and are refused.
    func writeScalar(_ value: StoredValue) throws(FormatFailure) {
        switch value {
        case .array, .dictionary: throw .unwritable("a container is not a scalar")
        default:
            valueCount += 1
            try output.write(value, indent: containers.depth)
        }
    }

    /// The whole document; `nil` where a string or key held U+0000, which the tree writer
    /// refuses with its path.
    func finish() -> [UInt8]? {
        guard !output.wroteNUL else { return nil }
        output.append(Self.trailer)
        return output.bytes.array(upTo: output.bytes.count)
    }

    /// As ``finish()``, as data; the buffers become the thread's spare unless they are large.
    func finishData() -> Data? {
        guard !output.wroteNUL else { return nil }
        output.append(Self.trailer)
        let data = output.bytes.data()
        if output.bytes.isSmallEnoughToKeep {
            output.bytes.removeAll()
            output.append(XMLPropertyListWriter.header)
            valueCount = 0
            containers.clear()
            RecursionGuard.state.spareXMLSink = self
        }
        return data
    }

    func writeNull() {
        valueCount += 1
        output.element(.string, PropertyListNullMarker.text)
    }

    func writeBool(_ value: Bool) {
        valueCount += 1
        output.empty(value ? .true : .false)
    }

    func writeInt(_ value: Int64) {
        valueCount += 1
        output.open(.integer)
        NumberText.append(value, to: &output.bytes)
        output.close(.integer)
    }

    func writeUInt(_ value: UInt64) {
        valueCount += 1
        output.open(.integer)
        NumberText.append(value, to: &output.bytes)
        output.close(.integer)
    }

    func writeDouble(_ value: Double) {
        valueCount += 1
        output.open(.real)
        NumberText.append(value, to: &output.bytes)
        output.close(.real)
    }

    func writeNonFinite(_ value: Double) -> Bool {
        valueCount += 1
        output.open(.real)
        if value.isNaN { output.append("nan") } else { output.append(value < 0 ? "-infinity" : "+infinity") }
        output.close(.real)
        return true
    }

    func writeString(_ value: String) {
        valueCount += 1
        output.element(.string, value)
    }

    /// Property lists have no decimals: a real when one holds it exactly.
    func writeDecimal(_ value: Decimal) -> Bool {
        guard let double = value.exactDouble else { return false }
        if double.isFinite { writeDouble(double) } else { _ = writeNonFinite(double) }
        return true
    }

    func writeDate(_ value: Date) -> Bool {
        guard XMLRefusal.loss(writing: value) == nil, let text = DateText.text(of: value) else { return false }
        valueCount += 1
        output.open(.date)
        output.bytes.appendUTF8(text)
        output.close(.date)
        return true
    }

    func writeData(_ value: Data) -> Bool {
        valueCount += 1
        output.writeData(value, indent: containers.depth)
        return true
    }

    func beginArray() {
        valueCount += 1
        containers.push(start: output.bytes.count)
        output.open(.array)
        output.bytes.appendByte(0x0A)
    }

    func beginElement() {
        _ = containers.addMember()
        output.tabs(containers.depth)
    }

    func endArray() {
        let closed = containers.pop()
        end(closed, .array)
    }

    func beginDictionary() {
        valueCount += 1
        containers.push(start: output.bytes.count)
        output.open(.dict)
        output.bytes.appendByte(0x0A)
    }

    func beginEntry(key: String) {
        _ = containers.addMember()
        containers.addEntry(key: key, start: output.bytes.count)
        output.tabs(containers.depth)
        output.element(.key, key)
        output.tabs(containers.depth)
    }

    func endDictionary() -> Bool {
        let closed = containers.pop()
        // Each entry ends with its value's newline: nothing stands between entries.
        guard containers.sortEntries(of: closed, in: output.bytes.written, separator: 0) else { return false }
        end(closed, .dict)
        return true
    }

    /// The closing tag, or the empty element in place of the opening one.
    private func end(_ closed: SinkContainers.Open, _ tag: PropertyListTag) {
        if closed.count == 0 {
            output.bytes.dropLast(count: output.bytes.count - closed.start)
            output.empty(tag)
        } else {
            output.tabs(containers.depth)
            output.close(tag)
        }
    }
}
