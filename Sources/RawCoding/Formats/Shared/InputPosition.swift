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
    /// - Parameter byteOffset: Zero-based offset of the byte.
    public init(byteOffset: Int) {
        self.byteOffset = byteOffset
        line = nil
        column = nil
    }

    /// A position in text.
    /// - Parameters:
    ///   - byteOffset: Zero-based offset of the byte.
    ///   - line: One-based line number.
    ///   - column: One-based column on that line, in Unicode scalars.
    public init(byteOffset: Int, line: Int, column: Int) {
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
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
