extension RawCodingError {
    /// The error a codec reports for a reader's or writer's failure while handling `subject`.
    package init(_ failure: FormatFailure, subject: Any.Type) {
        self.init(
            kind: failure.kind, typeName: String(reflecting: subject),
            codingPath: failure.path.map { step in
                switch step {
                case .key(let key): StoredCodingKey(stringValue: key)
                case .index(let index): StoredCodingKey(index: index)
                }
            },
            reason: failure.reason,
            position: failure.position)
    }
}
