/// What a plain decode of a tree asked for, so that a stored decode can tell whether it is
/// what the evolving decode would return (``StoredEvolution/plainWithNothingToFillOrKeep(_:from:codec:)``):
/// the tree's counterpart of the scan's marks (``ScanDecodingContext/askedForEveryKey(at:)``),
/// under the same rules.
final class TreeMarks {
    /// The marks of the decoded tree's root.
    let root = TreeMark()
    /// How many times a keyed container threw `keyNotFound`: where an evolving decode would
    /// fill from a default, and the only place it fills.
    var missedKeys = 0
    /// Whether a tree decoder took these marks: a codec from elsewhere may decode its tree
    /// without one, and then nothing was marked.
    var taken = false

    /// Whether, in `tree`, the model asked for every key of each dictionary it reached through
    /// keys from the root (asking means opening: only a keyed container asks): where the
    /// evolving decode's ledger would find no unknown key. Only dictionaries are looked into,
    /// since nothing inside an array is kept as unknown.
    func askedForEveryKey(in tree: StoredValue) -> Bool {
        taken && Self.askedForEveryKey(in: tree, mark: root)
    }

    private static func askedForEveryKey(in value: StoredValue, mark: TreeMark?) -> Bool {
        guard case .dictionary(let dictionary) = value, !dictionary.isEmpty else { return true }
        guard let mark, dictionary.count <= TreeMark.maximumCount else { return false }
        for position in 0..<dictionary.count {
            guard mark.asked & (1 << position) != 0,
                askedForEveryKey(in: dictionary[position].value, mark: mark.existingChild(at: position))
            else { return false }
        }
        return true
    }
}

/// The marks of one dictionary of a tree: which of its entries (by position) the model asked
/// for, and the marks of the values under them.
final class TreeMark {
    /// Entries beyond this many are not marked: such a dictionary is left to the evolving
    /// decode.
    static let maximumCount = 64

    private(set) var asked: UInt64 = 0
    private var children: [(position: Int, mark: TreeMark)] = []

    func ask(_ position: Int) {
        if position < Self.maximumCount { asked |= 1 << position }
    }

    func existingChild(at position: Int) -> TreeMark? {
        children.first { $0.position == position }?.mark
    }

    /// The marks of the value at `position`, made on first use.
    func child(at position: Int) -> TreeMark {
        if let existing = existingChild(at: position) { return existing }
        let mark = TreeMark()
        children.append((position, mark))
        return mark
    }
}

extension StoredEvolution {
    /// `payload` decoded plainly with `codec`, when that is what the evolving decode would
    /// return: no keyed container was asked for a key it lacks (filling happens only there)
    /// and the model asked for every key of every dictionary the ledger would look into, so
    /// there is nothing to fill and no unknown key to keep (for a caller that keeps unknown
    /// keys; for one that does not, a plain decode that missed nothing is enough). `nil`
    /// otherwise, or when the plain decode fails (the evolving decode that follows throws what
    /// applies), or when the codec's tree decoder did not mark (a codec from elsewhere).
    static func plainWithNothingToFillOrKeep<Value: Decodable>(
        _ type: Value.Type, from payload: StoredValue, codec: some Codec, keepingUnknownKeys: Bool
    ) -> Value? {
        let marks = TreeMarks()
        let state = RecursionGuard.state
        state.pendingTreeMarks = marks
        defer { state.pendingTreeMarks = nil }
        do {
            let value = try codec.decode(type, fromTree: payload)
            guard marks.taken, marks.missedKeys == 0 else { return nil }
            return !keepingUnknownKeys || marks.askedForEveryKey(in: payload) ? value : nil
        } catch {
            // Not swallowed: the evolving decode that follows throws what applies.
            return nil
        }
    }
}
