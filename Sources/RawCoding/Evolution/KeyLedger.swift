import Foundation

/// The keys a model asked for at one dictionary of the stored tree; the others are unknown to
/// it and are kept on write-back.
final class KeyLedger {
    var known: Set<String> = []
    /// The model read every key (a `[String: Value]` dictionary, an enum case).
    var knowsAll = false
    var children: [String: KeyLedger] = [:]
    /// Whether the codec writes the model's keys in snake case (`JSONCodec(keys: .snakeCase)`).
    let snakeCase: Bool

    init(snakeCase: Bool) {
        self.snakeCase = snakeCase
    }

    func child(_ key: String) -> KeyLedger {
        if let existing = children[key] { return existing }
        let child = KeyLedger(snakeCase: snakeCase)
        children[key] = child
        return child
    }

    /// How a stored key stands with the model.
    enum Match {
        /// The model did not ask for it: it is kept on write-back.
        case unknown
        /// The model asked for it; `inner` is the ledger of what it read inside, if it read
        /// inside.
        case known(inner: KeyLedger?)
    }

    /// Whether `storedKey` is a key the model asked for, as the codec writes it: as it is, or in
    /// snake case when the codec converts keys. A key that only looks like a model key in
    /// another convention (`user_name` beside `userName` under default keys) is unknown, so it
    /// is kept on write-back; the codec would not write it.
    func match(_ storedKey: String) -> Match {
        guard snakeCase else {
            return known.contains(storedKey) ? .known(inner: children[storedKey]) : .unknown
        }
        let modelKey = KeyConversion.fromSnakeCase(storedKey)
        guard known.contains(modelKey), KeyConversion.toSnakeCase(modelKey) == storedKey else { return .unknown }
        return .known(inner: children[modelKey])
    }
}
