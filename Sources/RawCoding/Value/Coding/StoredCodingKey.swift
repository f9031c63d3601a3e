/// A coding key made at run time: array positions in coding paths (`Index 3`, as Foundation
/// names them), `super`, and converted keys.
struct StoredCodingKey: CodingKey, Sendable {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }

    init(index: Int) {
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
