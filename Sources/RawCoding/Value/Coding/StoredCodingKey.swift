/// A coding key made at run time: array positions in coding paths (`Index 3`, as Foundation
/// names them), `super`, and converted keys.
package struct StoredCodingKey: CodingKey, Sendable {
    package var stringValue: String
    package var intValue: Int?

    package init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    package init(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }

    package init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    static let superKey = StoredCodingKey(stringValue: "super")
}

/// One step of a coding path, stored without boxing array positions into keys until a path
/// is asked for.
enum CodingPathStep {
    case key(any CodingKey)
    case index(Int)

    var codingKey: any CodingKey {
        switch self {
        case .key(let key): key
        case .index(let index): StoredCodingKey(index: index)
        }
    }
}

/// A node of an encode or decode call: its step below its parent gives its coding path.
protocol CodingPathNode: AnyObject {
    var step: CodingPathStep? { get }
    var parent: Self? { get }
}

extension CodingPathNode {
    /// The steps from the node without a parent (returned too) down to this one.
    func pathFromRoot() -> (steps: [any CodingKey], root: Self) {
        var steps: [any CodingKey] = []
        var root = self
        while true {
            if let step = root.step { steps.append(step.codingKey) }
            guard let parent = root.parent else { break }
            root = parent
        }
        return (steps.reversed(), root)
    }
}
