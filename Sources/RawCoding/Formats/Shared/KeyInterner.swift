import Foundation

/// Remembers the dictionary keys a reader has made, so that the same key read again (every
/// element of an array of records repeats its keys) reuses one `String` instead of validating
/// and allocating a new one.
struct KeyInterner {
    private var known: [Int: String] = [:]
    /// Bounds the table for inputs with many distinct keys.
    private static let capacity = 4_096

    /// The string `bytes` spell, or `nil` when they are not valid UTF-8.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        // Up to 15 UTF-8 bytes a String lives inline, without an allocation: cheaper to make.
        if bytes.count <= 15 { return UTF8Validation.string(bytes) }
        let hash = KeyIndex.hash(bytes: bytes)
        if let string = known[hash], UTF8Validation.spells(string, bytes) { return string }
        guard let made = UTF8Validation.string(bytes) else { return nil }
        if known.count < Self.capacity { known[hash] = made }
        return made
    }
}
