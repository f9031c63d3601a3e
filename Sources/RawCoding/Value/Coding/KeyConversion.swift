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
