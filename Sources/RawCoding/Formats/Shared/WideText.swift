/// Text in UTF-16 or UTF-32, which JSON (RFC 4627, section 3) and XML property lists may be
/// written in, told from UTF-8 and made UTF-8 for the readers, which read UTF-8 only.
///
/// A byte-order mark names the encoding; without one, the zero bytes among the first four
/// tell it, since both formats start with ASCII characters (`<?` in XML, `{`, `[`, `"`, a
/// digit or a letter in JSON): `00 00 00 xx` is UTF-32BE, `00 xx 00 xx` UTF-16BE,
/// `xx 00 00 00` UTF-32LE and `xx 00 xx 00` UTF-16LE.
///
/// `FE FF 00 00` is read as Foundation's `JSONDecoder` and `PropertyListDecoder` read it: as a
/// mark of UTF-32LE text (whose own mark is `FF FE 00 00`). Read as UTF-16BE, those bytes are
/// its mark and a U+0000, which neither format may start with, so no document means anything
/// else by them.
enum WideText {
    enum Encoding {
        case utf16BigEndian, utf16LittleEndian, utf32BigEndian, utf32LittleEndian

        var unitSize: Int {
            switch self {
            case .utf16BigEndian, .utf16LittleEndian: 2
            case .utf32BigEndian, .utf32LittleEndian: 4
            }
        }

        var name: String {
            switch self {
            case .utf16BigEndian: "UTF-16BE"
            case .utf16LittleEndian: "UTF-16LE"
            case .utf32BigEndian: "UTF-32BE"
            case .utf32LittleEndian: "UTF-32LE"
            }
        }
    }

    /// The wide encoding of `bytes` and the length of its byte-order mark; `nil` for UTF-8
    /// (with or without its mark) and for anything else, which the readers judge.
    static func detect(_ bytes: UnsafeBufferPointer<UInt8>) -> (encoding: Encoding, markLength: Int)? {
        let count = bytes.count
        func byte(_ index: Int) -> UInt8? { index < count ? bytes[index] : nil }
        switch (byte(0), byte(1), byte(2), byte(3)) {
        case (0x00, 0x00, 0xFE, 0xFF): return (.utf32BigEndian, 4)
        case (0xFF, 0xFE, 0x00, 0x00): return (.utf32LittleEndian, 4)
        case (0xFE, 0xFF, 0x00, 0x00): return (.utf32LittleEndian, 4)
        case (0xFE, 0xFF, _, _): return (.utf16BigEndian, 2)
        case (0xFF, 0xFE, _, _): return (.utf16LittleEndian, 2)
        case (0x00, 0x00, 0x00, .some(let fourth)) where fourth != 0: return (.utf32BigEndian, 0)
        case (.some(let first), 0x00, 0x00, 0x00) where first != 0: return (.utf32LittleEndian, 0)
        case (0x00, .some(let second), _, _) where second != 0: return (.utf16BigEndian, 0)
        case (.some(let first), 0x00, _, _) where first != 0: return (.utf16LittleEndian, 0)
        default: return nil
        }
    }

    /// `bytes` (after a mark of `markLength` bytes) as UTF-8; an unpaired surrogate, a value
    /// beyond U+10FFFF or a cut-off last character is an error at its byte offset.
    static func utf8(
        _ bytes: UnsafeBufferPointer<UInt8>, from encoding: Encoding, markLength: Int
    ) throws(FormatFailure) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        let size = encoding.unitSize
        func unit(at offset: Int) -> UInt32 {
            switch encoding {
            case .utf16BigEndian: UInt32(bytes[offset]) << 8 | UInt32(bytes[offset + 1])
            case .utf16LittleEndian: UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset])
            case .utf32BigEndian:
                UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
                    | UInt32(bytes[offset + 3])
            case .utf32LittleEndian:
                UInt32(bytes[offset + 3]) << 24 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 1]) << 8
                    | UInt32(bytes[offset])
            }
        }
        // The mark Foundation reads as UTF-32LE's, though it is not (see the type's comment).
        let mark = markLength == 4 && bytes[0] == 0xFE ? " after the mark FE FF 00 00, read as UTF-32LE's" : ""
        func invalid(_ what: String, at offset: Int) -> FormatFailure {
            .malformed("invalid \(encoding.name) text\(mark): \(what)", at: InputPosition(byteOffset: offset))
        }
        var offset = markLength
        while offset < bytes.count {
            guard offset + size <= bytes.count else {
                throw invalid("the last character is cut off (\(bytes.count - offset) bytes of \(size))", at: offset)
            }
            var scalar = unit(at: offset)
            let start = offset
            offset += size
            if size == 2, (0xD800...0xDBFF).contains(scalar) {
                guard offset + 2 <= bytes.count, case let low = unit(at: offset), (0xDC00...0xDFFF).contains(low) else {
                    throw invalid("a high surrogate without a low one", at: start)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                offset += 2
            }
            guard scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
                throw invalid("U+\(String(scalar, radix: 16, uppercase: true)) is not a character", at: start)
            }
            appendUTF8(scalar, to: &output)
        }
        return output
    }

    /// Appends a Unicode scalar value (not a surrogate, at most U+10FFFF) as UTF-8.
    static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            output.append(UInt8(scalar))
        case ..<0x800:
            output.append(0xC0 | UInt8(scalar >> 6))
            output.append(0x80 | UInt8(scalar & 0x3F))
        case ..<0x10000:
            output.append(0xE0 | UInt8(scalar >> 12))
            output.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            output.append(0x80 | UInt8(scalar & 0x3F))
        default:
            output.append(0xF0 | UInt8(scalar >> 18))
            output.append(0x80 | UInt8(scalar >> 12 & 0x3F))
            output.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            output.append(0x80 | UInt8(scalar & 0x3F))
        }
    }

    /// The first character of wide `bytes` after the mark and spaces, as a code unit (a
    /// surrogate for a character beyond U+FFFF); `nil` for blank input or UTF-8.
    static func firstVisibleUnit(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard let (encoding, markLength) = detect(bytes) else { return nil }
        let size = encoding.unitSize
        var offset = markLength
        while offset + size <= bytes.count {
            let window = Array(bytes[offset..<(offset + size)])
            let unit: UInt32 =
                switch encoding {
                case .utf16BigEndian, .utf32BigEndian: window.reduce(0) { $0 << 8 | UInt32($1) }
                case .utf16LittleEndian, .utf32LittleEndian: window.reversed().reduce(0) { $0 << 8 | UInt32($1) }
                }
            guard [0x20, 0x09, 0x0A, 0x0D].contains(unit) else { return unit }
            offset += size
        }
        return nil
    }

    /// Calls `body` with `bytes` as UTF-8: as they are, or made UTF-8 when they are wide.
    static func withUTF8<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws(FormatFailure) -> Result
    ) throws(FormatFailure) -> Result {
        guard let (encoding, markLength) = detect(bytes) else { return try body(bytes) }
        let converted = try utf8(bytes, from: encoding, markLength: markLength)
        return try converted.withUnsafeBufferPointer { buffer throws(FormatFailure) in try body(buffer) }
    }
}
