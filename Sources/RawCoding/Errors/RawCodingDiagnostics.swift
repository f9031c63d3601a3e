import Foundation

/// Where failures of non-throwing APIs go.
///
/// `RawRepresentable.rawValue` and `init?(rawValue:)` cannot throw, yet encoding and decoding can
/// fail. ``RawCodable`` and ``RawStringCodable`` never drop such a failure: they hand it to the
/// diagnostics handler, then return their documented fallback (`""` for `rawValue`, `nil` for
/// `init?(rawValue:)`).
///
/// Which failures are reported:
/// - `rawValue`: every failure (the value could not be encoded).
/// - `init?(rawValue:)`: the recursion trap only. Returning `nil` for input that does not decode
///   is that initializer's documented contract, so malformed input is not reported; call the
///   throwing counterpart (``RawCodable/init(decoding:)``) to learn why.
///
/// The default handler writes one line per failure to standard error. Replace it for the
/// whole process with ``handler``, or for one task and its child tasks with
/// ``withHandler(_:operation:)`` (useful in tests):
///
/// ```swift
/// RawCodingDiagnostics.handler = { error in logger.error("\(error)") }
/// ```
public enum RawCodingDiagnostics {
    /// A function that receives failures the non-throwing APIs cannot throw.
    public typealias Handler = @Sendable (RawCodingError) -> Void

    /// The default handler: one line on standard error per failure.
    public static let standardError: Handler = { error in
        FileHandle.standardError.write(Data("RawCoding: \(error)\n".utf8))
    }

    /// NSLock rather than `Mutex` (macOS 15 / iOS 18), locked by hand rather than with `withLock`
    /// (macOS 14 / iOS 17): the library runs on older Apple systems too.
    private final class Box: @unchecked Sendable {
        let lock = NSLock()
        var handler: Handler = standardError
    }

    private static let global = Box()

    @TaskLocal private static var scoped: Handler?

    /// The process-wide handler. Setting it replaces ``standardError``.
    public static var handler: Handler {
        get {
            global.lock.lock()
            defer { global.lock.unlock() }
            return global.handler
        }
        set {
            global.lock.lock()
            defer { global.lock.unlock() }
            global.handler = newValue
        }
    }

    /// Runs `operation` with `handler` receiving the failures reported by this task and its
    /// child tasks, instead of the process-wide ``handler``.
    /// - Parameters:
    ///   - handler: Receives each reported failure.
    ///   - operation: The work whose failures go to `handler`.
    /// - Returns: What `operation` returns.
    public static func withHandler<Result>(
        _ handler: @escaping Handler, operation: () throws -> Result
    ) rethrows -> Result {
        try $scoped.withValue(handler, operation: operation)
    }

    /// Sends `error` to the task's handler if one is set, otherwise to the process-wide one.
    static func report(_ error: RawCodingError) {
        (scoped ?? handler)(error)
    }
}
