import Foundation

/// JSON text, deterministic: keys sorted by their UTF-8 bytes, `/` not escaped.
///
/// Reach it as `.json` (compact, the canonical form ``RawCodable`` uses for `rawValue`) or
/// `.json(.pretty)`, or create one with other options:
///
/// ```swift
/// let text = try JSONCodec().encodeToString(settings)      // {"fontSize":14,"theme":"dark"}
/// let column = JSONCodec(dates: .iso8601, keys: .snakeCase) // {"font_size":14,"saved_at":"2026-11-30T20:24:18Z"}
/// ```
///
/// The default options are the canonical form, stable across versions because stored data
/// depends on it:
/// - Non-finite numbers are written as the strings `"NaN"`, `"Infinity"` and `"-Infinity"` and
///   read back from them, so encoding never fails on them.
/// - `Date` is a number: seconds since 2001-01-01T00:00:00Z (Foundation's default), `Data` is
///   Base64 text, `URL` is its absolute string, `Decimal` a JSON number with every digit.
/// - Top-level scalars are allowed (`42`, `"text"`, `null`).
///
/// Every option reads back what it writes. Where an option could write something it cannot
/// read back exactly, encoding throws instead, naming the path: a key that snake case cannot
/// restore (`myURLValue` becomes `my_url_value`, read back as `myUrlValue`), a date that
/// seconds since 1970 cannot hold to the last bit, or a date outside the years 0000–9999 in
/// ISO 8601.
public struct JSONCodec: StringCodec, Hashable {
    /// How the text is laid out: ``JSONFormatting/compact`` or ``JSONFormatting/pretty``.
    public typealias Formatting = JSONFormatting

    /// How `Date` values are written and read.
    public enum DateStrategy: Hashable, Sendable {
        /// Seconds since 2001-01-01T00:00:00Z, a number: how `Date` encodes itself and
        /// `JSONEncoder`'s default. The default; exact.
        case secondsSinceReferenceDate
        /// Seconds since 1970-01-01T00:00:00Z, a number (Unix time): `1764528258.25`. Written
        /// with the digits that give back exactly the same `Date` (a `Date` is a `Double` of
        /// seconds since 2001, and converting it to a `Double` since 1970 rounds about every
        /// other date, as `JSONEncoder`'s `.secondsSince1970` does), so a date can need more
        /// digits than a `Double` prints: `1764528258.12345671653747559`.
        case secondsSince1970
        /// ISO 8601 text in UTC: `2026-11-30T20:24:18Z`, with the fractional digits the date
        /// needs to read back exactly (`…18.25Z`). Whole-second dates are written as
        /// `JSONEncoder`'s `.iso8601` writes them. Reads `Z` and `±HH:MM` offsets, fractions of
        /// any length, and a date alone (`2026-11-30`, as APIs send birthdays and release
        /// dates) as midnight UTC: the forms APIs send, read without a `DateFormatter`.
        case iso8601
        /// Text in the formatter's format, as `JSONEncoder`'s `.formatted(_:)`: written with
        /// `string(from:)`, read with `date(from:)`. A date the formatter's text does not hold
        /// exactly (a fraction of a second where the format has none, a time where it has only
        /// the day) is refused, not rounded; text it cannot read is an error with its path.
        /// The formatter must not be changed while the codec is in use.
        case formatted(DateFormatter)
        /// Milliseconds since 1970-01-01T00:00:00Z, a number (JavaScript's `Date.now()`):
        /// `1764528258250`. Exact as ``secondsSince1970`` is: written with the digits that give
        /// back the same `Date`, so a date between two milliseconds keeps its fraction
        /// (`1764528258123.45671653747559`).
        case millisecondsSince1970
        /// Written and read by closures of your own, as `JSONEncoder`'s and `JSONDecoder`'s
        /// `.custom`: ``CustomCoding/encode`` writes a date into the encoder it is given, and
        /// ``CustomCoding/decode`` reads one from the decoder it is given (a single value, or
        /// whatever the encode wrote). The codec calls them at the date's coding path; what
        /// they throw is the codec's error, with that path. The two must agree: the codec
        /// cannot check that your decode reads back what your encode writes.
        case custom(CustomDates)

        /// Dates written by `encode` and read by `decode`:
        /// `JSONCodec(dates: .custom(encode: { date, encoder in … }, decode: { decoder in … }))`.
        public static func custom(
            encode: @escaping @Sendable (Date, any Encoder) throws -> Void,
            decode: @escaping @Sendable (any Decoder) throws -> Date
        ) -> DateStrategy {
            .custom(CustomDates(encode: encode, decode: decode))
        }
    }

    /// A custom date strategy's two closures (``CustomCoding``).
    public typealias CustomDates = CustomCoding<Date>

    /// A custom strategy's two closures: one writes a value into the encoder at its place, the
    /// other reads one from the decoder at its place. Two strategies are equal when they hold
    /// the same instance, as two `.formatted` strategies are when they hold the same formatter.
    public final class CustomCoding<Value>: Hashable, Sendable {
        /// Writes a value into the encoder at its place.
        public let encode: @Sendable (Value, any Encoder) throws -> Void
        /// Reads a value from the decoder at its place.
        public let decode: @Sendable (any Decoder) throws -> Value

        /// Creates the strategy's closures.
        /// - Parameters:
        ///   - encode: Writes a value into the encoder at its place.
        ///   - decode: Reads a value from the decoder at its place.
        public init(
            encode: @escaping @Sendable (Value, any Encoder) throws -> Void,
            decode: @escaping @Sendable (any Decoder) throws -> Value
        ) {
            self.encode = encode
            self.decode = decode
        }

        public static func == (lhs: CustomCoding, rhs: CustomCoding) -> Bool { lhs === rhs }

        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    /// How `Data` values are written and read.
    public enum DataStrategy: Hashable, Sendable {
        /// Base64 text. The default, as `JSONEncoder`'s.
        case base64
        /// An array of byte values, as `Data` encodes itself.
        case byteArray
        /// Written and read by closures of your own, as `JSONEncoder`'s and `JSONDecoder`'s
        /// `.custom` (see ``DateStrategy/custom(_:)``, which works the same way).
        case custom(CustomData)

        /// Bytes written by `encode` and read by `decode`.
        public static func custom(
            encode: @escaping @Sendable (Data, any Encoder) throws -> Void,
            decode: @escaping @Sendable (any Decoder) throws -> Data
        ) -> DataStrategy {
            .custom(CustomData(encode: encode, decode: decode))
        }
    }

    /// A custom data strategy's two closures (``CustomCoding``).
    public typealias CustomData = CustomCoding<Data>

    /// How coding keys become JSON object keys.
    public enum KeyStrategy: Hashable, Sendable {
        /// Each key as it is. The default.
        case useDefaultKeys
        /// `fontSize` is written `font_size` and read back (`JSONEncoder`'s
        /// `.convertToSnakeCase` and `JSONDecoder`'s `.convertFromSnakeCase`). Keys of
        /// `[String: Value]` dictionaries are kept as they are.
        case snakeCase
    }

    /// How infinite and NaN `Double`/`Float` values, which JSON numbers cannot hold, are written.
    public enum NonFiniteStrategy: Hashable, Sendable {
        /// As the given strings, read back from them. The default: `"Infinity"`,
        /// `"-Infinity"` and `"NaN"`.
        case strings(positiveInfinity: String, negativeInfinity: String, nan: String)
        /// Refused when encoding, as `JSONEncoder` does by default.
        case `throw`

        /// The default strings.
        public static let strings = NonFiniteStrategy.strings(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    }

    /// How the text is laid out.
    public var formatting: Formatting
    /// Bounds on what this codec decodes, and so on what it encodes.
    public var limits: Limits
    /// How dates are written.
    public var dates: DateStrategy
    /// How bytes are written.
    public var data: DataStrategy
    /// How keys are written.
    public var keys: KeyStrategy
    /// How non-finite numbers are written.
    public var nonFiniteNumbers: NonFiniteStrategy
    /// How text is read: ``JSONSyntax/strict`` (the default) or ``JSONSyntax/json5``. What the
    /// codec writes is strict JSON either way.
    public var syntax: JSONSyntax
    /// Whether text without braces (`"theme": "dark", "size": 14`) is read as the members of a
    /// dictionary, as `JSONDecoder`'s `assumesTopLevelDictionary`; blank text is an empty one.
    public var assumesTopLevelDictionary: Bool

    /// Creates a JSON codec.
    /// - Parameters:
    ///   - formatting: Compact (default) or pretty.
    ///   - limits: Bounds on decoded input; encoding refuses what decoding would refuse.
    ///   - dates: How dates are written (default: seconds since 2001, a number).
    ///   - data: How bytes are written (default: Base64 text).
    ///   - keys: How keys are written (default: as they are).
    ///   - nonFiniteNumbers: How infinities and NaN are written (default: as strings).
    ///   - syntax: How text is read (default: strict JSON).
    ///   - assumesTopLevelDictionary: Whether text without braces is read as a dictionary's
    ///     members (default: no).
    public init(
        formatting: Formatting = .compact, limits: Limits = .default, dates: DateStrategy = .secondsSinceReferenceDate,
        data: DataStrategy = .base64, keys: KeyStrategy = .useDefaultKeys,
        nonFiniteNumbers: NonFiniteStrategy = .strings, syntax: JSONSyntax = .strict,
        assumesTopLevelDictionary: Bool = false
    ) {
        self.formatting = formatting
        self.limits = limits
        self.dates = dates
        self.data = data
        self.keys = keys
        self.nonFiniteNumbers = nonFiniteNumbers
        self.syntax = syntax
        self.assumesTopLevelDictionary = assumesTopLevelDictionary
    }

    var format: JSONTreeFormat {
        JSONTreeFormat(formatting: formatting, syntax: syntax, assumesTopLevelDictionary: assumesTopLevelDictionary)
    }

    /// The engine's options for writing.
    func encoder(checking keyFailures: KeyRoundTripCheck?) -> StoredValueEncoder {
        var encoder = StoredValueEncoder()
        switch dates {
        case .secondsSinceReferenceDate: encoder.dates = .secondsSinceReferenceDate
        case .secondsSince1970: encoder.dates = .custom(JSONDateCoding.encodeSince1970)
        case .iso8601: encoder.dates = .iso8601
        case .formatted(let formatter): encoder.dates = .formatted(formatter)
        case .millisecondsSince1970: encoder.dates = .custom(JSONDateCoding.encodeMillisecondsSince1970)
        case .custom(let custom): encoder.dates = .custom(custom.encode)
        }
        switch data {
        case .base64: encoder.data = .base64
        case .byteArray: encoder.data = .byteArray
        case .custom(let custom): encoder.data = .custom(custom.encode)
        }
        if let keyFailures {
            encoder.keys = .custom { path in keyFailures.convert(path) }
        }
        switch nonFiniteNumbers {
        case .strings(let positiveInfinity, let negativeInfinity, let nan):
            encoder.nonFiniteNumbers = .strings(
                positiveInfinity: positiveInfinity, negativeInfinity: negativeInfinity, nan: nan)
        case .throw:
            encoder.nonFiniteNumbers = .throw
        }
        encoder.decimalEncoding = .stored
        encoder.maximumDepth = limits.effectiveDepth
        return encoder
    }

    /// The engine's options for a sink encode: those this thread made last, when they were
    /// made for a codec equal to this one.
    var sinkOptions: SinkOptions {
        let state = RecursionGuard.state
        if let last = state.lastJSONSinkOptions, last.matches(self) { return last.options }
        var encoder = encoder(checking: nil)
        // The sink converts each key and gives up on one that would not read back, which the
        // tree path then refuses with its message.
        if keys == .snakeCase { encoder.keys = .snakeCase }
        let options = SinkOptions(encoder)
        state.lastJSONSinkOptions = LastSinkOptions(self, options: options)
        return options
    }

    /// Sink options and what they were made from: the codec's options a sink encode reads
    /// (not the whole codec, which was slower to copy and compare than to make them again).
    final class LastSinkOptions {
        let dates: DateStrategy
        let data: DataStrategy
        let nonFiniteNumbers: NonFiniteStrategy
        let keys: KeyStrategy
        let depth: Int
        let options: SinkOptions

        init(_ codec: JSONCodec, options: SinkOptions) {
            keys = codec.keys
            dates = codec.dates
            data = codec.data
            nonFiniteNumbers = codec.nonFiniteNumbers
            depth = codec.limits.effectiveDepth
            self.options = options
        }

        /// Whether `codec` makes the same sink options.
        func matches(_ codec: JSONCodec) -> Bool {
            depth == codec.limits.effectiveDepth && keys == codec.keys && data == codec.data && dates == codec.dates
                && nonFiniteNumbers == codec.nonFiniteNumbers
        }
    }

    /// The engine's options for reading back.
    var decoder: StoredValueDecoder {
        var decoder = StoredValueDecoder()
        switch dates {
        case .secondsSinceReferenceDate: decoder.dates = .secondsSinceReferenceDate
        case .secondsSince1970: decoder.dates = .custom(JSONDateCoding.decodeSince1970)
        case .iso8601: decoder.dates = .iso8601
        case .formatted(let formatter): decoder.dates = .formatted(formatter)
        case .millisecondsSince1970: decoder.dates = .custom(JSONDateCoding.decodeMillisecondsSince1970)
        case .custom(let custom): decoder.dates = .custom(custom.decode)
        }
        switch data {
        case .base64: decoder.data = .base64
        case .byteArray: decoder.data = .byteArray
        case .custom(let custom): decoder.data = .custom(custom.decode)
        }
        if keys == .snakeCase { decoder.keys = .snakeCase }
        if case .strings(let positiveInfinity, let negativeInfinity, let nan) = nonFiniteNumbers {
            decoder.nonFiniteNumbers = .strings(
                positiveInfinity: positiveInfinity, negativeInfinity: negativeInfinity, nan: nan)
        }
        decoder.maximumDepth = limits.effectiveDepth
        return decoder
    }

    public func encode<Value: Encodable>(_ value: Value) throws(RawCodingError) -> Data {
        var data = Data()
        let written = try encodeDirectly(value, options: sinkOptions) { sink in
            data = sink.finishData()
            return data.count
        }
        if written { return data }
        return try encodeThroughTree(value)
    }

    /// `value` encoded into a tree and written: the reference for what the sink writes, and
    /// the path that says why where the sink gives up.
    private func encodeThroughTree<Value: Encodable>(_ value: Value) throws(RawCodingError) -> Data {
        guard keys == .snakeCase else {
            return try encode(value, with: encoder(checking: nil), format: format, limits: limits)
        }
        let check = KeyRoundTripCheck()
        let data = try encode(value, with: encoder(checking: check), format: format, limits: limits)
        if let failure = check.firstFailure { throw failure.error(encoding: Value.self) }
        return data
    }

    public func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws(RawCodingError) -> Value {
        // Straight from a flat scan of the bytes, when the scan takes the document (keys
        // converted from snake case too); otherwise (and for versioned payloads and a tree
        // asked for) from the tree.
        if scanTakes(Value.self, convertingKeys: true) {
            // No `Value?` on the way: a generic optional is looked up at run time (about 330
            // instructions), so the scan says it leaves the document by a flag and a throw.
            var leftToTree = false
            do {
                return try RecursionGuard.codecScope(decoding: Value.self) { () throws -> Value in
                    guard let context = data.withUnsafeBytes({ ScanDecodingContext(bytes: $0, codec: self) }) else {
                        leftToTree = true
                        throw ScanLeavesDocument()
                    }
                    let root = ScanDecodingNode(context: context, parent: nil, step: nil, token: 0)
                    return try root.unbox(0, as: type, step: nil)
                }
            } catch  where leftToTree {
                // Not a failure: the tree reader below takes what the scan leaves.
            }
        }
        return try decode(type, from: data, with: decoder, format: format, limits: limits)
    }

    public func readTree(from data: Data) throws(RawCodingError) -> StoredValue {
        try readTree(from: data, format: format, limits: limits)
    }

    public func writeTree(_ tree: StoredValue) throws(RawCodingError) -> Data {
        try writeTree(tree, format: format, limits: limits)
    }

    public func encodeTree<Value: Encodable>(_ value: Value) throws(RawCodingError) -> StoredValue {
        guard keys == .snakeCase else { return try encodeTree(value, with: encoder(checking: nil)) }
        let check = KeyRoundTripCheck()
        let tree = try encodeTree(value, with: encoder(checking: check))
        if let failure = check.firstFailure { throw failure.error(encoding: Value.self) }
        return tree
    }

    public func decode<Value: Decodable>(_ type: Value.Type, fromTree tree: StoredValue) throws(RawCodingError) -> Value
    {
        try decode(type, fromTree: tree, with: decoder)
    }

    /// `json`, or `pretty.json` for the pretty form (so both can sit beside each other).
    public var fileExtension: String { formatting == .pretty ? "pretty.json" : "json" }

    public func encodeToString<Value: Encodable>(_ value: Value) throws(RawCodingError) -> String {
        try encodeToString(value, options: sinkOptions)
    }

    /// The default codec's sink options, made once (``RawCodable``'s raw values).
    static let defaultSinkOptions = SinkOptions(JSONCodec().encoder(checking: nil))

    /// As ``encodeToString(_:)``, with the sink options given (made for this codec).
    func encodeToString<Value: Encodable>(
        _ value: Value, options: SinkOptions, traits: TypeTraits? = nil
    ) throws(RawCodingError) -> String {
        // Straight from the sink's bytes to the string, without data in between.
        var text = ""
        let written = try encodeDirectly(value, options: options, traits: traits) { sink in
            text = sink.finishString()
            return text.utf8.count
        }
        if written { return text }
        // The writer only writes valid UTF-8.
        return String(decoding: try encodeThroughTree(value), as: UTF8.self)
    }

    /// `value` written by the JSON sink and handed to `finish`, which answers the size of what
    /// it took; `false` where the tree path must write it (``Codec/encodeDirectly(_:limits:root:finish:)``).
    private func encodeDirectly<Value: Encodable>(
        _ value: Value, options: SinkOptions, traits: TypeTraits? = nil, finish: (inout JSONSink) -> Int
    ) throws(RawCodingError) -> Bool {
        let pretty = formatting == .pretty
        return try encodeDirectly(
            value, limits: limits, traits: traits,
            root: { .root(options: options, sink: JSONSink.takingSpare(pretty: pretty)) },
            finish: { finish(&$0) })
    }

    public func decode<Value: Decodable>(_ type: Value.Type, from string: String) throws(RawCodingError) -> Value {
        try decode(type, from: Data(utf8Of: string))
    }
}

/// The JSON codec's exact date forms, as engine strategies.
enum JSONDateCoding {
    /// 2001-01-01 in seconds since 1970, exact.
    static let referenceDateSince1970 = Decimal(978_307_200)

    @Sendable static func encodeSince1970(_ date: Date, _ encoder: any Encoder) throws {
        try encode(date, perSecond: 1, unit: "seconds", strategy: ".secondsSince1970", encoder)
    }

    @Sendable static func encodeMillisecondsSince1970(_ date: Date, _ encoder: any Encoder) throws {
        try encode(date, perSecond: 1_000, unit: "milliseconds", strategy: ".millisecondsSince1970", encoder)
    }

    @Sendable static func decodeSince1970(_ decoder: any Decoder) throws -> Date {
        try decode(perSecond: 1, unit: "seconds", decoder)
    }

    @Sendable static func decodeMillisecondsSince1970(_ decoder: any Decoder) throws -> Date {
        try decode(perSecond: 1_000, unit: "milliseconds", decoder)
    }

    /// The time since 1970 as an exact decimal: the `Double` since 2001 (its shortest digits)
    /// plus the offset, times `perSecond`, without rounding.
    private static func encode(
        _ date: Date, perSecond: Decimal, unit: String, strategy: String, _ encoder: any Encoder
    ) throws {
        let sinceReference = date.timeIntervalSinceReferenceDate
        guard sinceReference.isFinite,
            let exact = Decimal(string: "\(sinceReference)", locale: NumberParsing.posix),
            case let since1970 = (exact + referenceDateSince1970) * perSecond,
            since1970 / perSecond - referenceDateSince1970 == exact
        else {
            throw EncodingError.invalidValue(
                date,
                EncodingError.Context(
                    codingPath: encoder.codingPath,
                    debugDescription:
                        "the date \(sinceReference) seconds from 2001 has no exact number of \(unit) since 1970 within 38 digits, so \(strategy) cannot write it; use the .secondsSinceReferenceDate date strategy"
                ))
        }
        var container = encoder.singleValueContainer()
        try container.encode(since1970)
    }

    /// The time since 1970, read exactly (as a decimal) before it is scaled and the offset is
    /// taken off.
    private static func decode(perSecond: Decimal, unit: String, _ decoder: any Decoder) throws -> Date {
        let since1970 = try decoder.singleValueContainer().decode(Decimal.self)
        let sinceReference = (since1970 / perSecond - referenceDateSince1970).nearestDouble
        guard sinceReference.isFinite else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "\(since1970) \(unit) since 1970 is not a date"))
        }
        return Date(timeIntervalSinceReferenceDate: sinceReference)
    }
}

/// Converts keys to snake case while encoding and remembers the first key that would not read
/// back as itself, so the codec refuses to write it.
final class KeyRoundTripCheck: @unchecked Sendable {
    struct Failure {
        let path: [any CodingKey]
        let converted: String
        let readBack: String

        func error(encoding subject: Any.Type) -> RawCodingError {
            let key = path.last?.stringValue ?? ""
            return RawCodingError(
                kind: .encodingFailed, typeName: String(reflecting: subject), codingPath: path,
                reason:
                    "the key \"\(key)\" is written \"\(converted)\" in snake case, which reads back as \"\(readBack)\", so the value could not be read back; give the key an explicit snake-case string value in CodingKeys, or use the .useDefaultKeys key strategy"
            )
        }
    }

    private let lock = NSLock()
    private var failure: Failure?

    var firstFailure: Failure? {
        lock.lock()
        defer { lock.unlock() }
        return failure
    }

    func convert(_ path: [any CodingKey]) -> any CodingKey {
        guard let key = path.last else { return StoredCodingKey(stringValue: "") }
        if key.intValue != nil, key.stringValue.isEmpty { return key }
        let converted = KeyConversion.toSnakeCase(key.stringValue)
        let readBack = KeyConversion.fromSnakeCase(converted)
        if readBack != key.stringValue {
            lock.lock()
            if failure == nil { failure = Failure(path: path, converted: converted, readBack: readBack) }
            lock.unlock()
        }
        return StoredCodingKey(stringValue: converted)
    }
}

extension Codec where Self == JSONCodec {
    /// Compact, canonical JSON: keys sorted by UTF-8 bytes, no whitespace.
    public static var json: JSONCodec { JSONCodec() }

    /// JSON with the given formatting, such as `.json(.pretty)`.
    /// - Parameter formatting: ``JSONFormatting/compact`` or ``JSONFormatting/pretty``.
    /// - Returns: A JSON codec.
    public static func json(_ formatting: JSONFormatting) -> JSONCodec {
        JSONCodec(formatting: formatting)
    }
}
