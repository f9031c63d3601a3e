import Foundation

/// Property lists, as XML (`.propertyList(.xml)`) or binary (`.propertyList(.binary)`).
///
/// ```swift
/// let xml = try PropertyListCodec.propertyList(.xml).encodeToString(settings)
/// let bytes = try PropertyListCodec.propertyList(.binary).encode(settings)
/// ```
///
/// Unlike Foundation's `PropertyListEncoder`, top-level scalars are allowed: `42` encodes as a
/// property list whose root is `<integer>42</integer>`. Property lists have no null; like
/// Foundation, `nil` is stored as the string `$null`. Either layout decodes both layouts.
/// XML property lists store dates to the whole second (Apple's format); binary ones keep
/// the full `Double`.
public struct PropertyListCodec<Format: PropertyListFormat>: Codec, Hashable {
    /// The layout written.
    public var format: Format
    /// Bounds on the input this codec decodes.
    public var limits: Limits

    /// Creates a property-list codec.
    /// - Parameters:
    ///   - format: `.xml` or `.binary`.
    ///   - limits: Bounds on decoded input.
    public init(format: Format, limits: Limits = .default) {
        self.format = format
        self.limits = limits
    }

    /// `xml.plist` or `binary.plist`: both layouts usually end in `.plist`, so the layout is
    /// named too.
    public var fileExtension: String { Format.isBinary ? "binary.plist" : "xml.plist" }

    public func encode<Value: Encodable>(_ value: Value) throws(RawCodingError) -> Data {
        try guardedEncode(value) { value in
            let encoder = PropertyListEncoder()
            encoder.outputFormat = Format.isBinary ? .binary : .xml
            do {
                return try encoder.encode(value)
            } catch let EncodingError.invalidValue(refused, context) where context.codingPath.isEmpty {
                // PropertyListEncoder refuses top-level scalars. Encode a one-element array
                // instead and lift the element out as the root. If that fails too, the first
                // error is the one that describes the caller's value.
                let wrapped: Data
                do {
                    wrapped = try encoder.encode([value])
                } catch {
                    throw EncodingError.invalidValue(refused, context)
                }
                return try PropertyListFragment.liftSingleElement(of: wrapped, binary: Format.isBinary)
            }
        }
    }

    public func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws(RawCodingError) -> Value {
        try guardedDecode(type, from: data, limits: limits) { data in
            try PropertyListPreflight.check(data)
            return try PropertyListDecoder().decode(type, from: data)
        }
    }
}

extension PropertyListCodec: StringCodec where Format == XMLPropertyListFormat {
    public func encodeToString<Value: Encodable>(_ value: Value) throws(RawCodingError) -> String {
        // PropertyListEncoder writes XML as UTF-8.
        String(decoding: try encode(value), as: UTF8.self)
    }

    public func decode<Value: Decodable>(_ type: Value.Type, from string: String) throws(RawCodingError) -> Value {
        try decodeText(type, from: string, limits: limits)
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
