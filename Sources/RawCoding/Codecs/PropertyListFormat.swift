/// A property-list layout: ``XMLPropertyListFormat`` (`.xml`) or ``BinaryPropertyListFormat`` (`.binary`).
///
/// The layout is part of the codec's type, so `.propertyList(.xml)` is a ``StringCodec`` and
/// `.propertyList(.binary)` is not: asking binary bytes for a `String` does not compile.
///
/// The two layouts are the only ones: the requirement's type, ``PropertyListLayout``, cannot be
/// created outside RawCoding, so other modules do not add layouts the codec cannot write.
public protocol PropertyListFormat: Hashable, Sendable {
    /// Which of the two layouts this is.
    static var layout: PropertyListLayout { get }
}

/// One of the two property-list layouts; only ``XMLPropertyListFormat`` and
/// ``BinaryPropertyListFormat`` have one.
public struct PropertyListLayout: Hashable, Sendable {
    /// Whether this is the binary `bplist00` layout.
    public let isBinary: Bool

    init(isBinary: Bool) {
        self.isBinary = isBinary
    }
}

/// Apple's XML property-list layout: text, readable, a ``StringCodec``.
public struct XMLPropertyListFormat: PropertyListFormat {
    public static var layout: PropertyListLayout { PropertyListLayout(isBinary: false) }
    /// Creates the XML layout; usually written `.xml`.
    public init() {}
}

/// Apple's binary property-list layout (`bplist00`): compact bytes.
public struct BinaryPropertyListFormat: PropertyListFormat {
    public static var layout: PropertyListLayout { PropertyListLayout(isBinary: true) }
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
