import Foundation

/// Telling the formats apart by their bytes.
package enum TreeFormats {
    /// The format `data` is in: a binary property list by its signature, an XML property list
    /// when its first visible character is `<` (in UTF-8, UTF-16 or UTF-32), an OpenStep property list or `.strings` file
    /// by its start (``OpenStepPropertyListTreeFormat/hasSignature(_:)``), JSON when it starts
    /// as JSON can, and ``UnrecognizedTreeFormat`` otherwise (random bytes, a file of another
    /// kind), whose reading fails saying which formats were tried.
    package static func detect(_ data: Data) -> any TreeFormat {
        if BinaryPropertyListTreeFormat.hasSignature(data) { return BinaryPropertyListTreeFormat() }
        if XMLPropertyListTreeFormat.hasSignature(data) { return XMLPropertyListTreeFormat() }
        if OpenStepPropertyListTreeFormat.hasSignature(data) {
            return OpenStepPropertyListTreeFormat(isGuess: OpenStepPropertyListTreeFormat.startsWithBareWord(data))
        }
        // UTF-16 or UTF-32 that is not an XML property list and starts as JSON can: JSON.
        if let first = data.withUnsafeBytes({ WideText.firstVisibleUnit($0.bindMemory(to: UInt8.self)) }) {
            guard first < 0x80, UnrecognizedTreeFormat.startsJSON(UInt8(first)) else { return UnrecognizedTreeFormat() }
            return JSONTreeFormat()
        }
        guard let first = UnrecognizedTreeFormat.firstVisibleByte(data), UnrecognizedTreeFormat.startsJSON(first) else {
            return UnrecognizedTreeFormat()  // blank input too: no format can tell it is empty better
        }
        return JSONTreeFormat()
    }
}

/// Input that starts like none of the formats: reading it fails, naming them.
package struct UnrecognizedTreeFormat: TreeFormat {
    package init() {}

    package var formatName: String { "input" }

    /// What a failure says when no format fits the input.
    static let noFormat =
        "not JSON, an XML or binary property list, or an OpenStep property list or .strings file (each was tried)"

    package func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits) throws(FormatFailure) -> StoredValue {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard let offset = bytes[start...].firstIndex(where: { !Self.isSpace($0) }) else {
            throw .malformed(
                bytes.isEmpty
                    ? "the input is empty: no JSON value or property list in it"
                    : "the input holds only spaces and line breaks: no JSON value or property list in it",
                at: InputPosition(byteOffset: bytes.count, inText: bytes))
        }
        throw .malformed(
            "\(Self.noFormat): it starts with \(UTF8Validation.hex(bytes[offset]))",
            at: InputPosition(byteOffset: offset, inText: bytes))
    }

    package func serialize(_ value: StoredValue, limits: Limits, loss: LossPolicy) throws(FormatFailure) -> [UInt8] {
        throw .unwritable("no format was recognized to write")
    }

    package var valueCounting: ValueCounting { .boundedBySize(mostValues: { _ in 0 }) }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// The first byte after spaces and a UTF-8 byte-order mark; `nil` for blank input.
    static func firstVisibleByte(_ data: Data) -> UInt8? {
        let start = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        return data.dropFirst(start).first { !isSpace($0) }
    }

    /// Whether a JSON document can start with `byte`.
    static func startsJSON(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            true
        default: false
        }
    }
}
