#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The stack left on the current thread, for the recursive code that must refuse deep input
/// before the stack runs out rather than crash.
///
/// Every reader, writer and coder recurses once per nesting level, and how much stack a level
/// takes depends on the path, the build and the model's own `init(from:)`. A fixed depth
/// cannot be right for both an 8 MiB main thread and a 512 KiB secondary thread (Apple's,
/// GCD's, Swift concurrency's), so each level compares the address of a local with the
/// thread's real stack bottom plus a reserve for the work between two checks (a model's
/// `init(from:)`, a leaf value, building the error). The bottom is found once per thread
/// (`pthread_getattr_np` on Linux, `pthread_get_stackaddr_np` on Darwin) and cached in
/// thread-specific storage, since on Linux's main thread finding it reads `/proc/self/maps`.
package struct StackHeadroom: Sendable {
    /// The lowest address the caller's recursion may reach; zero when the stack is not known
    /// (then only the depth limits apply).
    package let floor: UInt
    /// The thread's stack: its lowest and highest address; zero when not known.
    let bottom: UInt
    let top: UInt
    /// The size of the thread's stack, in bytes; zero when not known.
    package var stackSize: Int { Int(top - bottom) }
    /// The bytes kept free below ``floor``.
    let reserve: Int

    /// Levels a recursion may take before it measures the stack at all: shallow documents,
    /// the common case (a settings value is one or two levels), pay nothing, and this many
    /// levels fit within the reserve in every build. A level of a decode takes about 12 KiB
    /// in a debug build under AddressSanitizer, so eight unchecked levels used most of a
    /// 128 KiB thread before the first measurement, and any frame added to the recursion
    /// overflowed it; measuring costs a few dozen instructions once per call.
    package static let uncheckedDepth = 2

    /// What is known when the current stack is not: nothing is ever exhausted.
    static let unknown = StackHeadroom(floor: 0, bottom: 0, top: 0, reserve: 0)

    /// The headroom of the current thread.
    package static func current() -> StackHeadroom {
        let bounds = ThreadStackBounds.current
        guard bounds.size > 0 else { return .unknown }
        let reserve = reserve(forStackOf: bounds.size)
        let headroom = StackHeadroom(
            floor: bounds.low + UInt(reserve), bottom: bounds.low, top: bounds.low + UInt(bounds.size),
            reserve: reserve)
        // Not on the thread's own stack (a signal stack, a coroutine): nothing to compare with.
        return headroom.addressOnStack() == nil ? .unknown : headroom
    }

    /// What is kept free at the bottom of a stack of `size` bytes: a quarter of a small stack,
    /// at most 40 KiB (checked down to 128 KiB threads, whose 32 KiB held in debug builds and
    /// under both sanitizers).
    static func reserve(forStackOf size: Int) -> Int {
        min(max(size / 4, 16 << 10), 40 << 10)
    }

    /// Whether the stack is used down to the reserve, so one more level must not be started.
    @inline(__always)
    package var isExhausted: Bool {
        guard floor != 0, let here = addressOnStack() else { return false }
        return here < floor
    }

    /// Where the stack is used down to, from the address of a local: that address when it is on
    /// this thread's stack; `nil` when it is not known.
    ///
    /// Under AddressSanitizer a local may live on its fake stack, on the heap (see
    /// ``AddressSanitizerFakeStack``), in one function and on the real stack in the next: the
    /// runtime decides per frame, and falls back to the real stack when its fake one is full.
    /// So every check looks at where this local is, never at where the first one was: an address
    /// outside the thread's stack is mapped to its real frame while the frame is live, and one
    /// that still is not on the stack says nothing (measured: a fuzz thread's first local on the
    /// real stack, a later one on the fake stack below it, read as a 512 KiB stack used up three
    /// levels deep).
    @inline(__always)
    func addressOnStack() -> UInt? {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { stackAddress(of: UInt(bitPattern: $0)) }
    }

    /// `address` when it is on this thread's stack; the real frame it stands for when it is on
    /// AddressSanitizer's fake stack, in a frame still live; otherwise `nil`.
    @inline(__always)
    package func stackAddress(of address: UInt) -> UInt? {
        if address >= bottom, address <= top { return address }
        return realFrame(of: address)
    }

    @inline(never)
    func realFrame(of address: UInt) -> UInt? {
        guard let real = AddressSanitizerFakeStack.realAddress(of: address), real >= bottom, real <= top else {
            return nil
        }
        return real
    }

    /// Why the work stopped, and what to do: names the thread's stack size.
    package func exhaustedReason(depth: Int) -> String {
        "nesting \(depth) levels deep needs more stack than this thread has (a \(Self.describe(stackSize)) stack, "
            + "\(Self.describe(reserve)) of it kept free): handle deeply nested values on a thread with a larger "
            + "stack (Thread.stackSize, or the main thread), or lower Limits.maximumDepth to refuse them sooner"
    }

    /// The failure for a reader or writer that stopped at `depth` levels.
    func failure(depth: Int, at position: InputPosition?) -> FormatFailure {
        FormatFailure(kind: .limitExceeded, reason: exhaustedReason(depth: depth), position: position)
    }

    static func describe(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
    }
}

/// A lazily measured headroom, for recursions that keep their own depth: measured the first
/// time the depth passes ``StackHeadroom/uncheckedDepth``, then compared at every level.
package struct StackCheck: Sendable {
    private var headroom: StackHeadroom?

    package init() {}

    /// Whether a level at `depth` may start.
    @inline(__always)
    package mutating func allows(depth: Int) -> Bool {
        guard depth > StackHeadroom.uncheckedDepth else { return true }
        if headroom == nil { headroom = .current() }
        return !headroom.unsafelyUnwrapped.isExhausted
    }

    /// The headroom measured, for the refusal's message.
    package var measured: StackHeadroom { headroom ?? .current() }
}

/// Under AddressSanitizer (`--sanitize=address`), locals whose address is taken live in
/// frames on its "fake stack" on the heap, so a local's address says nothing of the thread's
/// stack; its runtime maps such an address to the real frame. Looked up by name, present only
/// in sanitized processes.
enum AddressSanitizerFakeStack {
    private typealias CurrentFakeStack = @convention(c) () -> UnsafeMutableRawPointer?
    private typealias AddressInFakeStack =
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
            UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        ) -> UnsafeMutableRawPointer?

    private static let functions: (CurrentFakeStack, AddressInFakeStack)? = {
        let everything = UnsafeMutableRawPointer(bitPattern: 0)
        guard let current = dlsym(everything, "__asan_get_current_fake_stack"),
            let inFake = dlsym(everything, "__asan_addr_is_in_fake_stack")
        else { return nil }
        return (unsafeBitCast(current, to: CurrentFakeStack.self), unsafeBitCast(inFake, to: AddressInFakeStack.self))
    }()

    /// The real stack address of the frame that `address` is in on the fake stack; `nil` when
    /// it is not on one (or no sanitizer runs).
    static func realAddress(of address: UInt) -> UInt? {
        guard let (current, inFake) = functions, let fake = current() else { return nil }
        return inFake(fake, UnsafeMutableRawPointer(bitPattern: address), nil, nil).map { UInt(bitPattern: $0) }
    }
}

/// The current thread's stack, found once per thread.
private struct ThreadStackBounds {
    var low: UInt
    var size: Int

    static var current: ThreadStackBounds {
        if let cached = pthread_getspecific(cacheKey) {
            return cached.load(as: ThreadStackBounds.self)
        }
        let bounds = measure()
        if let storage = malloc(MemoryLayout<ThreadStackBounds>.size) {
            storage.storeBytes(of: bounds, as: ThreadStackBounds.self)
            if pthread_setspecific(cacheKey, storage) != 0 { free(storage) }
        }
        return bounds
    }

    private static func measure() -> ThreadStackBounds {
        #if canImport(Darwin)
            let thread = pthread_self()
            let top = UInt(bitPattern: pthread_get_stackaddr_np(thread))
            let size = pthread_get_stacksize_np(thread)
            guard top > UInt(size) else { return ThreadStackBounds(low: 0, size: 0) }
            return ThreadStackBounds(low: top - UInt(size), size: size)
        #else
            var attributes = pthread_attr_t()
            guard let getAttributes = getThreadAttributes, getAttributes(pthread_self(), &attributes) == 0 else {
                return ThreadStackBounds(low: 0, size: 0)
            }
            defer { pthread_attr_destroy(&attributes) }
            var address: UnsafeMutableRawPointer?
            var size = 0
            guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else {
                return ThreadStackBounds(low: 0, size: 0)
            }
            return ThreadStackBounds(low: UInt(bitPattern: address), size: size)
        #endif
    }
}

#if !canImport(Darwin)
    /// glibc's and musl's `pthread_getattr_np`, which their Swift modules do not export (it is a
    /// GNU extension, declared only under `_GNU_SOURCE`); looked up once by name.
    private let getThreadAttributes: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else { return nil }
        return unsafeBitCast(
            symbol, to: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32).self)
    }()
#endif

/// The thread-specific slot for ``ThreadStackBounds``, freed when its thread ends.
private let cacheKey: pthread_key_t = {
    var key = pthread_key_t()
    // If no key can be made, every lookup misses and the stack is measured each time.
    _ = pthread_key_create(&key) { free($0) }
    return key
}()

/// What a coder throws, inside its `EncodingError` or `DecodingError` (which carry the coding
/// path), when the stack is nearly used up; ``RawCodingError`` reports it as
/// ``RawCodingError/Kind/limitExceeded`` with this reason.
struct StackExhaustion: Error, CustomStringConvertible {
    let reason: String

    var description: String { reason }
}
