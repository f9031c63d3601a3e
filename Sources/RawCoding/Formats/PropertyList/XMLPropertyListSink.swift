import Foundation

/// The XML property-list writer as an ``EncodingSink``: the same bytes ``XMLOutput`` writes
/// for the tree the tree path would build, refusing what a codec's write refuses.
struct XMLPropertyListSink: EncodingSink {
    private var output = XMLOutput()
    private(set) var valueCount = 0
    private var containers = SinkContainers()
    private static let trailer: StaticString = "</plist>\n"

    /// - Parameter refusingLoss: As ``XMLPropertyListWriter``'s: whether a date with a fraction
    ///   of a second is refused (a codec's write) or written to the second (the tool's, which
    ///   allows the nearest value).
    init(refusingLoss: Bool = true) {
        output.refusesLoss = refusingLoss
        output.append(XMLPropertyListWriter.header)
    }

    /// The bytes written so far that nothing later changes, taken out of the output: those
    /// before the first entry of the outermost open dictionary (whose entries may still move
    /// into key order). Only between values: right after a value ends, never between a
    /// container's start and its first member (an empty container may still become an empty
    /// element). Offsets kept for later moves are shifted to match. Nothing is taken when
    /// fewer than `minimum` bytes are finished, so the bytes still open move rarely.
    mutating func takeFinished(minimum: Int) -> [UInt8] {
        let end = containers.finishedPrefix(outputCount: output.bytes.count)
        guard end >= max(minimum, 1) else { return [] }
        let finished = Array(output.bytes[..<end])
        output.bytes.removeFirst(end)
        containers.shift(by: end)
        return finished
    }

    /// A scalar the way the tree writer writes it (its refusals as failures); containers are
    /// not scalars and are refused.
    mutating func writeScalar(_ value: StoredValue) throws(FormatFailure) {
        switch value {
        case .array, .dictionary: throw .unwritable("a container is not a scalar")
        default:
            valueCount += 1
            try output.write(value, indent: containers.depth)
        }
    }

    /// The whole document; `nil` where a string or key held U+0000, which the tree writer
    /// refuses with its path.
    mutating func finish() -> [UInt8]? {
        guard !output.wroteNUL else { return nil }
        output.append(Self.trailer)
        return output.bytes
    }

    mutating func writeNull() {
        valueCount += 1
        output.element(.string, PropertyListNullMarker.text)
    }

    mutating func writeBool(_ value: Bool) {
        valueCount += 1
        output.empty(value ? .true : .false)
    }

    mutating func writeInt(_ value: Int64) {
        valueCount += 1
        output.open(.integer)
        NumberText.append(value, to: &output.bytes)
        output.close(.integer)
    }

    mutating func writeUInt(_ value: UInt64) {
        valueCount += 1
        output.open(.integer)
        NumberText.append(value, to: &output.bytes)
        output.close(.integer)
    }

    mutating func writeDouble(_ value: Double) {
        valueCount += 1
        output.open(.real)
        NumberText.append(value, to: &output.bytes)
        output.close(.real)
    }

    mutating func writeNonFinite(_ value: Double) -> Bool {
        valueCount += 1
        output.open(.real)
        if value.isNaN { output.append("nan") } else { output.append(value < 0 ? "-infinity" : "+infinity") }
        output.close(.real)
        return true
    }

    mutating func writeString(_ value: String) {
        valueCount += 1
        output.element(.string, value)
    }

    /// Property lists have no decimals: a real when one holds it exactly.
    mutating func writeDecimal(_ value: Decimal) -> Bool {
        guard let double = value.exactDouble else { return false }
        if double.isFinite { writeDouble(double) } else { _ = writeNonFinite(double) }
        return true
    }

    mutating func writeDate(_ value: Date) -> Bool {
        guard XMLOutput.loss(writing: value) == nil, let text = DateText.text(of: value) else { return false }
        valueCount += 1
        output.open(.date)
        output.bytes.append(contentsOf: text.utf8)
        output.close(.date)
        return true
    }

    mutating func writeData(_ value: Data) -> Bool {
        valueCount += 1
        output.writeData(value, indent: containers.depth)
        return true
    }

    mutating func beginArray() {
        valueCount += 1
        containers.push(start: output.bytes.count)
        output.open(.array)
        output.bytes.append(0x0A)
    }

    mutating func beginElement() {
        _ = containers.addMember()
        output.tabs(containers.depth)
    }

    mutating func endArray() {
        let closed = containers.pop()
        end(closed, .array)
    }

    mutating func beginDictionary() {
        valueCount += 1
        containers.push(start: output.bytes.count)
        output.open(.dict)
        output.bytes.append(0x0A)
    }

    mutating func beginEntry(key: String) {
        _ = containers.addMember()
        containers.addEntry(key: key, start: output.bytes.count)
        output.tabs(containers.depth)
        output.element(.key, key)
        output.tabs(containers.depth)
    }

    mutating func endDictionary() -> Bool {
        let closed = containers.pop()
        // Each entry ends with its value's newline: nothing stands between entries.
        guard containers.sortEntries(of: closed, in: &output.bytes, separator: 0) else { return false }
        end(closed, .dict)
        return true
    }

    /// The closing tag, or the empty element in place of the opening one.
    private mutating func end(_ closed: SinkContainers.Open, _ tag: PropertyListTag) {
        if closed.count == 0 {
            output.bytes.removeLast(output.bytes.count - closed.start)
            output.empty(tag)
        } else {
            output.tabs(containers.depth)
            output.close(tag)
        }
    }
}
