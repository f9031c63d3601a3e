import Foundation

/// Strict UTF-8 checking for readers: no overlong forms, no surrogates, nothing past U+10FFFF.
enum UTF8Validation {
    /// The offset of the first byte of the first invalid sequence in `bytes[range]`, or `nil`
    /// when the range is valid UTF-8.
    static func firstInvalidByte(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        let end = range.upperBound
        let base = UnsafeRawPointer(bytes.baseAddress)
        while index < end {
            // ASCII runs eight bytes at a time.
            if let base {
                while end - index >= 8,
                    base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    index += 8
                }
                if index >= end { break }
            }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                upper = 0x9F
            case 0xF0:
                length = 4
                lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                upper = 0x8F
            default: return index
            }
            guard end - index >= length else { return index }
            let second = bytes[index + 1]
            guard second >= lower, second <= upper else { return index }
            for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return index }
            index += length
        }
        return nil
    }

    /// Whether every byte is below 0x80; eight bytes at a time.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            while bytes.count - index >= 8 {
                if base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                    return false
                }
                index += 8
            }
        }
        while index < bytes.count {
            if bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }

    /// The string `bytes` spell, or `nil` when they are not valid UTF-8.
    ///
    /// `String(decoding:as:)` validates as it copies and repairs what is invalid; any repair
    /// changes the bytes, so comparing them with the input (a fast `memcmp`) tells whether the
    /// input was valid without a second validation pass.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let string = String(decoding: bytes, as: UTF8.self)
        return spells(string, bytes) ? string : nil
    }

    /// Whether `string`'s UTF-8 is exactly `bytes`.
    static func spells(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let compared = string.utf8.withContiguousStorageIfAvailable { text in
            guard text.count == bytes.count else { return false }
            guard let a = text.baseAddress, let b = bytes.baseAddress else { return true }
            return memcmp(a, b, text.count) == 0
        }
        return compared ?? string.utf8.elementsEqual(bytes)
    }

    /// Appends the UTF-8 form of `scalar` to `buffer`.
    @inline(__always)
    static func append(_ scalar: UInt32, to buffer: inout [UInt8]) {
        if scalar < 0x80 {
            buffer.append(UInt8(scalar))
            return
        }
        switch scalar {
        case ..<0x800:
            buffer.append(UInt8(0xC0 | (scalar >> 6)))
            buffer.append(UInt8(0x80 | (scalar & 0x3F)))
        case ..<0x10000:
            buffer.append(UInt8(0xE0 | (scalar >> 12)))
            buffer.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            buffer.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            buffer.append(UInt8(0xF0 | (scalar >> 18)))
            buffer.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            buffer.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            buffer.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    /// A description of the byte for error messages, like `0xFF`.
    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return "0x" + String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
    }
}
