#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Frees a thread's ``RecursionGuard/State`` when the thread ends.
private func releaseState(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    Unmanaged<RecursionGuard.State>.fromOpaque(pointer).release()
}

/// Per-thread bookkeeping that turns the `rawValue` ⇄ `encode(to:)` recursion trap into a
/// thrown ``RawCodingError``.
///
/// Encoding and decoding are synchronous, so everything one coding operation does happens on
/// one thread. The guard records, per thread, which ``RawStringCodable`` types are inside their
/// own `rawValue` (encoding) or `init?(rawValue:)` (decoding). Seeing a type enter again is the
/// trap. Because `rawValue` cannot throw, a trap found there is parked as *pending* and thrown
/// by the nearest enclosing throwing scope (a codec call, or the protocol's default
/// `encode(to:)`/`init(from:)`); with no such scope it goes to ``RawCodingDiagnostics``.
@usableFromInline
enum RecursionGuard {
    enum Direction: Sendable {
        case encoding, decoding
    }

    final class State {
        var encoding: [ObjectIdentifier: Int] = [:]
        var decoding: [ObjectIdentifier: Int] = [:]
        var throwingScopes = 0
        /// Scopes that throw a read failure of `init?(rawValue:)` themselves.
        var readScopes = 0
        var parkedFailure: RawCodingError?
        /// This thread's conformances found so far (``TypeTraits``).
        let traits = TypeTraitsTable()
        /// The key orders this thread's writers found (``KeyOrder``).
        let keyOrders = KeyOrderCache()
        /// The snake-case keys this thread's sink encodes wrote, made by the first.
        lazy var snakeCaseKeys = SnakeCaseKeyTable()
        /// Marks for the next tree decoder made on this thread to take
        /// (``StoredEvolution/plainWithNothingToFillOrKeep(_:from:codec:)``).
        var pendingTreeMarks: TreeMarks?
        /// The JSON sink this thread's next encode takes (``JSONSink/takingSpare(pretty:)``).
        @exclusivity(unchecked) var spareJSONSink: JSONSink?
        /// The XML property-list sink this thread's next encode takes.
        @exclusivity(unchecked) var spareXMLSink: XMLPropertyListSink?
        /// The binary property-list sink this thread's next encode takes.
        @exclusivity(unchecked) var spareBinarySink: BinaryPropertyListSink?
        /// The sink options this thread's last property-list encodes made, per layout.
        @exclusivity(unchecked) var propertyListSinkOptions: (xml: SinkOptions?, binary: SinkOptions?)
        /// The sink options this thread's last JSON encode made, and for which codec
        /// (``JSONCodec/sinkOptions``).
        @exclusivity(unchecked) var lastJSONSinkOptions: JSONCodec.LastSinkOptions?
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // The destructor's parameter is optional on Linux and not on Darwin; passing it on to a
        // function taking an optional compiles on both.
        let status = pthread_key_create(&key) { releaseState($0) }
        precondition(status == 0, "pthread_key_create failed (\(status)): out of thread-specific keys")
        return key
    }()

    static var state: State {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<State>.fromOpaque(pointer).takeUnretainedValue()
        }
        let state = State()
        pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
        return state
    }

    /// Whether `type` is already inside its own `rawValue`/`init?(rawValue:)` on this thread.
    static func isActive(_ type: Any.Type, _ direction: Direction) -> Bool {
        let state = state
        let id = ObjectIdentifier(type)
        switch direction {
        case .encoding: return state.encoding[id, default: 0] > 0
        case .decoding: return state.decoding[id, default: 0] > 0
        }
    }

    /// Runs `body` with `type` marked active in `direction` on this thread, and unmarked after,
    /// however `body` ends. When `type` is already active, `body` does not run: that is the
    /// trap, returned as a failure of kind ``RawCodingError/Kind/recursionTrap``.
    static func whileActive<Result>(
        _ type: Any.Type, _ direction: Direction, _ body: () throws(RawCodingError) -> Result
    ) -> Swift.Result<Result, RawCodingError> {
        let state = state
        let id = ObjectIdentifier(type)
        switch direction {
        case .encoding:
            guard state.encoding[id, default: 0] == 0 else { return .failure(trapError(type, direction)) }
            state.encoding[id, default: 0] += 1
        case .decoding:
            guard state.decoding[id, default: 0] == 0 else { return .failure(trapError(type, direction)) }
            state.decoding[id, default: 0] += 1
        }
        defer {
            switch direction {
            case .encoding: state.encoding[id, default: 1] -= 1
            case .decoding: state.decoding[id, default: 1] -= 1
            }
        }
        do {
            return .success(try body())
        } catch {
            return .failure(error)
        }
    }

    /// Hands over why a non-throwing `rawValue` returned `""`.
    static func reportFailedWrite(_ error: RawCodingError) {
        park(error, as: error.kind == .recursionTrap ? .recursionTrap : .encodingFailed)
    }

    /// Hands over why a non-throwing `init?(rawValue:)` returned `nil` for `text`: a trap
    /// always; a read failure unless the text is empty (what a failed `rawValue` returns,
    /// reported there already).
    @usableFromInline
    static func reportFailedRead(_ error: RawCodingError, of text: String) {
        if error.kind == .recursionTrap {
            park(error, as: .recursionTrap)
        } else if !text.isEmpty {
            reportReadFailure(error)
        }
    }

    /// Runs a codec's encode of a `subject` value as a throwing scope: a failure parked inside
    /// it by a non-throwing `rawValue` is thrown, and any other error is wrapped in a
    /// ``RawCodingError`` naming `subject`.
    static func codecScope<Result>(
        encoding subject: Any.Type, _ body: () throws -> Result
    ) throws(RawCodingError) -> Result {
        try scope(body) { error in RawCodingError.encoding(error, of: subject) }
    }

    /// As ``codecScope(encoding:_:)``, for a decode.
    static func codecScope<Result>(
        decoding subject: Any.Type, _ body: () throws -> Result
    ) throws(RawCodingError) -> Result {
        try scope(body) { error in RawCodingError.decoding(error, of: subject) }
    }

    /// Runs `body` (which calls a non-throwing `rawValue` or `init?(rawValue:)`) so that what
    /// it parks, including read failures, comes back instead of going to diagnostics.
    static func collectingParked<Result>(_ body: () -> Result) -> (Result, RawCodingError?) {
        let state = state
        state.throwingScopes += 1
        state.readScopes += 1
        let result = body()
        state.readScopes -= 1
        state.throwingScopes -= 1
        return (result, takeParkedFailure())
    }

    private static func scope<Result>(
        _ body: () throws -> Result, wrap: (any Error) -> RawCodingError
    ) throws(RawCodingError) -> Result {
        let state = state
        // Read failures inside a codec call belong to whoever called init?(rawValue:) there.
        let readScopes = state.readScopes
        state.readScopes = 0
        state.throwingScopes += 1
        defer {
            state.throwingScopes -= 1
            state.readScopes = readScopes
        }
        let result: Result
        do {
            result = try body()
        } catch {
            if let parked = takeParkedFailure(from: state) { throw parked }
            throw wrap(error)
        }
        if let parked = takeParkedFailure(from: state) { throw parked }
        return result
    }

    /// Hands over a failure found by a non-throwing entry point (`rawValue`, `init?(rawValue:)`).
    ///
    /// Inside a throwing RawCoding scope on this thread, the failure is parked and that scope
    /// throws it; with none, it is reported to ``RawCodingDiagnostics``.
    static func park(_ failure: RawCodingError, as kind: RawCodingDiagnostics.Event.Kind) {
        let state = state
        if state.throwingScopes > 0 {
            if state.parkedFailure == nil { state.parkedFailure = failure }
        } else {
            RawCodingDiagnostics.report(failure, as: kind)
        }
    }

    /// Hands over stored text that `init?(rawValue:)` could not decode: a scope that throws such
    /// failures itself (the default `init(from:)` of ``RawStringCodable``) gets it; otherwise
    /// it is reported to ``RawCodingDiagnostics``, also inside a codec call, whose caller may
    /// have handled the `nil` on purpose.
    static func reportReadFailure(_ failure: RawCodingError) {
        let state = state
        if state.readScopes > 0 {
            if state.parkedFailure == nil { state.parkedFailure = failure }
        } else {
            RawCodingDiagnostics.report(failure, as: .storedValueDidNotDecode)
        }
    }

    static func takeParkedFailure() -> RawCodingError? {
        takeParkedFailure(from: state)
    }

    /// As ``takeParkedFailure()``, with this thread's state already at hand; nothing parked
    /// (nearly always) copies nothing.
    private static func takeParkedFailure(from state: State) -> RawCodingError? {
        guard case .some = state.parkedFailure else { return nil }
        return state.parkedFailure.take()
    }

    /// The typed error for `type` caught re-entering its own coding.
    static func trapError(
        _ type: Any.Type, _ direction: Direction, codingPath: [any CodingKey] = []
    ) -> RawCodingError {
        let name = String(reflecting: type)
        let (own, raw) =
            direction == .encoding
            ? ("encode(to:)", "rawValue") : ("init(from:)", "init?(rawValue:)")
        return RawCodingError(
            kind: .recursionTrap, typeName: name, codingPath: codingPath,
            reason:
                "\(name) re-entered its own \(raw) while \(direction == .encoding ? "encoding" : "decoding") itself. "
                + "Its \(own) is the standard library's default for Codable & RawRepresentable<String> types, "
                + "which goes through \(raw), which codes the value again: without this guard, infinite recursion and a stack overflow. "
                + "Fix it in one of two ways: store the model as RawCodable<\(name)> and drop the RawRepresentable conformance, "
                + "or give \(name) its own memberwise encode(to:) and init(from:) (with CodingKeys) so coding never goes through \(raw). "
                + "(An enum with String raw values needs neither: it is already safely Codable and RawRepresentable; remove its RawStringCodable conformance.)"
        )
    }
}
