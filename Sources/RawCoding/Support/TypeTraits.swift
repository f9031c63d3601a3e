/// The conformances the codecs look up on every call (is the type versioned, does it have a
/// default, does it choose its raw-value codec), found once per type and thread.
///
/// A conformance check of a type that does not conform scans the runtime's conformance cache:
/// about a thousand instructions each, several per call, more than the rest of a settings-sized
/// decode's fixed costs together. The answers never change for a type, so each thread keeps
/// the last ones it found in a small table (no lock: the table is the thread's own).
struct TypeTraits {
    /// The type is ``StoredVersioned``.
    let isStoredVersioned: Bool
    /// The type is ``StoredDefault``.
    let isStoredDefault: Bool
    /// The type is ``CustomRawValueCodec``.
    let hasCustomRawValueCodec: Bool
    /// The type is decoded as it is in an evolving decode (``EvolutionLeaf``).
    let isEvolutionLeaf: Bool
    /// The type as an array of decodable elements, which the JSON scan decodes itself.
    let scanArray: (any ScanDecodableArray.Type)?

    init(_ type: Any.Type) {
        isStoredVersioned = type is any StoredVersioned.Type
        isStoredDefault = type is any StoredDefault.Type
        hasCustomRawValueCodec = type is any CustomRawValueCodec.Type
        isEvolutionLeaf = type is any EvolutionLeaf.Type
        scanArray = type as? any ScanDecodableArray.Type
    }

    /// The traits of `type`, from this thread's table.
    @inline(__always)
    static func of(_ type: Any.Type) -> TypeTraits { RecursionGuard.state.traits.of(type) }
}

/// One thread's table of ``TypeTraits``: direct-mapped by the type's metadata address, so a
/// lookup is a load and a compare; a type whose slot another took is looked up again.
final class TypeTraitsTable {
    private struct Entry {
        var type: ObjectIdentifier?
        var traits: TypeTraits
    }

    private static let slots = 64
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
        // Metadata is at least 8-byte aligned: the bits above the alignment pick the slot.
        let slot = Int(truncatingIfNeeded: UInt(bitPattern: id) &>> 3) & (Self.slots - 1)
        if entries[slot].type == id { return entries[slot].traits }
        let traits = TypeTraits(type)
        entries[slot] = Entry(type: id, traits: traits)
        return traits
    }
}
