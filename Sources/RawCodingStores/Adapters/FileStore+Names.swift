import Foundation
import RawCoding

/// How ``FileStore`` names files: one file per key, safe on every file system.
///
/// A key's UTF-8 bytes are kept when they are ASCII letters, digits, `-` or `_`; an uppercase
/// letter gets a `^` in front (so `Theme` and `theme` stay two files on a case-insensitive
/// volume); every other byte, `.` included, becomes `%XX`. So the first `.` of a file name
/// starts its extension, and names that start with `.` are the store's own (`.lock`,
/// `.tmp-…`, `.set-aside/`).
///
/// The one authority on the names of a store's files: keys, set-aside payloads, temporary
/// files and the lock. A file is a key's only if ``fileName(for:)`` gives back exactly its
/// name, so stores with other codecs in the same directory (`theme.json` beside
/// `theme.pretty.json`) and files the store did not make are never taken for keys.
struct FileStoreNames {
    /// Longest file name most file systems allow, in bytes.
    static let maximumNameBytes = 255

    /// The lock every store in the directory takes, whatever its codec.
    static let lockName = ".lock"
    /// The folder of set-aside payloads, shared by the stores in the directory.
    static let setAsideFolder = ".set-aside"
    /// How temporary files start; one present under the lock is a crashed writer's.
    static let temporaryPrefix = ".tmp-"

    /// The codec's extension, without the leading dot.
    let fileExtension: String

    /// A new temporary file's name, unique to this process and call.
    static func temporaryName() -> String {
        "\(temporaryPrefix)\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
    }

    /// The name of the file that holds `key`.
    func fileName(for key: String) throws(RawCodingError) -> String {
        try Self.escaped(key, fileExtension: fileExtension)
    }

    /// The key whose file is `name`, if `name` is exactly the file ``fileName(for:)`` names.
    func key(forFileName name: String) -> String? {
        guard let dot = name.firstIndex(of: "."), name[dot...].dropFirst() == fileExtension,
            let key = Self.key(forEscaped: name[..<dot])
        else { return nil }
        return Self.name(escaping: key, fileExtension: fileExtension) == name ? key : nil
    }

    /// The key of a file of any store in the directory (any extension), for the watcher that
    /// all of them share: a change to `theme.pretty.json` concerns the key `theme`.
    static func key(forAnyStoreFile name: String) -> String? {
        guard let dot = name.firstIndex(of: "."), let key = key(forEscaped: name[..<dot]) else { return nil }
        return Self.name(escaping: key, fileExtension: String(name[dot...].dropFirst())) == name ? key : nil
    }

    /// The id of a payload of `key` set aside at `milliseconds`: `<file name stem>@<ms>-<unique>.<extension>`.
    func setAsideID(for key: String, milliseconds: Int64) throws(RawCodingError) -> String {
        let name = try fileName(for: key)
        let stem = name.dropLast(fileExtension.utf8.count + 1)
        return "\(stem)@\(milliseconds)-\(UUID().uuidString.prefix(8)).\(fileExtension)"
    }

    /// The key and time of a set-aside payload of this store (with this codec's extension).
    func setAside(id: String) -> (key: String, milliseconds: Int64)? {
        guard let at = id.firstIndex(of: "@"), let key = Self.key(forEscaped: id[..<at]),
            Self.name(escaping: key, fileExtension: fileExtension) == String(id[..<at]) + "." + fileExtension
        else { return nil }
        // After the `@`: the time, a `-` and the unique part (no `.` in either), then the extension.
        let rest = id[id.index(after: at)...]
        guard let dot = rest.firstIndex(of: "."), rest[dot...].dropFirst() == fileExtension,
            let dash = rest[..<dot].firstIndex(of: "-"), let milliseconds = Int64(rest[..<dash])
        else { return nil }
        return (key, milliseconds)
    }

    /// The name `key` escapes to, refusing keys no file can be named for.
    private static func escaped(_ key: String, fileExtension: String) throws(RawCodingError) -> String {
        let full = name(escaping: key, fileExtension: fileExtension)
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

    /// The escaped name of `key` with `fileExtension`, whether or not a file can have it.
    private static func name(escaping key: String, fileExtension: String) -> String {
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
        return name + "." + fileExtension
    }

    /// The key an escaped stem stands for, if it decodes (whether it is canonical is the
    /// callers' check: they escape the key again and compare).
    private static func key(forEscaped escaped: Substring) -> String? {
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
