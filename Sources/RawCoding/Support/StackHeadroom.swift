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
    let floor: UInt
    /// The size of the thread's stack, in bytes; zero when not known.
    let stackSize: Int
    /// The bytes kept free below ``floor``.
    let reserve: Int
    /// Whether locals live on AddressSanitizer's fake stack, so their addresses are mapped
    /// to the real stack first.
    let mapsFakeStack: Bool

    /// Levels a recursion may take before it measures the stack at all: shallow documents,
    /// the common case (a settings value is one or two levels), pay nothing, and this many
    /// levels fit within the reserve in every build. A level of a decode takes about 12 KiB
    /// in a debug build under AddressSanitizer, so eight unchecked levels used most of a
    /// 128 KiB thread before the first measurement, and any frame added to the recursion
    /// overflowed it; measuring costs a few dozen instructions once per call.
    package static let uncheckedDepth = 2

    /// The headroom of the current thread.
    package static func current() -> StackHeadroom {
        let bounds = ThreadStackBounds.current
        var here = address(mappingFakeStack: false)
        var mapsFakeStack = false
        if !bounds.contains(here) {
            here = address(mappingFakeStack: true)
            mapsFakeStack = bounds.contains(here)
        }
        guard bounds.contains(here) else {
            // Not on the thread's own stack (a signal stack, a coroutine): nothing to compare with.
            return StackHeadroom(floor: 0, stackSize: 0, reserve: 0, mapsFakeStack: false)
        }
        let reserve = reserve(forStackOf: bounds.size)
        return StackHeadroom(
            floor: bounds.low + UInt(reserve), stackSize: bounds.size, reserve: reserve, mapsFakeStack: mapsFakeStack)
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
        floor != 0 && Self.address(mappingFakeStack: mapsFakeStack) < floor
    }

    /// The address of a local, near the stack pointer. Under AddressSanitizer the local may be
    /// on its fake stack (see ``AddressSanitizerFakeStack``); `mappingFakeStack` maps it to
    /// the real frame while the local's frame is still live.
    @inline(__always)
    static func address(mappingFakeStack: Bool) -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { pointer in
            let local = UInt(bitPattern: pointer)
            guard mappingFakeStack else { return local }
            return AddressSanitizerFakeStack.realAddress(of: local) ?? local
        }
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

    func contains(_ address: UInt) -> Bool {
        size > 0 && address > low && address <= low + UInt(size)
    }

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
