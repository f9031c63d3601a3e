import Foundation

/// The first place two values differ, found by walking both with `Mirror`.
///
/// The path reads like Swift: `Settings.account.emails[1]`, `Catalog.prices["EUR"]`, an enum
/// case's payload as `.status.suspended.reason`. Stored properties that the encoding leaves out
/// are compared too: that is where a value that does not survive the round trip often differs.
struct ValueDifference: Equatable {
    /// Where the values differ, starting with the root type's name.
    var path: String
    /// The expected value at ``path``, described.
    var expected: String
    /// The other value at ``path``, described.
    var actual: String

    static let maximumDepth = 64
    static let maximumDescriptionLength = 300

    /// The first difference between `expected` and `actual`, or `nil` if the walk finds none.
    static func first(expected: Any, actual: Any, root: String) -> ValueDifference? {
        find(expected, actual, path: root, depth: 0)
    }

    private static func find(_ expected: Any, _ actual: Any, path: String, depth: Int) -> ValueDifference? {
        let leaf = ValueDifference(path: path, expected: describe(expected), actual: describe(actual))
        if ObjectIdentifier(type(of: expected)) != ObjectIdentifier(type(of: actual)) {
            return ValueDifference(
                path: path, expected: "\(leaf.expected) (\(type(of: expected)))",
                actual: "\(leaf.actual) (\(type(of: actual)))")
        }
        let equal = isEqual(expected, actual)
        if equal == true { return nil }
        if depth >= maximumDepth || isAtomic(expected) { return leaf }

        let left = Mirror(reflecting: expected)
        let right = Mirror(reflecting: actual)
        let found: ValueDifference?
        switch left.displayStyle {
        case .optional:
            switch (left.children.first?.value, right.children.first?.value) {
            case (nil, nil): found = nil
            case let (l?, r?): found = find(l, r, path: path, depth: depth + 1)
            default: return leaf
            }
        case .enum:
            let leftCase = caseName(expected, left)
            let rightCase = caseName(actual, right)
            if leftCase != rightCase { return leaf }
            if let l = left.children.first?.value, let r = right.children.first?.value {
                found = find(l, r, path: "\(path).\(leftCase)", depth: depth + 1)
            } else {
                found = nil
            }
        case .collection:
            found = firstInSequence(Array(left.children), Array(right.children), path: path, depth: depth)
        case .dictionary:
            found = firstInDictionary(left, right, path: path, depth: depth)
        case .set:
            found = firstInSet(left, right, path: path)
        default:
            let l = allChildren(left)
            let r = allChildren(right)
            guard l.count == r.count else { return leaf }
            var result: ValueDifference?
            for (index, (lc, rc)) in zip(l, r).enumerated() {
                let label = lc.label ?? ".\(index)"
                let childPath = label.hasPrefix(".") ? "\(path)\(label)" : "\(path).\(label)"
                if let difference = find(lc.value, rc.value, path: childPath, depth: depth + 1) {
                    result = difference
                    break
                }
            }
            found = result
        }
        if let found { return found }
        // Unequal by `==` yet no part differs: the difference is in the value itself. Values that
        // are not Equatable count as equal when they print the same.
        if equal == nil, leaf.expected == leaf.actual { return nil }
        return leaf
    }

    private static func firstInSequence(
        _ left: [Mirror.Child], _ right: [Mirror.Child], path: String, depth: Int
    ) -> ValueDifference? {
        for index in 0..<min(left.count, right.count) {
            if let found = find(left[index].value, right[index].value, path: "\(path)[\(index)]", depth: depth + 1) {
                return found
            }
        }
        guard left.count != right.count else { return nil }
        let index = min(left.count, right.count)
        return ValueDifference(
            path: "\(path)[\(index)]",
            expected: index < left.count ? describe(left[index].value) : "(no element: \(left.count) elements)",
            actual: index < right.count ? describe(right[index].value) : "(no element: \(right.count) elements)")
    }

    private static func firstInDictionary(_ left: Mirror, _ right: Mirror, path: String, depth: Int) -> ValueDifference?
    {
        let l = entries(left)
        let r = entries(right)
        for key in Set(l.keys).union(r.keys).sorted() {
            let keyPath = "\(path)[\(key)]"
            switch (l[key], r[key]) {
            case let (lv?, rv?):
                if let found = find(lv, rv, path: keyPath, depth: depth + 1) { return found }
            case let (lv?, nil):
                return ValueDifference(path: keyPath, expected: describe(lv), actual: "(no entry)")
            case let (nil, rv?):
                return ValueDifference(path: keyPath, expected: "(no entry)", actual: describe(rv))
            case (nil, nil):
                continue
            }
        }
        return nil
    }

    private static func firstInSet(_ left: Mirror, _ right: Mirror, path: String) -> ValueDifference? {
        let l = Set(left.children.map { describe($0.value) })
        let r = Set(right.children.map { describe($0.value) })
        if let missing = l.subtracting(r).sorted().first {
            return ValueDifference(path: path, expected: "contains \(missing)", actual: "does not contain it")
        }
        if let extra = r.subtracting(l).sorted().first {
            return ValueDifference(path: path, expected: "does not contain \(extra)", actual: "contains it")
        }
        return nil
    }

    /// A dictionary's entries keyed by the key's description (Swift dictionaries have no order).
    private static func entries(_ mirror: Mirror) -> [String: Any] {
        var result: [String: Any] = [:]
        for child in mirror.children {
            let pair = Array(Mirror(reflecting: child.value).children)
            guard pair.count == 2 else { continue }
            result[String(reflecting: pair[0].value)] = pair[1].value
        }
        return result
    }

    /// Stored properties including those of superclasses, base class first.
    private static func allChildren(_ mirror: Mirror) -> [Mirror.Child] {
        var chain = [mirror]
        while let parent = chain.last?.superclassMirror { chain.append(parent) }
        return chain.reversed().flatMap { Array($0.children) }
    }

    /// Values shown whole rather than walked: their stored parts (a date's seconds, a URL's
    /// storage) mean nothing to the reader.
    private static func isAtomic(_ value: Any) -> Bool {
        value is String || value is Substring || value is Character || value is Bool || value is any Numeric
            || value is Date || value is URL || value is UUID || value is Decimal || value is Data
    }

    private static func caseName(_ value: Any, _ mirror: Mirror) -> String {
        mirror.children.first?.label ?? String(describing: value)
    }

    /// `==` when the value is `Equatable`, `nil` otherwise.
    private static func isEqual(_ lhs: Any, _ rhs: Any) -> Bool? {
        guard let lhs = lhs as? any Equatable else { return nil }
        return openedIsEqual(lhs, rhs)
    }

    /// `==` on the opened type (a separate name, so the call cannot resolve to the `Any` overload).
    private static func openedIsEqual<Value: Equatable>(_ lhs: Value, _ rhs: Any) -> Bool {
        guard let rhs = rhs as? Value else { return false }
        return lhs == rhs
    }

    /// A short description; dates with their exact seconds, since `Date`'s own description
    /// drops fractions.
    static func describe(_ value: Any) -> String {
        let text: String
        if let date = value as? Date {
            text = "\(date) (\(date.timeIntervalSinceReferenceDate) s since 2001-01-01)"
        } else {
            text = String(reflecting: value)
        }
        guard text.count > maximumDescriptionLength else { return text }
        return text.prefix(maximumDescriptionLength) + "…"
    }
}
