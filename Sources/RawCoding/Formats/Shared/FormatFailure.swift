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

        init(kind: RawCodingError.Kind, reason: String, position: InputPosition?, path: [TreePathStep]) {
            self.kind = kind
            self.reason = reason
            self.position = position
            self.path = path
        }
    }

    private let storage: Storage

    init(kind: RawCodingError.Kind, reason: String, position: InputPosition?, path: [TreePathStep] = []) {
        storage = Storage(kind: kind, reason: reason, position: position, path: path)
    }

    var kind: RawCodingError.Kind { storage.kind }
    var reason: String { storage.reason }
    var position: InputPosition? { storage.position }
    /// The path inside the tree or document to the value that failed, outermost step first.
    var path: [TreePathStep] { storage.path }

    @inline(never)
    static func malformed(_ reason: String, at position: InputPosition) -> FormatFailure {
        FormatFailure(kind: .decodingFailed, reason: reason, position: position)
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

    /// Adds the step a reader or writer was inside when the failure passed through it.
    @inline(never)
    func inside(_ step: TreePathStep) -> FormatFailure {
        FormatFailure(kind: kind, reason: reason, position: position, path: [step] + path)
    }
}
