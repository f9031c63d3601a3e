/// Bounds every reader enforces on the input it decodes, so that hostile or corrupt input
/// fails quickly with a thrown ``RawCodingError`` (kind ``RawCodingError/Kind/limitExceeded``)
/// instead of exhausting memory, time or the stack.
///
/// ```swift
/// var limits = Limits.default
/// limits.maximumInputBytes = 64 << 20
/// let codec = JSONCodec(limits: limits)
/// ```
///
/// The defaults fit any settings-sized document by a wide margin. Raise them for large
/// documents you trust; lower them for input from outside.
public struct Limits: Hashable, Sendable {
    /// The largest input, in bytes (UTF-8 bytes for text), a reader accepts. Default: 8 MiB.
    public var maximumInputBytes: Int

    /// How deeply arrays and dictionaries may nest. Default: 512, as Foundation's JSON coders.
    ///
    /// This is the format's limit. The stack is checked as well: readers, writers and coders
    /// recurse once per level, and before each level they compare the stack left on the
    /// current thread with a reserve (a quarter of a small stack, at most 40 KiB), throwing
    /// ``RawCodingError/Kind/limitExceeded`` with a reason naming the thread's stack size
    /// rather than overflowing it. Measured on Linux x86_64 in a release build, 300 levels of a
    /// recursive class or enum decode on a 512 KiB thread (Apple's secondary threads, GCD's
    /// workers and Swift concurrency's threads) through every codec; debug builds take three
    /// to four times more stack per level. Whatever this says, no reader goes deeper than
    /// ``depthCeiling`` levels.
    public var maximumDepth: Int

    /// How many values (scalars, arrays and dictionaries, each counted once per place it
    /// appears in the result; in binary property lists dictionary keys too, as they are
    /// objects there) a reader may produce. Default: 4,194,304.
    ///
    /// In a binary property list one object can be referenced many times, so a small file can
    /// describe an enormous tree; this bound stops that expansion. In JSON every value takes at
    /// least two bytes (`0,`), so any JSON text within the default 8 MiB stays within the
    /// default count; raise both together.
    public var maximumValueCount: Int

    /// How many values a binary property list may produce per byte of input, beyond the first
    /// 65,536 values. Default: 1.
    ///
    /// Every value of a file takes at least one byte of it (a reference in its container),
    /// except where a container is shared: its contents then count again at each place it
    /// appears, without any more bytes, so 154 bytes can describe millions of values. A file
    /// without shared containers never exceeds one value per byte; one that does is refused
    /// unless this is raised, so no input makes a reader use memory out of proportion to
    /// its size. JSON and XML text cannot exceed it.
    public var maximumExpansion: Int

    /// Values any input may produce, whatever its size and ``maximumExpansion``.
    public static let expansionFloor = 1 << 16

    /// The deepest nesting any reader or coder accepts, whatever ``maximumDepth`` says.
    public static let depthCeiling = 1_024

    /// Creates limits.
    /// - Parameters:
    ///   - maximumInputBytes: The largest input in bytes. Zero or less accepts no input.
    ///   - maximumDepth: The deepest nesting of arrays and dictionaries.
    ///   - maximumValueCount: The most values a reader produces.
    ///   - maximumExpansion: The most values per byte of input beyond ``expansionFloor``.
    public init(
        maximumInputBytes: Int = 8 << 20, maximumDepth: Int = 512, maximumValueCount: Int = 1 << 22,
        maximumExpansion: Int = 1
    ) {
        self.maximumInputBytes = maximumInputBytes
        self.maximumDepth = maximumDepth
        self.maximumValueCount = maximumValueCount
        self.maximumExpansion = maximumExpansion
    }

    /// The default limits: 8 MiB of input, nesting 512 deep, 4,194,304 values, one value per
    /// byte of input beyond the first 65,536.
    public static let `default` = Limits()

    /// ``maximumDepth`` within ``depthCeiling``.
    var effectiveDepth: Int { Swift.min(maximumDepth, Self.depthCeiling) }

    /// The failure for an input of `byteCount` bytes, over ``maximumInputBytes``.
    func inputSizeFailure(_ byteCount: Int) -> FormatFailure {
        .limit(
            "input is \(byteCount) bytes, over the limit of \(maximumInputBytes) bytes; raise Limits.maximumInputBytes if this input is expected",
            at: InputPosition(byteOffset: max(maximumInputBytes, 0)))
    }

    /// The failure for nesting deeper than allowed.
    func depthFailure(at position: InputPosition) -> FormatFailure {
        .limit("nesting is deeper than \(effectiveDepth) levels (Limits.maximumDepth)", at: position)
    }

    /// The most values an input of `byteCount` bytes may produce: ``maximumValueCount``, and
    /// ``maximumExpansion`` values per byte beyond ``expansionFloor``.
    func valueBound(forInputOf byteCount: Int) -> Int {
        let (expanded, overflow) = max(maximumExpansion, 0).multipliedReportingOverflow(by: byteCount)
        return min(maximumValueCount, max(Self.expansionFloor, overflow ? .max : expanded))
    }

    /// The failure for an input of `byteCount` bytes that expands to more values than
    /// ``maximumExpansion`` allows.
    func expansionFailure(byteCount: Int, at position: InputPosition) -> FormatFailure {
        .limit(
            "the input's shared containers expand to more than \(valueBound(forInputOf: byteCount)) values from \(byteCount) bytes "
                + "(Limits.maximumExpansion: \(maximumExpansion) per byte of input, and at least \(Self.expansionFloor)); "
                + "raise Limits.maximumExpansion (rawcoding: --max-expansion) if this input is expected",
            at: position)
    }

    /// The failure for producing more values than allowed.
    func valueCountFailure(at position: InputPosition) -> FormatFailure {
        .limit("input holds more than \(maximumValueCount) values (Limits.maximumValueCount)", at: position)
    }
}
