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
