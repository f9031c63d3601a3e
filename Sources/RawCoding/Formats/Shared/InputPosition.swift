/// Where in the input a reader found a problem: the byte offset, and for text formats the
/// line and column.
///
/// ```swift
/// catch let error as RawCodingError {
///     error.position?.line     // 3
///     error.position?.column   // 17
/// }
/// ```
public struct InputPosition: Hashable, Sendable, CustomStringConvertible {
    /// Zero-based offset of the byte where the problem was found.
    public let byteOffset: Int
    /// One-based line number, for text formats; `nil` for binary ones.
    public let line: Int?
    /// One-based column on ``line``, counted in Unicode scalars; `nil` for binary formats.
    public let column: Int?

    /// A position in binary input.
    init(byteOffset: Int) {
        self.byteOffset = byteOffset
        line = nil
        column = nil
    }

    /// A position in text: the line and column are counted from the bytes before `offset`
    /// (only when an error is reported, so reading pays nothing for them).
    init(byteOffset offset: Int, inText bytes: UnsafeBufferPointer<UInt8>) {
        byteOffset = offset
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        self.line = line
        self.column = column
    }

    public var description: String {
        guard let line, let column else { return "byte offset \(byteOffset)" }
        return "line \(line), column \(column) (byte offset \(byteOffset))"
    }
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
        let path: [CodingPathStep]

        init(kind: RawCodingError.Kind, reason: String, position: InputPosition?, path: [CodingPathStep]) {
            self.kind = kind
            self.reason = reason
            self.position = position
            self.path = path
        }
    }

    private let storage: Storage

    init(kind: RawCodingError.Kind, reason: String, position: InputPosition?, path: [CodingPathStep] = []) {
        storage = Storage(kind: kind, reason: reason, position: position, path: path)
    }

    var kind: RawCodingError.Kind { storage.kind }
    var reason: String { storage.reason }
    var position: InputPosition? { storage.position }
    /// For writers: the path to the value the format cannot hold, outermost step first.
    var path: [CodingPathStep] { storage.path }

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

    /// Adds the step a writer was inside when the failure passed through it.
    func inside(_ step: CodingPathStep) -> FormatFailure {
        FormatFailure(kind: kind, reason: reason, position: position, path: [step] + path)
    }
}

extension RawCodingError {
    /// The error a codec reports for a reader's or writer's failure while handling `subject`.
    package init(_ failure: FormatFailure, subject: Any.Type) {
        self.init(
            kind: failure.kind, typeName: String(reflecting: subject),
            codingPath: failure.path.map(\.codingKey), reason: failure.reason,
            position: failure.position)
    }
}
