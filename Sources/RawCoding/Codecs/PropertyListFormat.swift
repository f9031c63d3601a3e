/// A property-list layout: ``XMLPropertyListFormat`` (`.xml`) or ``BinaryPropertyListFormat`` (`.binary`).
///
/// The layout is part of the codec's type, so `.propertyList(.xml)` is a ``StringCodec`` and
/// `.propertyList(.binary)` is not: asking binary bytes for a `String` does not compile.
public protocol PropertyListFormat: Hashable, Sendable {
    /// Whether this layout is the binary `bplist00` one.
    static var isBinary: Bool { get }
}

/// Apple's XML property-list layout: text, readable, a ``StringCodec``.
public struct XMLPropertyListFormat: PropertyListFormat {
    public static var isBinary: Bool { false }
    /// Creates the XML layout; usually written `.xml`.
    public init() {}
}

/// Apple's binary property-list layout (`bplist00`): compact bytes.
public struct BinaryPropertyListFormat: PropertyListFormat {
    public static var isBinary: Bool { true }
    /// Creates the binary layout; usually written `.binary`.
    public init() {}
}

extension PropertyListFormat where Self == XMLPropertyListFormat {
    /// The XML property-list layout.
    public static var xml: XMLPropertyListFormat { XMLPropertyListFormat() }
}

extension PropertyListFormat where Self == BinaryPropertyListFormat {
    /// The binary property-list layout (`bplist00`).
    public static var binary: BinaryPropertyListFormat { BinaryPropertyListFormat() }
}
