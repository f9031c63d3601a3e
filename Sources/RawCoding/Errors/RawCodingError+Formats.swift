extension RawCodingError {
    /// The error a codec reports for a reader's or writer's failure while handling `subject`.
    /// `under` comes before the failure's own path: where the failing tree sits in a larger one.
    package init(_ failure: FormatFailure, subject: Any.Type, under: [any CodingKey] = []) {
        self.init(
            kind: failure.kind, typeName: String(reflecting: subject),
            codingPath: under + failure.path.map(\.codingKey),
            reason: failure.reason,
            position: failure.position)
    }
}

extension TreePathStep {
    /// The step as a coding key, for paths in errors and messages.
    var codingKey: any CodingKey {
        switch self {
        case .key(let key): StoredCodingKey(stringValue: key)
        case .index(let index): StoredCodingKey(index: index)
        }
    }
}
