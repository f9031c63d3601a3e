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
