import Foundation

/// Property lists, as XML (`.propertyList(.xml)`) or binary (`.propertyList(.binary)`).
///
/// ```swift
/// let xml = try PropertyListCodec(format: .xml).encodeToString(settings)
/// let bytes = try PropertyListCodec(format: .binary).encode(settings)
/// ```
///
/// Unlike Foundation's `PropertyListEncoder`, top-level scalars are allowed: `42` encodes as a
/// property list whose root is `<integer>42</integer>`. Property lists have no null; like
/// Foundation, `nil` is stored as the string `$null`. Either layout decodes both layouts, and
/// OpenStep property lists (`{ name = Ada; tags = (a, b); }`) as `PropertyListDecoder` does:
/// their scalars are strings and data, so a model reading them has `String` properties.
/// XML property lists store dates to the whole second (Apple's format), so the XML codec
/// refuses to encode a date with a fraction of a second rather than drop it; binary ones keep
/// the full `Double`. A `Decimal` is stored exactly, in its own `Codable` form (a dictionary,
/// as Foundation's `PropertyListEncoder` stores it). Whatever the codec encodes it decodes
/// back equal; what its decoder would refuse under the same ``Limits`` it refuses to encode,
/// naming the path.
public struct PropertyListCodec<Format: PropertyListFormat>: Codec, Hashable {
    /// The layout written.
    public var format: Format
    /// Bounds on what this codec decodes, and so on what it encodes.
    public var limits: Limits
    /// Writes a `URL` as Foundation's `PropertyListEncoder` does, through its own `Codable`
    /// form (`{relative, base}`), for a reader that is Foundation's `PropertyListDecoder`; a
    /// string otherwise. Both are read.
    package var writesFoundationURLs = false

    /// Creates a property-list codec.
    /// - Parameters:
    ///   - format: `.xml` or `.binary`.
    ///   - limits: Bounds on decoded input; encoding refuses what decoding would refuse.
    public init(format: Format, limits: Limits = .default) {
        self.format = format
        self.limits = limits
    }

    /// `xml.plist` or `binary.plist`: both layouts usually end in `.plist`, so the layout is
    /// named too.
    public var fileExtension: String { Format.layout.isBinary ? "binary.plist" : "xml.plist" }

    /// The engine's options for property lists: dates and bytes stay as they are; the binary
    /// layout keeps a `Float`'s exact value, as `PropertyListEncoder`'s 4-byte reals do.
    var encoder: StoredValueEncoder {
        var encoder = StoredValueEncoder()
        encoder.decimalEncoding = .deferredToDecimal
        encoder.floatsAsTheirText = !Format.layout.isBinary
        encoder.maximumDepth = limits.effectiveDepth
        if writesFoundationURLs { encoder.urlEncoding = .deferredToURL }
        return encoder
    }

    /// The engine's options for a sink encode: those this thread made last for this layout,
    /// when they were made for the same depth (the only other thing they depend on).
    var sinkOptions: SinkOptions {
        // Only the usual options are kept for the thread.
        if writesFoundationURLs { return SinkOptions(encoder) }
        let state = RecursionGuard.state
        let isBinary = Format.layout.isBinary
        let depth = limits.effectiveDepth
        if let last = isBinary ? state.propertyListSinkOptions.binary : state.propertyListSinkOptions.xml,
            last.encoder.maximumDepth == depth
        {
            return last
        }
        let options = SinkOptions(encoder)
        if isBinary {
            state.propertyListSinkOptions.binary = options
        } else {
            state.propertyListSinkOptions.xml = options
        }
        return options
    }

    /// The engine's options for reading property lists back: `$null` reads as nil.
    var decoder: StoredValueDecoder {
        var decoder = StoredValueDecoder()
        decoder.nullMarker = PropertyListNullMarker.text
        decoder.maximumDepth = limits.effectiveDepth
        return decoder
    }

    public func encode<Value: Encodable>(_ value: Value) throws(RawCodingError) -> Data {
        let isBinary = Format.layout.isBinary
        let options = sinkOptions
        // Written by the closures themselves: through a nested function capturing it, each
        // write cost a run-time exclusivity check.
        var data: Data?
        let written =
            isBinary
            ? try encodeDirectly(
                value, limits: limits, root: { .root(options: options, sink: BinaryPropertyListSink.takingSpare()) },
                finish: { sink in
                    data = sink.finishData()
                    return data?.count
                })
            : try encodeDirectly(
                value, limits: limits, root: { .root(options: options, sink: XMLPropertyListSink.takingSpare()) },
                finish: { sink in
                    data = sink.finishData()
                    return data?.count
                })
        if written, let data { return data }
        let encoder = self.encoder
        return isBinary
            ? try encode(value, with: encoder, format: BinaryPropertyListTreeFormat(), limits: limits)
            : try encode(value, with: encoder, format: XMLPropertyListTreeFormat(), limits: limits)
    }

    /// The layouts a property-list codec reads.
    enum ReadLayout {
        case binary, xml, openStep
    }

    /// The layout `data` holds: binary by its signature, XML when it starts with `<`, and an
    /// OpenStep property list (`{ key = value; }`, read as `PropertyListDecoder` reads it: every
    /// scalar a string or data) when it starts as one; XML otherwise, whose reader says why not.
    /// Each layout is then read through its own specialized path, not an existential format.
    static func readLayout(of data: Data) -> ReadLayout {
        if BinaryPropertyListTreeFormat.hasSignature(data) { return .binary }
        if !XMLPropertyListTreeFormat.hasSignature(data), OpenStepPropertyListTreeFormat.hasSignature(data) {
            return .openStep
        }
        return .xml
    }

    /// Reads either layout, whichever `data` holds, and OpenStep property lists.
    public func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws(RawCodingError) -> Value {
        switch Self.readLayout(of: data) {
        case .binary:
            try decode(type, from: data, with: decoder, format: BinaryPropertyListTreeFormat(), limits: limits)
        case .xml: try decode(type, from: data, with: decoder, format: XMLPropertyListTreeFormat(), limits: limits)
        case .openStep:
            try decode(type, from: data, with: decoder, format: OpenStepPropertyListTreeFormat(), limits: limits)
        }
    }

    /// Reads either layout, whichever `data` holds, and OpenStep property lists.
    public func readTree(from data: Data) throws(RawCodingError) -> StoredValue {
        switch Self.readLayout(of: data) {
        case .binary: try readTree(from: data, format: BinaryPropertyListTreeFormat(), limits: limits)
        case .xml: try readTree(from: data, format: XMLPropertyListTreeFormat(), limits: limits)
        case .openStep: try readTree(from: data, format: OpenStepPropertyListTreeFormat(), limits: limits)
        }
    }

    public func writeTree(_ tree: StoredValue) throws(RawCodingError) -> Data {
        Format.layout.isBinary
            ? try writeTree(tree, format: BinaryPropertyListTreeFormat(), limits: limits)
            : try writeTree(tree, format: XMLPropertyListTreeFormat(), limits: limits)
    }

    public func encodeTree<Value: Encodable>(_ value: Value) throws(RawCodingError) -> StoredValue {
        try encodeTree(value, with: encoder)
    }

    public func decode<Value: Decodable>(_ type: Value.Type, fromTree tree: StoredValue) throws(RawCodingError) -> Value
    {
        try decode(type, fromTree: tree, with: decoder)
    }
}

extension PropertyListCodec: StringCodec where Format == XMLPropertyListFormat {
    public func encodeToString<Value: Encodable>(_ value: Value) throws(RawCodingError) -> String {
        // The XML writer writes UTF-8.
        String(decoding: try encode(value), as: UTF8.self)
    }

    public func decode<Value: Decodable>(_ type: Value.Type, from string: String) throws(RawCodingError) -> Value {
        try decode(type, from: Data(utf8Of: string))
    }
}

extension Codec {
    /// A property-list codec: `.propertyList(.xml)` or `.propertyList(.binary)`.
    /// - Parameter format: `.xml` or `.binary`.
    /// - Returns: A property-list codec for that layout.
    public static func propertyList<Format: PropertyListFormat>(
        _ format: Format
    ) -> Self where Self == PropertyListCodec<Format> {
        PropertyListCodec(format: format)
    }
}
