import Foundation

/// The JSON writer as an ``EncodingSink``: the same bytes ``JSONOutput`` writes for the tree
/// the tree path would build.
struct JSONSink: EncodingSink {
    private(set) var output: JSONOutput
    private(set) var valueCount = 0
    private var containers = SinkContainers()

    init(pretty: Bool) {
        output = JSONOutput(pretty: pretty, sortsKeys: true)
    }

    mutating func writeNull() {
        valueCount += 1
        output.append("null")
    }

    mutating func writeBool(_ value: Bool) {
        valueCount += 1
        output.append(value ? "true" : "false")
    }

    mutating func writeInt(_ value: Int64) {
        valueCount += 1
        NumberText.append(value, to: &output.bytes)
    }

    mutating func writeUInt(_ value: UInt64) {
        valueCount += 1
        NumberText.append(value, to: &output.bytes)
    }

    mutating func writeDouble(_ value: Double) {
        valueCount += 1
        NumberText.append(value, to: &output.bytes)
    }

    /// JSON numbers cannot hold infinities or NaN.
    mutating func writeNonFinite(_ value: Double) -> Bool { false }

    mutating func writeString(_ value: String) {
        valueCount += 1
        output.writeString(value)
    }

    mutating func writeDecimal(_ value: Decimal) -> Bool {
        guard !value.isNaN else { return false }
        valueCount += 1
        output.bytes.append(contentsOf: value.description.utf8)
        return true
    }

    /// JSON has no dates or bytes; the codecs' strategies never ask for them.
    mutating func writeDate(_ value: Date) -> Bool { false }
    mutating func writeData(_ value: Data) -> Bool { false }

    mutating func beginArray() {
        valueCount += 1
        containers.push(start: output.bytes.count)
        output.bytes.append(UInt8(ascii: "["))
    }

    mutating func beginElement() {
        if !containers.addMember() { output.bytes.append(UInt8(ascii: ",")) }
        output.newline(containers.depth)
    }

    mutating func endArray() {
        let closed = containers.pop()
        if closed.count > 0 { output.newline(containers.depth) }
        output.bytes.append(UInt8(ascii: "]"))
    }

    mutating func beginDictionary() {
        valueCount += 1
        containers.push(start: output.bytes.count)
        output.bytes.append(UInt8(ascii: "{"))
    }

    mutating func beginEntry(key: String) {
        if !containers.addMember() { output.bytes.append(UInt8(ascii: ",")) }
        output.newline(containers.depth)
        containers.addEntry(key: key, start: output.bytes.count)
        output.writeString(key)
        if output.pretty { output.append(" : ") } else { output.bytes.append(UInt8(ascii: ":")) }
    }

    mutating func endDictionary() -> Bool {
        let closed = containers.pop()
        let indent = containers.depth
        // A separator is the comma and, pretty, the newline and indent of the next entry.
        let separator = 1 + (output.pretty ? 1 + 2 * (indent + 1) : 0)
        guard containers.sortEntries(of: closed, in: &output.bytes, separator: separator) else { return false }
        if closed.count > 0 { output.newline(indent) }
        output.bytes.append(UInt8(ascii: "}"))
        return true
    }
}
