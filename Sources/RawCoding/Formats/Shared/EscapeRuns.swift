import Foundation

/// The text writers' escaping loop: a string's UTF-8 cut into runs written as they are and
/// the single bytes between them that need escaping, found eight bytes at a time.
enum EscapeRuns {
    /// Calls `run` for each stretch of `utf8` holding no byte `isSpecial` takes and `special`
    /// for each such byte, in order. `specials` gives a nonzero word when one of the eight
    /// bytes of its argument may be special (never zero when one is).
    @inline(__always)
    static func split(
        _ utf8: UnsafeBufferPointer<UInt8>, specials: (UInt64) -> UInt64, isSpecial: (UInt8) -> Bool,
        run: (UnsafeBufferPointer<UInt8>) -> Void, special: (UInt8) -> Void
    ) {
        var runStart = 0
        var position = 0
        let raw = UnsafeRawPointer(utf8.baseAddress)
        while position < utf8.count {
            if let raw {
                while utf8.count - position >= 8 {
                    guard specials(raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)) == 0 else { break }
                    position += 8
                }
            }
            guard position < utf8.count else { break }
            let byte = utf8[position]
            position += 1
            guard isSpecial(byte) else { continue }
            run(UnsafeBufferPointer(rebasing: utf8[runStart..<(position - 1)]))
            runStart = position
            special(byte)
        }
        run(UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }

    /// Whether a byte of `utf8` may need escaping (`false` only when none does): its words
    /// given to `specials` eight bytes at a time, the last padded with letters, which no writer
    /// escapes. Most keys and values need no escape, and are then copied whole.
    ///
    /// - Parameter readsPastEnd: Whether the eight bytes after `utf8` may be read (an
    ///   ``OutputBuffer`` keeps that room): the last word is then read whole and its bytes past
    ///   the end masked, instead of copied into a padded word.
    @inline(__always)
    static func mayNeedEscape(
        _ utf8: UnsafeBufferPointer<UInt8>, specials: (UInt64) -> UInt64, readsPastEnd: Bool = false
    ) -> Bool {
        guard let raw = UnsafeRawPointer(utf8.baseAddress) else { return false }
        var position = 0
        var found: UInt64 = 0
        while utf8.count - position >= 8 {
            found |= specials(raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            position += 8
        }
        let rest = utf8.count - position
        if rest > 0 {
            let letters: UInt64 = 0x4141_4141_4141_4141
            if readsPastEnd {
                // Little-endian: the string's bytes are the word's low ones.
                let kept: UInt64 = (1 << (UInt64(rest) * 8)) - 1
                let word = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self).littleEndian
                found |= specials(word & kept | letters & ~kept)
            } else {
                var word = letters
                withUnsafeMutableBytes(of: &word) {
                    $0.copyMemory(from: UnsafeRawBufferPointer(start: raw + position, count: rest))
                }
                found |= specials(word)
            }
        }
        return found != 0
    }

    /// The high bit of each byte of `word` equal to `byte`, and possibly of bytes after one.
    @inline(__always)
    static func matches(_ byte: UInt8, in word: UInt64) -> UInt64 {
        let difference = word ^ (UInt64(byte) &* 0x0101_0101_0101_0101)
        return (difference &- 0x0101_0101_0101_0101) & ~difference & 0x8080_8080_8080_8080
    }
}
