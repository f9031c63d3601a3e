import Foundation

/// Writes a binary property list object by object, children before their container, so a
/// converter never holds the whole tree: only the output, one offset per object and the
/// object numbers of the containers still open.
///
/// The layout differs from ``BinaryPropertyListWriter``'s canonical one, not the values:
/// references are 4 bytes wide, the root is the last object, dictionary keys keep the input's
/// order, and only short strings (keys, mostly) are shared. Since references are fixed and
/// objects never move, what is written is final: ``takeFinished(minimum:)`` hands it on.
struct StreamingBinaryPropertyListWriter {
    typealias Layout = BinaryPropertyListLayout
    typealias Marker = BinaryPropertyListSpec.Marker

    static let referenceSize = 4
    /// Strings up to this many UTF-8 bytes are shared, up to ``sharedLimit`` of them.
    static let sharedLength = 64
    static let sharedLimit = 1 << 16

    private(set) var bytes = BinaryPropertyListSpec.signature
    /// How many bytes before ``bytes`` were handed on by ``takeFinished(minimum:)``.
    private var handedOn = 0
    private var offsets: [UInt32] = []
    private var shared = StringTable()
    private var booleans: [UInt32?] = [nil, nil]
    /// Values and keys written, counted as the reader counts places.
    private(set) var places = 0
    let maximumPlaces: Int

    /// - Parameters:
    ///   - maximumPlaces: The most values and keys to write.
    ///   - expectedSize: Room to reserve for the output: reserved memory is not resident until
    ///     written, and an output that never moves is never held twice.
    init(maximumPlaces: Int, expectedSize: Int) {
        self.maximumPlaces = maximumPlaces
        bytes.reserveCapacity(expectedSize)
    }

    /// Starts the next object; its number.
    private mutating func begin() throws(FormatFailure) -> UInt32 {
        let offset = handedOn + bytes.count
        guard offset <= UInt32.max, offsets.count < UInt32.max else {
            throw .overLimit("the binary property list would be over 4 GiB, more than this writer's offsets hold")
        }
        offsets.append(UInt32(offset))
        return UInt32(offsets.count - 1)
    }

    /// The bytes written since the last call, when there are at least `minimum` of them (else
    /// none): they are final, and the file is every piece taken, in order, then ``finish(root:)``.
    mutating func takeFinished(minimum: Int) -> [UInt8] {
        guard bytes.count >= minimum, !bytes.isEmpty else { return [] }
        var piece: [UInt8] = []
        piece.reserveCapacity(bytes.count)  // room for the next piece, about as large
        swap(&piece, &bytes)
        handedOn += piece.count
        return piece
    }

    mutating func countPlaces(_ count: Int) throws(FormatFailure) {
        places += count
        guard places <= maximumPlaces else {
            throw .overLimit(
                "the document holds more than \(maximumPlaces) values (counting dictionary keys, as a binary property list's reader does), more than its reader takes (Limits.maximumValueCount)"
            )
        }
    }

    /// Writes a scalar (shared when it is `true`, `false` or a short string); its number.
    mutating func scalar(_ value: StoredValue) throws(FormatFailure) -> UInt32 {
        switch value {
        case .bool(let flag):
            if let number = booleans[flag ? 1 : 0] { return number }
            let number = try begin()
            bytes.append(flag ? Marker.true : Marker.false)
            booleans[flag ? 1 : 0] = number
            return number
        case .string(let text) where text.utf8.count <= Self.sharedLength:
            return try string(text)
        case .null, .array, .dictionary:
            throw .unwritable("a property list has no null value")
        default:
            let writable = try Layout.writable(value)
            let number = try begin()
            Layout.append(scalar: writable, to: &bytes)
            return number
        }
    }

    /// Writes a string given as its (valid) UTF-8, or finds the same one written before; its
    /// number. A string written before costs no `String`.
    mutating func string(utf8: UnsafeBufferPointer<UInt8>) throws(FormatFailure) -> UInt32 {
        let hash = KeyIndex.hash(bytes: utf8)
        if let found = shared.number(ofUTF8: utf8, hash: hash) { return UInt32(truncatingIfNeeded: found) }
        let number = try begin()
        Layout.appendString(utf8, to: &bytes)
        if shared.count < Self.sharedLimit {
            _ = shared.claim(String(decoding: utf8, as: UTF8.self), hash: hash, candidate: Int(number))
        }
        return number
    }

    /// Writes a string, or finds the same one written before; its number. The table keeps
    /// `text` itself (``string(utf8:)`` makes a `String` for a new one).
    mutating func string(_ text: String) throws(FormatFailure) -> UInt32 {
        // The number the next object gets, recorded for the text unless it was written before.
        let next = offsets.count
        if shared.count < Self.sharedLimit {
            let found = shared.claim(text, candidate: next)
            if found != next { return UInt32(truncatingIfNeeded: found) }
        } else if let found = shared.number(of: text) {
            return UInt32(truncatingIfNeeded: found)
        }
        let number = try begin()
        Layout.append(scalar: .string(text), to: &bytes)
        return number
    }

    mutating func array(_ children: [UInt32]) throws(FormatFailure) -> UInt32 {
        let number = try begin()
        Layout.appendMarker(Marker.array, count: children.count, to: &bytes)
        for child in children { Layout.append(UInt64(child), width: Self.referenceSize, to: &bytes) }
        return number
    }

    mutating func dictionary(keys: [UInt32], values: [UInt32]) throws(FormatFailure) -> UInt32 {
        let number = try begin()
        Layout.appendMarker(Marker.dictionary, count: keys.count, to: &bytes)
        for child in keys { Layout.append(UInt64(child), width: Self.referenceSize, to: &bytes) }
        for child in values { Layout.append(UInt64(child), width: Self.referenceSize, to: &bytes) }
        return number
    }

    /// Appends the offset table and the trailer, with `root` as the root object; the rest of
    /// the file (all of it when no piece was taken).
    mutating func finish(root: UInt32) -> [UInt8] {
        let tableStart = handedOn + bytes.count
        let objectCount = offsets.count
        let offsetSize = Layout.width(for: UInt64(tableStart))
        bytes.reserveCapacity(bytes.count + objectCount * offsetSize + BinaryPropertyListSpec.Trailer.size)
        BinaryPropertyListSpec.appendOffsetTable(
            offsets, tableStart: tableStart, referenceSize: Self.referenceSize, rootObject: Int(root), to: &bytes)
        offsets = []
        return bytes
    }
}
