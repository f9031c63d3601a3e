import Foundation
import RawCoding

/// One step of a key path: a key, an array index, or a plain component (`1` in `files.1`),
/// which is an index in an array and a key in a dictionary, as in plutil.
enum KeyPathStep: Equatable {
    case key(String)
    case index(Int)
    case component(String)

    var codingKey: any CodingKey {
        switch self {
        case .key(let key), .component(let key): StoredCodingKey(stringValue: key)
        case .index(let index): StoredCodingKey(index: index)
        }
    }

    /// The index this step names in an array, if any.
    var arrayIndex: Int? {
        switch self {
        case .index(let index): index
        case .component(let text): text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } ? Int(text) : nil
        case .key: nil
        }
    }

    /// The key this step names in a dictionary, if any.
    var dictionaryKey: String? {
        switch self {
        case .key(let key), .component(let key): key
        case .index: nil
        }
    }

    func value(in tree: StoredValue) -> StoredValue? {
        switch tree {
        case .dictionary(let dictionary): dictionaryKey.flatMap { dictionary[$0] }
        case .array(let elements):
            arrayIndex.flatMap { index in elements.indices.contains(index) ? elements[index] : nil }
        default: nil
        }
    }

    /// Why there is nothing here, for the error line.
    func miss(in tree: StoredValue, at place: String) -> String {
        switch tree {
        case .dictionary:
            guard let key = dictionaryKey else { return "\(place) is a dictionary, not an array" }
            return "\(place) has no key \(TreeView.quoted(key))"
        case .array(let elements):
            guard let index = arrayIndex else {
                return "\(place) is an array, and \(TreeView.quoted(dictionaryKey ?? "")) is not an index"
            }
            return "\(place) has \(elements.count) element(s), so no [\(index)]"
        default:
            return "\(place) is \(KeyPath.article(tree.kindName)) \(tree.kindName), not a dictionary or an array"
        }
    }
}

/// Key paths: rawcoding's (`settings.links[1]["a.b"]`, and `links.1`) and plutil's
/// (`settings.links.1`, `\.` for a dot in a key), and the edits made at one.
enum KeyPath {
    /// `a` or `an` for a kind name.
    static func article(_ word: String) -> String {
        "aeiouAEIOU".contains(word.first ?? "x") ? "an" : "a"
    }

    /// The rendered path of `steps`, for messages: `a.b[1]`.
    static func render(_ steps: some Collection<KeyPathStep>) -> String {
        steps.isEmpty ? "the top level" : CodingPathFormatter.render(steps.map(\.codingKey))
    }

    /// Parses rawcoding's syntax: `a.b[1]["c.d"]`; a plain component of digits (`a.1`) is an
    /// index in an array.
    static func parse(_ text: String, command: String) throws(ToolFailure) -> [KeyPathStep] {
        var steps: [KeyPathStep] = []
        var characters = Substring(text)
        var expectsKey = true
        func bad(_ reason: String) -> ToolFailure {
            .usage("the key path \(text) is not valid: \(reason); see rawcoding \(command) --help")
        }
        while !characters.isEmpty {
            if characters.first == "[" {
                characters.removeFirst()
                if characters.first == "\"" {
                    characters.removeFirst()
                    guard let end = characters.firstIndex(of: "\"") else { throw bad("a quoted key is not closed") }
                    steps.append(.key(String(characters[..<end])))
                    characters = characters[characters.index(after: end)...]
                } else {
                    let digits = characters.prefix { $0.isASCII && $0.isNumber }
                    guard let index = Int(digits) else { throw bad("[ must hold an index or a quoted key") }
                    steps.append(.index(index))
                    characters = characters.dropFirst(digits.count)
                }
                guard characters.first == "]" else { throw bad("a [ is not closed") }
                characters.removeFirst()
                expectsKey = false
            } else if characters.first == "." {
                guard !expectsKey else {
                    throw bad(steps.isEmpty ? "it starts with a dot" : "it has two dots in a row")
                }
                characters.removeFirst()
                expectsKey = true
                if characters.isEmpty { throw bad("it ends with a dot") }
            } else {
                guard expectsKey else { throw bad("a key must follow a dot") }
                let key = characters.prefix { $0 != "." && $0 != "[" }
                steps.append(.component(String(key)))
                characters = characters.dropFirst(key.count)
                expectsKey = false
            }
        }
        return steps
    }

    /// Parses plutil's syntax: components separated by dots, `\.` a dot and `\\` a backslash
    /// inside one. An empty key path is the top level.
    static func parsePlutil(_ text: String) -> [KeyPathStep] {
        guard !text.isEmpty else { return [] }
        var steps: [KeyPathStep] = []
        var current = ""
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "." {
                steps.append(.component(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaped { current.append("\\") }
        steps.append(.component(current))
        return steps
    }

    /// The value at `steps` in `tree`.
    /// - Throws: An input failure naming `file` and what is missing.
    static func value(at steps: [KeyPathStep], in tree: StoredValue, file: String) throws(ToolFailure) -> StoredValue {
        var value = tree
        for (position, step) in steps.enumerated() {
            guard let next = step.value(in: value) else {
                throw .input(
                    "\(Document.display(file)): no value at \(render(steps)): \(step.miss(in: value, at: render(steps.prefix(position))))"
                )
            }
            value = next
        }
        return value
    }

    /// A change at a key path.
    enum Edit {
        /// Adds a value where there is none (in an array, before the element at the index, or
        /// at the end).
        case insert(StoredValue)
        /// Appends to the array at the key path.
        case append(StoredValue)
        /// Sets the value, replacing one that is there.
        case replace(StoredValue)
        /// Removes the value that is there.
        case remove
    }

    /// `tree` with `edit` made at `steps`.
    /// - Throws: An input failure naming `file` and the place when the key path does not lead
    ///   where the edit needs: a missing container, a value already there for an insert, no
    ///   value for a removal, an index out of range.
    static func apply(_ edit: Edit, at steps: [KeyPathStep], in tree: StoredValue, file: String) throws(ToolFailure)
        -> StoredValue
    {
        func failure(_ reason: String) -> ToolFailure { .input("\(Document.display(file)): \(reason)") }
        if case .append(let value) = edit {
            let target = try Self.value(at: steps, in: tree, file: file)
            guard case .array(var elements) = target else {
                throw failure(
                    "cannot append at \(render(steps)): it is \(article(target.kindName)) \(target.kindName), not an array"
                )
            }
            elements.append(value)
            return try apply(.replace(.array(elements)), at: steps, in: tree, file: file)
        }
        guard let last = steps.last else {
            guard case .replace(let value) = edit else {
                throw failure("the key path is empty: name a place inside the document")
            }
            return value
        }
        let parentSteps = Array(steps.dropLast())
        let parent = try Self.value(at: parentSteps, in: tree, file: file)
        let place = render(steps)
        let changed: StoredValue
        switch parent {
        case .dictionary(var dictionary):
            guard let key = last.dictionaryKey else {
                throw failure("\(render(parentSteps)) is a dictionary, so \(place) names no value in it")
            }
            switch edit {
            case .insert(let value):
                guard dictionary[key] == nil else {
                    throw failure("there is already a value at \(place); replace it instead of inserting")
                }
                dictionary[key] = value
            case .replace(let value):
                dictionary[key] = value
            case .remove:
                guard dictionary[key] != nil else { throw failure("no value at \(place) to remove") }
                dictionary[key] = nil
            case .append:
                preconditionFailure("appending is handled above")
            }
            changed = .dictionary(dictionary)
        case .array(var elements):
            guard let index = last.arrayIndex else {
                throw failure("\(render(parentSteps)) is an array, so \(place) must end with an index")
            }
            switch edit {
            case .insert(let value):
                guard index <= elements.count else {
                    throw failure("cannot insert at \(place): the array has \(elements.count) element(s)")
                }
                elements.insert(value, at: index)
            case .replace(let value):
                guard index < elements.count else {
                    throw failure("no element at \(place) to replace: the array has \(elements.count) element(s)")
                }
                elements[index] = value
            case .remove:
                guard index < elements.count else {
                    throw failure("no element at \(place) to remove: the array has \(elements.count) element(s)")
                }
                elements.remove(at: index)
            case .append:
                preconditionFailure("appending is handled above")
            }
            changed = .array(elements)
        default:
            throw failure(
                "\(render(parentSteps)) is \(article(parent.kindName)) \(parent.kindName), not a dictionary or an array"
            )
        }
        return try apply(.replace(changed), at: parentSteps, in: tree, file: file)
    }
}
