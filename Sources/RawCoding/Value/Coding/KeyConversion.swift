import Foundation

/// Foundation's key conversions, with the same results as `JSONEncoder` and `JSONDecoder`.
enum KeyConversion {
    /// `myURLValue` → `my_url_value`: a word starts at each uppercase letter that follows a
    /// lowercase one, and at the last uppercase letter of a run that is followed by a
    /// lowercase one; words are lowercased and joined with `_`.
    static func toSnakeCase(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        var words: [Range<String.Index>] = []
        var wordStart = key.startIndex
        var searchRange = key.index(after: wordStart)..<key.endIndex
        while let upperCaseRange = firstCharacter(in: key, searchRange, from: .uppercaseLetters) {
            words.append(wordStart..<upperCaseRange.lowerBound)
            searchRange = upperCaseRange.lowerBound..<searchRange.upperBound
            guard let lowerCaseRange = firstCharacter(in: key, searchRange, from: .lowercaseLetters) else {
                wordStart = searchRange.lowerBound
                break
            }
            let nextCharacterAfterCapital = key.index(after: upperCaseRange.lowerBound)
            if lowerCaseRange.lowerBound == nextCharacterAfterCapital {
                wordStart = upperCaseRange.lowerBound
            } else {
                let beforeLowerIndex = key.index(before: lowerCaseRange.lowerBound)
                words.append(upperCaseRange.lowerBound..<beforeLowerIndex)
                wordStart = beforeLowerIndex
            }
            searchRange = lowerCaseRange.upperBound..<searchRange.upperBound
        }
        words.append(wordStart..<searchRange.upperBound)
        return words.map { key[$0].lowercased() }.joined(separator: "_")
    }

    /// The range of the first character in `range` whose first scalar is in `set`.
    private static func firstCharacter(in key: String, _ range: Range<String.Index>, from set: CharacterSet) -> Range<
        String.Index
    >? {
        guard
            let found = key[range].firstIndex(where: { character in
                character.unicodeScalars.first.map { set.contains($0) } ?? false
            })
        else { return nil }
        return found..<key.index(after: found)
    }

    /// `my_url_value` → `myUrlValue`: leading and trailing underscores are kept, the first word
    /// is lowercased, later words are capitalized; a key without inner underscores is kept.
    static func fromSnakeCase(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        guard let firstNonUnderscore = key.firstIndex(where: { $0 != "_" }) else { return key }
        var lastNonUnderscore = key.index(before: key.endIndex)
        while lastNonUnderscore > firstNonUnderscore, key[lastNonUnderscore] == "_" {
            key.formIndex(before: &lastNonUnderscore)
        }
        let keyRange = firstNonUnderscore...lastNonUnderscore
        let leading = key[key.startIndex..<firstNonUnderscore]
        let trailing = key[key.index(after: lastNonUnderscore)..<key.endIndex]
        let components = key[keyRange].split(separator: "_")
        let joined: String
        if components.count == 1 {
            joined = String(key[keyRange])
        } else {
            joined = ([components[0].lowercased()] + components[1...].map(\.capitalized)).joined()
        }
        return String(leading) + joined + String(trailing)
    }
}

extension KeyConversion {
    /// ``fromSnakeCase(_:)`` on a key's UTF-8, written into `output` (at least as long as
    /// `key`; the result is never longer): the converted key's length, or `nil` where this
    /// byte-wise form does not decide (a key with inner underscores holding anything but ASCII
    /// letters, digits and underscores), which the caller leaves to ``fromSnakeCase(_:)``.
    ///
    /// For ASCII letters and digits, `capitalized` (as swift-foundation defines it) uppercases
    /// a letter that follows no letter in its word and lowercases one that follows a letter; a
    /// digit is not a letter, so a letter after a digit starts over (`2b` → `2B`).
    static func fromSnakeCase(_ key: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>)
        -> Int?
    {
        let underscore = UInt8(ascii: "_")
        guard let first = key.firstIndex(where: { $0 != underscore }) else {
            return copy(key, into: output)
        }
        var last = key.count - 1
        while key[last] == underscore { last -= 1 }
        guard key[first...last].contains(underscore) else { return copy(key, into: output) }
        var count = 0
        for _ in 0..<first {
            output[count] = underscore
            count += 1
        }
        var isFirstWord = true
        var afterLetter = false
        var index = first
        while index <= last {
            let byte = key[index]
            index += 1
            if byte == underscore {
                // A run of underscores ends a word (`split` drops the empty ones between).
                if key[index] != underscore { (isFirstWord, afterLetter) = (false, false) }
                continue
            }
            let lower = byte | 0x20
            if lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") {
                output[count] = isFirstWord || afterLetter ? lower : lower & ~0x20
                afterLetter = true
            } else if byte &- UInt8(ascii: "0") < 10 {
                output[count] = byte
                afterLetter = false
            } else {
                return nil
            }
            count += 1
        }
        for _ in (last + 1)..<key.count {
            output[count] = underscore
            count += 1
        }
        return count
    }

    private static func copy(_ key: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        _ = output.initialize(from: key)
        return key.count
    }
}

extension KeyConversion {
    /// `key` in snake case (``toSnakeCase(_:)``) when that reads back as `key`
    /// (``fromSnakeCase(_:)``), as the encoder must write it; `nil` when it would read back as
    /// another name, which the tree encoder refuses with a message. A key of ASCII letters,
    /// digits and underscores is converted byte by byte, and one already in snake case is
    /// answered as it is, without a new string; any other key through Foundation's conversions.
    static func snakeCaseReadingBack(_ key: String) -> String? {
        let byteWise = key.utf8.withContiguousStorageIfAvailable { bytes -> SnakeCaseOutcome in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4 * bytes.count) { buffer in
                snakeCase(bytes, in: buffer)
            }
        }
        switch byteWise {
        case .unchanged: return key
        case .converted(let converted): return converted
        case .readsBackOtherwise: return nil
        case .undecided, nil:
            let converted = toSnakeCase(key)
            return fromSnakeCase(converted) == key ? converted : nil
        }
    }

    enum SnakeCaseOutcome {
        case unchanged
        case converted(String)
        case readsBackOtherwise
        /// Not ASCII letters, digits and underscores: Foundation's conversions decide.
        case undecided
    }

    /// ``snakeCaseReadingBack(_:)`` for a key's UTF-8, with `buffer` (at least four times as
    /// long) as room for the converted key (at most twice as long) and for reading it back.
    ///
    /// The words are ``toSnakeCase(_:)``'s, found on bytes: one starts at an uppercase letter
    /// after a lowercase letter, digit or underscore run's first uppercase, and, in a run of
    /// uppercase letters followed by a lowercase one, at the run's last letter.
    static func snakeCase(_ key: UnsafeBufferPointer<UInt8>, in buffer: UnsafeMutableBufferPointer<UInt8>)
        -> SnakeCaseOutcome
    {
        func isUpper(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "A") < 26 }
        func isLower(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "a") < 26 }
        var hasUpper = false
        for byte in key {
            guard isUpper(byte) || isLower(byte) || byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "_") else {
                return .undecided
            }
            if isUpper(byte) { hasUpper = true }
        }
        let count = key.count
        var converted = count
        if hasUpper {
            // As `toSnakeCase(_:)`: from the word's start, find the next uppercase letter after
            // it; the first lowercase letter from there decides whether the uppercase run before
            // it is a word of its own.
            var written = 0
            func append(_ start: Int, _ end: Int) {
                if written > 0 {
                    buffer[written] = UInt8(ascii: "_")
                    written += 1
                }
                for index in start..<end {
                    buffer[written] = key[index] | (isUpper(key[index]) ? 0x20 : 0)
                    written += 1
                }
            }
            var wordStart = 0
            var search = 1
            while let upper = (search..<count).first(where: { isUpper(key[$0]) }) {
                append(wordStart, upper)
                guard let lower = (upper..<count).first(where: { isLower(key[$0]) }) else {
                    wordStart = upper
                    search = count
                    break
                }
                if lower == upper + 1 {
                    wordStart = upper
                } else {
                    append(upper, lower - 1)
                    wordStart = lower - 1
                }
                search = lower + 1
            }
            append(wordStart, count)
            converted = written
        } else {
            _ = UnsafeMutableBufferPointer(rebasing: buffer[..<count]).initialize(from: key)
        }
        // Read back into the rest of the buffer (never longer than what it reads).
        let readBack = UnsafeMutableBufferPointer(rebasing: buffer[converted...])
        guard
            let readCount = fromSnakeCase(UnsafeBufferPointer(rebasing: buffer[..<converted]), into: readBack)
        else { return .undecided }
        guard readCount == count, count == 0 || memcmp(readBack.baseAddress!, key.baseAddress!, count) == 0 else {
            return .readsBackOtherwise
        }
        if !hasUpper { return .unchanged }
        return .converted(String(decoding: UnsafeBufferPointer(rebasing: buffer[..<converted]), as: UTF8.self))
    }
}

/// One thread's keys converted to snake case (``KeyConversion/snakeCaseReadingBack(_:)``),
/// found by the key string's own bits: a coding key's `stringValue` is most often a literal,
/// the same bits at every call, so a lookup is a few loads and compares instead of hashing
/// the text. Equal bits are the same string, as the table holds each original (a string
/// object it keeps cannot be freed and its address reused). A key whose slot another took is
/// converted again; the table never grows.
final class SnakeCaseKeyTable {
    private struct Entry {
        var key: String
        /// `nil`: the key would read back as another name.
        var converted: String?
    }

    private static let slots = 256
    private let entries: UnsafeMutablePointer<Entry>

    init() {
        entries = .allocate(capacity: Self.slots)
        // The empty key converts to itself.
        entries.initialize(repeating: Entry(key: "", converted: ""), count: Self.slots)
    }

    deinit {
        entries.deinitialize(count: Self.slots)
        entries.deallocate()
    }

    /// ``KeyConversion/snakeCaseReadingBack(_:)`` of `key`.
    func converted(_ key: String) -> String? {
        let slot = withUnsafeBytes(of: key) { bits in
            var hash: UInt = 0
            for offset in stride(from: 0, to: bits.count, by: MemoryLayout<UInt>.size) {
                hash = (hash ^ bits.loadUnaligned(fromByteOffset: offset, as: UInt.self)) &* 0x9E37_79B9
            }
            return Int(truncatingIfNeeded: hash &>> 8) & (Self.slots - 1)
        }
        if Self.sameBits(entries[slot].key, key) { return entries[slot].converted }
        let converted = KeyConversion.snakeCaseReadingBack(key)
        entries[slot] = Entry(key: key, converted: converted)
        return converted
    }

    private static func sameBits(_ first: String, _ second: String) -> Bool {
        withUnsafeBytes(of: first) { first in
            withUnsafeBytes(of: second) { second in
                for offset in stride(from: 0, to: first.count, by: MemoryLayout<UInt>.size)
                where first.loadUnaligned(fromByteOffset: offset, as: UInt.self)
                    != second.loadUnaligned(fromByteOffset: offset, as: UInt.self)
                {
                    return false
                }
                return true
            }
        }
    }
}
