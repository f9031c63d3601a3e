import Foundation

/// Where failures of non-throwing APIs go.
///
/// `RawRepresentable.rawValue` and `init?(rawValue:)` cannot throw, yet encoding and decoding can
/// fail. ``RawCodable`` and ``RawStringCodable`` never drop such a failure: they hand it to the
/// diagnostics handler, then return their documented fallback (`""` for `rawValue`, `nil` for
/// `init?(rawValue:)`).
///
/// Which failures are reported, each as an ``Event`` whose ``Event/kind`` says which:
/// - ``Event/Kind/encodingFailed``: `rawValue` could not encode the value.
/// - ``Event/Kind/storedValueDidNotDecode``: `init?(rawValue:)` was given non-empty text that
///   does not decode (malformed, from an older model, over the limits). It still returns `nil`
///   (so `@AppStorage` shows its default), but the stored text and the reason are no longer
///   lost. Empty text is not reported: it is what a failed `rawValue` returned, and that
///   failure was reported already.
/// - ``Event/Kind/recursionTrap``: a type re-entered its own `rawValue` or `init?(rawValue:)`.
/// - ``Event/Kind/writeFailed``: a non-throwing setter (a store's property wrapper) could not
///   store a value; what was stored before is unchanged.
///
/// The default handler, ``standardError``, writes one line per distinct message to standard
/// error and counts repeats instead of printing them (see ``repeatCounts``): a loop that fails
/// 10,000 times the same way writes one line. Replace it for the whole process with
/// ``handler``, or for one task and its child tasks with ``withHandler(_:operation:)`` (useful
/// in tests):
///
/// ```swift
/// RawCodingDiagnostics.handler = { event in logger.error("\(event.kind): \(event.error)") }
/// ```
public enum RawCodingDiagnostics {
    /// One failure a non-throwing API reports.
    public struct Event: Sendable, CustomStringConvertible {
        /// Which non-throwing path failed.
        public struct Kind: Hashable, Sendable, CustomStringConvertible {
            let name: String

            /// `rawValue` could not encode the value; it returned `""`.
            public static let encodingFailed = Kind(name: "encodingFailed")
            /// `init?(rawValue:)` got non-empty stored text that does not decode; it returned `nil`.
            public static let storedValueDidNotDecode = Kind(name: "storedValueDidNotDecode")
            /// A type re-entered its own `rawValue` or `init?(rawValue:)`.
            public static let recursionTrap = Kind(name: "recursionTrap")
            /// A non-throwing setter could not store a value; the stored value is unchanged.
            public static let writeFailed = Kind(name: "writeFailed")
            /// A non-throwing getter could not read the store (an I/O failure, not a payload that
            /// does not decode); it returned the default, and nothing is set aside.
            public static let readFailed = Kind(name: "readFailed")

            public var description: String { name }
        }

        /// Which non-throwing path failed.
        public let kind: Kind
        /// The failure, with its type, coding path and reason.
        public let error: RawCodingError

        /// Creates an event.
        /// - Parameters:
        ///   - kind: Which path failed.
        ///   - error: The failure.
        public init(kind: Kind, error: RawCodingError) {
            self.kind = kind
            self.error = error
        }

        public var description: String { "\(kind): \(error)" }
    }

    /// A function that receives failures the non-throwing APIs cannot throw.
    public typealias Handler = @Sendable (Event) -> Void

    /// The default handler: the first occurrence of each message on one line of standard
    /// error; repeats are counted in ``repeatCounts``, not printed.
    public static let standardError: Handler = { event in
        let message = "RawCoding: \(event)".replacingOccurrences(of: "\n", with: " ")
        guard global.isFirst(message) else { return }
        FileHandle.standardError.write(Data("\(message) (repeats are counted, not printed)\n".utf8))
    }

    /// How many times ``standardError`` has received each message it printed (the printed one
    /// included). Bounded: after 1,024 distinct messages, new ones are printed but not counted.
    public static var repeatCounts: [String: Int] {
        global.lock.lock()
        defer { global.lock.unlock() }
        return global.seen
    }

    /// NSLock rather than `Mutex` (macOS 15 / iOS 18), locked by hand rather than with `withLock`
    /// (macOS 14 / iOS 17): the library runs on older Apple systems too.
    private final class Box: @unchecked Sendable {
        let lock = NSLock()
        var handler: Handler = standardError
        var seen: [String: Int] = [:]

        /// Counts `message`; whether this is its first occurrence.
        func isFirst(_ message: String) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            if let count = seen[message] {
                seen[message] = count + 1
                return false
            }
            if seen.count < 1_024 { seen[message] = 1 }
            return true
        }
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
    ///
    /// For failures that have no caller to throw to: a store that skips a stored entry it
    /// cannot read while listing, or a non-throwing API that falls back. Report what was lost
    /// or skipped, never instead of throwing when a caller is there to catch.
    /// - Parameters:
    ///   - error: What went wrong, with the key first in its coding path for a store.
    ///   - kind: What happened, such as ``Event/Kind/readFailed``.
    public static func report(_ error: RawCodingError, as kind: Event.Kind) {
        (scoped ?? handler)(Event(kind: kind, error: error))
    }
}
