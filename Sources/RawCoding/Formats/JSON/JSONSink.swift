import Foundation

/// The JSON writer as an ``EncodingSink``: the same bytes ``JSONOutput`` writes for the tree
/// the tree path would build.
///
/// Entries are written as they come, each after the separator it will have. When a
/// dictionary ends, its entries are put in canonical key order by moving their bytes (the
/// order found once per key list, as the tree writer does); entries already in order stay
/// where they are.
struct JSONSink: EncodingSink {
    /// One dictionary or array being written.
    private struct Open {
        /// Where its first entry begins in ``JSONSink/entries``.
        let firstEntry: Int
        var count = 0
    }

    private(set) var output: JSONOutput
    private(set) var valueCount = 0
    private var open: [Open] = []
    /// The key and first byte of each entry of the open dictionaries, innermost last (apart,
    /// so reading a position retains no key).
    private var keys: [String] = []
    private var starts: [Int] = []
    private var scratch: [UInt8] = []

    init(pretty: Bool) {
        output = JSONOutput(pretty: pretty, sortsKeys: true)
    }

    var byteCount: Int { output.bytes.count }

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
        output.bytes.append(UInt8(ascii: "["))
        open.append(Open(firstEntry: keys.count))
    }

    mutating func beginElement() {
        let innermost = open.count - 1
        if open[innermost].count > 0 { output.bytes.append(UInt8(ascii: ",")) }
        open[innermost].count += 1
        output.newline(innermost + 1)
    }

    mutating func endArray() {
        let closed = open.removeLast()
        if closed.count > 0 { output.newline(open.count) }
        output.bytes.append(UInt8(ascii: "]"))
    }

    mutating func beginDictionary() {
        valueCount += 1
        output.bytes.append(UInt8(ascii: "{"))
        open.append(Open(firstEntry: keys.count))
    }

    mutating func beginEntry(key: String) {
        let innermost = open.count - 1
        if open[innermost].count > 0 { output.bytes.append(UInt8(ascii: ",")) }
        open[innermost].count += 1
        output.newline(innermost + 1)
        keys.append(key)
        starts.append(output.bytes.count)
        output.writeString(key)
        if output.pretty { output.append(" : ") } else { output.bytes.append(UInt8(ascii: ":")) }
    }

    mutating func endDictionary() -> Bool {
        let closed = open.removeLast()
        let indent = open.count
        defer {
            keys.removeLast(closed.count)
            starts.removeLast(closed.count)
        }
        if closed.count > 1 {
            let first = closed.firstEntry
            let (order, repeats) = output.keyOrder.order(count: closed.count) { keys[first + $0] }
            guard !repeats else { return false }
            if !order.indices.elementsEqual(order) { reorder(from: first, count: closed.count, order, indent: indent) }
        }
        if closed.count > 0 { output.newline(indent) }
        output.bytes.append(UInt8(ascii: "}"))
        return true
    }

    /// Rewrites the entries of the dictionary that ends now in `order`; each entry's bytes
    /// run from its key to the separator before the next.
    private mutating func reorder(from first: Int, count: Int, _ order: [Int], indent: Int) {
        let start = starts[first]
        let end = output.bytes.count
        // A separator is the comma and, pretty, the newline and indent of the next entry.
        let separator = 1 + (output.pretty ? 1 + 2 * (indent + 1) : 0)
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: output.bytes[start..<end])
        starts.withUnsafeBufferPointer { starts in
            output.bytes.withUnsafeMutableBufferPointer { bytes in
                scratch.withUnsafeBufferPointer { source in
                    guard let target = bytes.baseAddress, let origin = source.baseAddress else { return }
                    // Every separator of one dictionary is the same bytes: copy the first.
                    let separatorStart = starts[first + 1] - start - separator
                    var position = start
                    for (rank, entry) in order.enumerated() {
                        if rank > 0 {
                            (target + position).update(from: origin + separatorStart, count: separator)
                            position += separator
                        }
                        let from = starts[first + entry] - start
                        let to = entry + 1 < count ? starts[first + entry + 1] - start - separator : end - start
                        (target + position).update(from: origin + from, count: to - from)
                        position += to - from
                    }
                }
            }
        }
    }
}
