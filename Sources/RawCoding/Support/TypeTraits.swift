/// The conformances the codecs look up on every call (is the type versioned, does it have a
/// default, does it choose its raw-value codec), found once per type and thread.
///
/// A conformance check of a type that does not conform scans the runtime's conformance cache:
/// about a thousand instructions each, several per call, more than the rest of a settings-sized
/// decode's fixed costs together. The answers never change for a type, so each thread keeps
/// the last ones it found in a small table (no lock: the table is the thread's own).
struct TypeTraits {
    /// The type is ``StoredVersioned``, or an optional of one.
    var isStoredVersioned: Bool { versioned != nil }
    /// The ``StoredVersioned`` type whose version a value of the type records: the type, or
    /// the type an optional wraps (an optional's `nil` records none).
    let versioned: (any StoredVersioned.Type)?
    /// The type is ``StoredDefault``.
    let isStoredDefault: Bool
    /// The type is ``CustomRawValueCodec``.
    let hasCustomRawValueCodec: Bool
    /// The type is decoded as it is in an evolving decode (``EvolutionLeaf``).
    let isEvolutionLeaf: Bool
    /// The type as an array of decodable elements, which the JSON scan decodes itself.
    let scanArray: (any ScanDecodableArray.Type)?
    /// A value of the type may be a `[String: Value]` dictionary, whose keys no key strategy
    /// converts: the type is one, or an optional of one (a value's cast looks through optionals).
    let mayBeStringKeyedDictionary: Bool

    init(_ type: Any.Type) {
        isStoredDefault = type is any StoredDefault.Type
        hasCustomRawValueCodec = type is any CustomRawValueCodec.Type
        isEvolutionLeaf = type is any EvolutionLeaf.Type
        scanArray = type as? any ScanDecodableArray.Type
        var wrapped = type
        while let optional = wrapped as? any OptionalType.Type { wrapped = optional.wrappedType }
        mayBeStringKeyedDictionary = wrapped is any StringKeyedDictionary.Type
        versioned = type as? any StoredVersioned.Type ?? wrapped as? any StoredVersioned.Type
    }

    /// The traits of `type`, from this thread's table.
    @inline(__always)
    static func of(_ type: Any.Type) -> TypeTraits { RecursionGuard.state.traits.of(type) }
}

/// One thread's table of ``TypeTraits``: two slots per type's metadata address, so a lookup
/// is a load or two and a compare; a type whose slots two others took is looked up again.
/// (With one slot, two types a decode asks about in turn, such as a nested struct and its
/// parent, could share it and find their conformances again at each call.)
final class TypeTraitsTable {
    private struct Entry {
        var type: ObjectIdentifier?
        var traits: TypeTraits
    }

    private static let slots = 256
    private let entries: UnsafeMutablePointer<Entry>

    init() {
        entries = .allocate(capacity: Self.slots)
        entries.initialize(repeating: Entry(type: nil, traits: TypeTraits(Never.self)), count: Self.slots)
    }

    deinit {
        entries.deinitialize(count: Self.slots)
        entries.deallocate()
    }

    func of(_ type: Any.Type) -> TypeTraits {
        let id = ObjectIdentifier(type)
        // A multiplicative hash of the address picks an even slot; its odd neighbour is the
        // second place.
        let hash = (UInt(bitPattern: id) &>> 3) &* 0x9E37_79B9_7F4A_7C15
        let first = Int(truncatingIfNeeded: hash &>> 56) & (Self.slots - 2)
        if entries[first].type == id { return entries[first].traits }
        if entries[first + 1].type == id { return entries[first + 1].traits }
        let traits = TypeTraits(type)
        // The newest goes first; the one it displaces moves to the second place.
        entries[first + 1] = entries[first]
        entries[first] = Entry(type: id, traits: traits)
        return traits
    }
}

/// `Optional`, whatever it wraps: for finding the type an optional's value is cast as, and
/// telling its `nil` from a generic value (a store removes the key for it).
package protocol OptionalType {
    static var wrappedType: Any.Type { get }
    var isNone: Bool { get }
}

extension Optional: OptionalType {
    package static var wrappedType: Any.Type { Wrapped.self }
    package var isNone: Bool { self == nil }
}
