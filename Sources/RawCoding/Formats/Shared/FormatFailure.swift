/// One step of a path inside a tree or document: a dictionary key or an array index.
enum TreePathStep: Sendable {
    case key(String)
    case index(Int)
}

/// A failure inside a format reader or writer. The codec turns it into a ``RawCodingError``
/// naming the type it was decoding or encoding.
///
/// One reference wide: readers recurse once per nesting level, and every typed `throws` keeps
/// a slot for the error in its frame, so a small error keeps deep nesting within small stacks.
package struct FormatFailure: Error {
    private final class Storage: Sendable {
        let kind: RawCodingError.Kind
        let reason: String
        let position: InputPosition?
        let path: [TreePathStep]
        let endsEarly: Bool

        init(
            kind: RawCodingError.Kind, reason: String, position: InputPosition?, path: [TreePathStep], endsEarly: Bool
        ) {
            self.kind = kind
            self.reason = reason
            self.position = position
            self.path = path
            self.endsEarly = endsEarly
        }
    }

    private let storage: Storage

    init(
        kind: RawCodingError.Kind, reason: String, position: InputPosition?, path: [TreePathStep] = [],
        endsEarly: Bool = false
    ) {
        storage = Storage(kind: kind, reason: reason, position: position, path: path, endsEarly: endsEarly)
    }

    var kind: RawCodingError.Kind { storage.kind }
    var reason: String { storage.reason }
    var position: InputPosition? { storage.position }
    /// The path inside the tree or document to the value that failed, outermost step first.
    var path: [TreePathStep] { storage.path }
    /// Whether the input ended inside a structure (or, in a binary property list, its trailer
    /// is not one): what a file cut short looks like, which the tool says.
    package var endsEarly: Bool { storage.endsEarly }

    @inline(never)
    static func malformed(_ reason: String, at position: InputPosition) -> FormatFailure {
        FormatFailure(kind: .decodingFailed, reason: reason, position: position)
    }

    /// Malformed because the input ends where more was needed: inside a container, string,
    /// element or comment (for a binary property list: a trailer that is not one).
    @inline(never)
    static func endedEarly(_ reason: String, at position: InputPosition) -> FormatFailure {
        FormatFailure(kind: .decodingFailed, reason: reason, position: position, endsEarly: true)
    }

    @inline(never)
    static func limit(_ reason: String, at position: InputPosition) -> FormatFailure {
        FormatFailure(kind: .limitExceeded, reason: reason, position: position)
    }

    /// A tree the writer refuses because its reader, under the same ``Limits``, would.
    @inline(never)
    static func overLimit(_ reason: String) -> FormatFailure {
        FormatFailure(kind: .encodingFailed, reason: reason, position: nil)
    }

    @inline(never)
    static func unwritable(_ reason: String) -> FormatFailure {
        FormatFailure(kind: .encodingFailed, reason: reason, position: nil)
    }

    /// The same failure with `reason` in place of its own (the position, path and kind kept).
    package func reworded(_ reason: String) -> FormatFailure {
        FormatFailure(kind: kind, reason: reason, position: position, path: path, endsEarly: endsEarly)
    }

    /// Adds the step a reader or writer was inside when the failure passed through it.
    @inline(never)
    func inside(_ step: TreePathStep) -> FormatFailure {
        FormatFailure(kind: kind, reason: reason, position: position, path: [step] + path, endsEarly: endsEarly)
    }
}
