import Foundation

/// The tree-level format layer: one stored format as bytes ⇄ ``StoredValue`` under ``Limits``.
///
/// Codecs are (engine options, a `TreeFormat`, limits); the command-line tool uses formats
/// directly, and stores go through codecs. Formats know nothing of `Codable`.
///
/// The write rule: ``writeTree(_:limits:allowingLoss:depthChecked:)`` refuses, with the path,
/// every tree that ``readTree(_:limits:)`` under the same limits would refuse (too deep, too many values, more
/// bytes than ``Limits/maximumInputBytes``, or a value the format's readers do not take back),
/// so nothing is written that cannot be read back.
package protocol TreeFormat: Sendable {
    /// The format's name for messages: `JSON`, `XML property list`, `binary property list`.
    var formatName: String { get }

    /// Parses a whole input (the size limit already checked).
    func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits) throws(FormatFailure) -> StoredValue

    /// Writes a tree; throws for values the format cannot hold, and with `refusingLoss` for
    /// values it would not give back exactly (a date in JSON, a fraction of a second in XML).
    /// Checks nesting and the output size not at all, and the value count only when
    /// ``countsValuesWhileWriting``.
    func serialize(_ value: StoredValue, limits: Limits, refusingLoss: Bool) throws(FormatFailure) -> [UInt8]

    /// Whether ``serialize(_:limits:)`` itself refuses more values than the limits allow.
    var countsValuesWhileWriting: Bool { get }

    /// The most values, as the reader counts them, that a document of `byteCount` bytes can
    /// hold: when ``Limits/maximumValueCount`` is at least this for the largest allowed input,
    /// the size check alone keeps the count within the limit.
    func mostValues(inBytes byteCount: Int) -> Int

    /// Whether `data` starts the way this format's documents start.
    func recognizes(_ data: Data) -> Bool

}

extension TreeFormat {
    /// Reads a whole input under `limits`.
    package func readTree(_ data: Data, limits: Limits) throws(FormatFailure) -> StoredValue {
        guard data.count <= limits.maximumInputBytes else { throw limits.inputSizeFailure(data.count) }
        let result = data.withUnsafeBytes { raw -> Result<StoredValue, FormatFailure> in
            do throws(FormatFailure) {
                return .success(try parse(raw.bindMemory(to: UInt8.self), limits: limits))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Writes `value`, refusing what ``readTree(_:limits:)`` with the same limits would refuse
    /// and, unless `allowingLoss`, a value the format would not give back exactly.
    ///
    /// `depthChecked` says the tree's nesting is already known to be within
    /// ``Limits/maximumDepth`` (the encoding engine counts at least one level per array or
    /// dictionary, and codecs set its maximum from the limits); then the separate pass over
    /// the tree is skipped when nothing else needs it.
    package func writeTree(
        _ value: StoredValue, limits: Limits, allowingLoss: Bool = false, depthChecked: Bool = false
    ) throws(FormatFailure) -> [UInt8] {
        let countIsBounded =
            countsValuesWhileWriting
            || limits.maximumValueCount >= mostValues(inBytes: max(limits.maximumInputBytes, 0))
        if !(depthChecked && countIsBounded) {
            var census = TreeCensus(limits: limits, format: self)
            try census.visit(value, depth: 0)
        }
        let bytes = try serialize(value, limits: limits, refusingLoss: !allowingLoss)
        guard bytes.count <= limits.maximumInputBytes else {
            throw .overLimit(
                "the \(formatName) output is \(bytes.count) bytes, over the limit of \(limits.maximumInputBytes) bytes its reader takes (Limits.maximumInputBytes)"
            )
        }
        return bytes
    }
}

/// Counts a tree's values and nesting the way the readers count them: every value once per
/// place it appears, and each array or dictionary one level deeper than its container.
struct TreeCensus {
    let limits: Limits
    let maximumDepth: Int
    /// Whether values are counted here; a format that counts while writing (binary, which
    /// also counts keys) does it there.
    let countsValues: Bool
    var count = 0
    var stack = StackCheck()

    init(limits: Limits, format: some TreeFormat) {
        self.limits = limits
        countsValues = !format.countsValuesWhileWriting
        maximumDepth = limits.effectiveDepth
    }

    mutating func visit(_ value: StoredValue, depth: Int) throws(FormatFailure) {
        count += 1
        guard !countsValues || count <= limits.maximumValueCount else {
            throw .overLimit(
                "the tree holds more than \(limits.maximumValueCount) values, more than its reader takes (Limits.maximumValueCount)"
            )
        }
        switch value {
        case .array(let elements):
            guard depth < maximumDepth else { throw depthFailure() }
            guard stack.allows(depth: depth + 1) else { throw stack.measured.failure(depth: depth + 1, at: nil) }
            for (index, element) in elements.enumerated() {
                do {
                    try visit(element, depth: depth + 1)
                } catch {
                    throw error.inside(.index(index))
                }
            }
        case .dictionary(let dictionary):
            guard depth < maximumDepth else { throw depthFailure() }
            guard stack.allows(depth: depth + 1) else { throw stack.measured.failure(depth: depth + 1, at: nil) }
            for entry in dictionary.entries {
                do {
                    try visit(entry.value, depth: depth + 1)
                } catch {
                    throw error.inside(.key(entry.key))
                }
            }
        default:
            break
        }
    }

    func depthFailure() -> FormatFailure {
        .overLimit("nesting is deeper than \(maximumDepth) levels, deeper than its reader takes (Limits.maximumDepth)")
    }
}

/// JSON text (``JSONReader`` and ``JSONWriter``).
package struct JSONTreeFormat: TreeFormat {
    package var formatting: JSONFormatting
    package var sortsKeys: Bool

    package init(formatting: JSONFormatting = .compact, sortsKeys: Bool = true) {
        self.formatting = formatting
        self.sortsKeys = sortsKeys
    }

    package var formatName: String { "JSON" }

    package func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits) throws(FormatFailure) -> StoredValue {
        var parser = JSONParser(bytes: bytes, limits: limits)
        return try parser.parseDocument()
    }

    package func serialize(_ value: StoredValue, limits: Limits, refusingLoss: Bool) throws(FormatFailure) -> [UInt8] {
        try JSONWriter(formatting: formatting, sortsKeys: sortsKeys).writeBytes(value, refusingLoss: refusingLoss)
    }

    package var countsValuesWhileWriting: Bool { false }

    /// A document of n bytes holds at most (n + 1) / 2 values: a scalar takes a byte, and an
    /// array or object its two brackets plus a separator between members.
    package func mostValues(inBytes byteCount: Int) -> Int { (byteCount + 1) / 2 }

    /// Anything that is not a property list is taken for JSON.
    package func recognizes(_ data: Data) -> Bool {
        !BinaryPropertyListTreeFormat().recognizes(data) && !XMLPropertyListTreeFormat().recognizes(data)
    }
}

/// XML property lists (``XMLPropertyListReader`` and ``XMLPropertyListWriter``).
package struct XMLPropertyListTreeFormat: TreeFormat {
    package init() {}

    package var formatName: String { "XML property list" }

    package func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits) throws(FormatFailure) -> StoredValue {
        var parser = XMLPropertyListParser(bytes: bytes, limits: limits)
        return try parser.parseDocument()
    }

    package func serialize(_ value: StoredValue, limits: Limits, refusingLoss: Bool) throws(FormatFailure) -> [UInt8] {
        try XMLPropertyListWriter().writeBytes(value, refusingLoss: refusingLoss)
    }

    package var countsValuesWhileWriting: Bool { false }

    /// Every value takes at least seven bytes (`<true/>`).
    package func mostValues(inBytes byteCount: Int) -> Int { byteCount / 7 + 1 }

    /// The first visible character (after whitespace and a byte-order mark) is `<`.
    package func recognizes(_ data: Data) -> Bool {
        let skipped: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF]
        return data.prefix(64).first(where: { !skipped.contains($0) }) == UInt8(ascii: "<")
    }
}

/// Binary property lists (``BinaryPropertyListReader`` and ``BinaryPropertyListWriter``).
package struct BinaryPropertyListTreeFormat: TreeFormat {
    package init() {}

    package var formatName: String { "binary property list" }

    package func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits) throws(FormatFailure) -> StoredValue {
        var parser = try BinaryPropertyListParser(bytes: bytes, limits: limits)
        let value = try parser.parseRoot()
        // Writers lay out every container on its own, so a file whose containers are shared
        // can describe a tree that takes far more bytes to write than to read (found by fuzzing:
        // 163 bytes describing 13 MB). Such a file is refused when writing it back could exceed
        // the input limit, so nothing is read that cannot be written back. Counted from the file's
        // objects, each once, not by writing: the tree can hold millions of values.
        if parser.sharesContainers {
            let size = try parser.writtenSizeBound()
            if size > limits.maximumInputBytes {
                throw .limit(
                    "the property list shares containers that, written back, could take \(size) bytes, more than the \(limits.maximumInputBytes) allowed (Limits.maximumInputBytes)",
                    at: InputPosition(byteOffset: parser.tableStart))
            }
        }
        return value
    }

    package func serialize(_ value: StoredValue, limits: Limits, refusingLoss: Bool) throws(FormatFailure) -> [UInt8] {
        try BinaryPropertyListWriter().writeBytes(value, maximumValueCount: limits.maximumValueCount)
    }

    /// The layout counts every place a value (or key) appears, as the reader does.
    package var countsValuesWhileWriting: Bool { true }

    package func mostValues(inBytes byteCount: Int) -> Int { Int.max }

    /// The `bplist00` signature.
    package func recognizes(_ data: Data) -> Bool {
        data.starts(with: BinaryPropertyListSpec.signature)
    }
}

/// Format detection, in one place.
package enum TreeFormats {
    /// The format `data` is in: binary property list by its signature, XML property list when
    /// its first visible character is `<`, JSON otherwise.
    package static func detect(_ data: Data) -> any TreeFormat {
        if BinaryPropertyListTreeFormat().recognizes(data) { return BinaryPropertyListTreeFormat() }
        if XMLPropertyListTreeFormat().recognizes(data) { return XMLPropertyListTreeFormat() }
        return JSONTreeFormat()
    }
}
