import Foundation
import RawCoding

/// How ``FileStore`` names files: one file per key, safe on every file system.
///
/// A key's UTF-8 bytes are kept when they are ASCII letters, digits, `-` or `_`; an uppercase
/// letter gets a `^` in front (so `Theme` and `theme` stay two files on a case-insensitive
/// volume); every other byte, `.` included, becomes `%XX`. So the first `.` of a file name
/// starts its extension, and names that start with `.` are the store's own (`.lock`,
/// `.tmp-…`, `.set-aside/`).
enum FileStoreNames {
    /// Longest file name most file systems allow, in bytes.
    static let maximumNameBytes = 255

    static func fileName(for key: String, fileExtension: String) throws(RawCodingError) -> String {
        var name = ""
        // Swift finds canonically equivalent strings equal, so they must name one file: NFC.
        for byte in key.precomposedStringWithCanonicalMapping.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"):
                name.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                name += "^"
                name.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                name += "%" + hex(byte)
            }
        }
        let full = name + "." + fileExtension
        guard !key.isEmpty else {
            throw RawCodingError.storage("a key cannot be empty", in: FileStore.self, key: key)
        }
        guard full.utf8.count <= maximumNameBytes - 40 else {
            throw RawCodingError.storage(
                "the key is too long for a file name (\(full.utf8.count) bytes as \"\(full.prefix(40))…\"; "
                    + "at most \(maximumNameBytes - 40) fit); use a shorter key",
                in: FileStore.self, key: key)
        }
        return full
    }

    /// The key a file name stands for, or `nil` for a name this store did not make.
    static func key(forFileName name: String, fileExtension: String) -> String? {
        let suffix = "." + fileExtension
        guard !name.hasPrefix("."), name.hasSuffix(suffix) else { return nil }
        return key(forEscaped: Substring(name.dropLast(suffix.count)))
    }

    static func key(forEscaped escaped: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(escaped.utf8).makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next(), let low = iterator.next(),
                    let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
            case UInt8(ascii: "^"):
                guard let letter = iterator.next(), (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(letter) else {
                    return nil
                }
                bytes.append(letter)
            default:
                bytes.append(byte)
            }
        }
        return String(bytes: bytes, encoding: .utf8)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
