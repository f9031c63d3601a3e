import Foundation

/// Writes a ``StoredValue`` as a binary property list (`bplist00`), deterministically.
///
/// ```swift
/// let data = try BinaryPropertyListWriter().write(["theme": "dark", "size": 14])
/// ```
///
/// Layout, the same for the same tree on every run and platform: objects in depth-first
/// order from the root (a dictionary's keys, sorted by UTF-8 bytes, before its values);
/// equal strings, numbers, dates and data written once and shared; the smallest integer,
/// offset and reference widths that fit. Integers take 1, 2, 4 or 8 bytes, and unsigned
/// values above `Int64.max` the 16-byte form; strings are ASCII when they can be and
/// UTF-16 otherwise; doubles and dates take 8 bytes. ``StoredValue/null`` is written as the
/// string `$null`, as Foundation's `PropertyListEncoder` does. A dictionary whose one entry
/// is `CF$UID` holding an integer of 0 or more is written as a UID object, the form
/// ``BinaryPropertyListReader`` reads a UID into (so `NSKeyedArchiver` archives convert
/// through XML and JSON and back), in 1, 2, 4 or 8 bytes, and shared like other scalars.
///
/// It writes only what ``BinaryPropertyListReader`` with the same ``limits`` reads back: a tree nested
/// deeper, holding more values, or giving more bytes than the limits allow is a thrown error,
/// as it is for ``PropertyListCodec``.
public struct BinaryPropertyListWriter: Sendable {
    /// What the output may hold: the limits of the ``BinaryPropertyListReader`` that is to read it.
    public var limits: Limits

    /// Creates a writer.
    /// - Parameter limits: The limits of the reader the output is for; ``Limits/default`` by
    ///   default.
    public init(limits: Limits = .default) {
        self.limits = limits
    }

    /// Writes `value` as a binary property list.
    /// - Parameter value: The tree to write; any value may be the root.
    /// - Returns: The `bplist00` bytes.
    /// - Throws: ``RawCodingError`` of kind ``RawCodingError/Kind/encodingFailed``, with its
    ///   path, for what ``BinaryPropertyListReader`` would refuse: a date that is not finite or
    ///   is more than 2^53 seconds from 2001, or a ``StoredValue/decimal(_:)`` that no real holds
    ///   exactly.
    ///   Of the same kind, naming the limit, for a tree ``limits`` do not let the reader read
    ///   back.
    public func write(_ value: StoredValue) throws(RawCodingError) -> Data {
        try BinaryPropertyListTreeFormat().writeValue(value, limits: limits)
    }

    func writeBytes(_ value: StoredValue, maximumValueCount: Int = .max) throws(FormatFailure) -> [UInt8] {
        var layout = BinaryPropertyListLayout(maximumPlaces: maximumValueCount)
        _ = try layout.add(value)
        return layout.serialize()
    }
}

/// The flattened object table of a binary property list being written.
struct BinaryPropertyListLayout {
    typealias Spec = BinaryPropertyListSpec
    typealias Marker = BinaryPropertyListSpec.Marker

    /// What an object is, with container children as object numbers.
    enum Object {
        case scalar(StoredValue)
        /// A UID object: the tree's `["CF$UID": N]`.
        case uid(UInt64)
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    /// Strings and bytes already given an object number (numbers: ``NumberTable``).
    enum ScalarKey: Hashable {
        case string(ExactText)
        case data(Data)
        case uid(UInt64)
    }

    /// A string compared and hashed by its UTF-8 bytes. `String`'s own `==` treats canonically
    /// equivalent strings (`"é"` and `"e\u{301}"`) as equal, and sharing one object between
    /// them would change the stored text.
    struct ExactText: Hashable {
        var text: String

        static func == (lhs: ExactText, rhs: ExactText) -> Bool {
            KeyIndex.same(lhs.text, rhs.text)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(KeyIndex.hash(text))
        }
    }

    var objects: [Object] = []
    var shared: [ScalarKey: Int] = [:]
    var strings = StringTable()
    var numbers = NumberTable()
    var keyOrder = KeyOrder()
    /// Places values and keys take in the tree, counted as the reader counts them.
    var places = 0
    let maximumPlaces: Int
    /// Containers open above the value being added.
    var depth = 0
    var stack = StackCheck()

    init(maximumPlaces: Int = .max) {
        self.maximumPlaces = maximumPlaces
    }

    /// Adds `value` and everything under it; returns its object number.
    mutating func add(_ value: StoredValue) throws(FormatFailure) -> Int {
        places += 1
        if places > maximumPlaces { throw placesFailure() }
        switch value {
        case .array, .dictionary:
            depth += 1
            defer { depth -= 1 }
            guard stack.allows(depth: depth) else { throw stack.measured.failure(depth: depth, at: nil) }
            return try addContainer(value)
        default:
            return try addScalar(value)
        }
    }

    private mutating func addContainer(_ value: StoredValue) throws(FormatFailure) -> Int {
        switch value {
        case .array(let elements):
            let number = objects.count
            objects.append(.array([]))
            var children: [Int] = []
            children.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                do {
                    children.append(try add(element))
                } catch {
                    throw error.inside(.index(index))
                }
            }
            objects[number] = .array(children)
            return number
        case .dictionary(let dictionary):
            // One object, as the reader counts it.
            if let uid = Spec.uidValue(of: dictionary) { return uidObject(uid) }
            let number = objects.count
            objects.append(.dictionary(keys: [], values: []))
            places += dictionary.count
            if places > maximumPlaces { throw placesFailure() }
            let order = keyOrder.order(of: dictionary)
            var keys: [Int] = []
            keys.reserveCapacity(order.count)
            for position in order { keys.append(addKey(dictionary.entries[position].key)) }
            var values: [Int] = []
            values.reserveCapacity(order.count)
            for position in order {
                do {
                    values.append(try add(dictionary.entries[position].value))
                } catch {
                    throw error.inside(.key(dictionary.entries[position].key))
                }
            }
            objects[number] = .dictionary(keys: keys, values: values)
            return number
        default:
            return try addScalar(value)
        }
    }

    @inline(never)
    private mutating func addScalar(_ value: StoredValue) throws(FormatFailure) -> Int {
        switch value {
        case .array, .dictionary: return try addContainer(value)
        case .null:
            return addKey(PropertyListNullMarker.text)
        case .bool(let flag): return number(value, kind: .bool, bits: flag ? 1 : 0)
        case .int(let number): return self.number(value, kind: .int, bits: UInt64(bitPattern: number))
        case .uint(let number): return self.number(value, kind: .uint, bits: number)
        case .double(let number): return self.number(value, kind: .double, bits: number.bitPattern)
        case .decimal(let number):
            let double = try Self.exactReal(number)
            return self.number(.double(double), kind: .double, bits: double.bitPattern)
        case .date(let date):
            _ = try Self.writable(value)
            return number(value, kind: .date, bits: date.timeIntervalSinceReferenceDate.bitPattern)
        case .string(let text): return scalar(value, key: .string(ExactText(text: text)))
        case .data(let data): return scalar(value, key: .data(data))
        }
    }

    /// A decimal as the real that holds it exactly, a date its readers take; other scalars as
    /// they are. Property lists have no decimals, and no date beyond 2^53 seconds of 2001.
    static func writable(_ value: StoredValue) throws(FormatFailure) -> StoredValue {
        switch value {
        case .decimal(let number):
            return .double(try exactReal(number))
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            guard holds(date) else {
                throw .unwritable(
                    "a binary property list cannot hold a date \(seconds) seconds from 2001: its readers take finite dates within 2^53 seconds (285 million years) of 2001"
                )
            }
            return value
        default:
            return value
        }
    }

    /// The real that holds `number` exactly: property lists have no decimals.
    /// Whether the format's readers take `date` back: finite, within 2^53 seconds of 2001.
    static func holds(_ date: Date) -> Bool {
        let seconds = date.timeIntervalSinceReferenceDate
        return seconds.isFinite && seconds.magnitude <= BinaryPropertyListSpec.largestDateOffset
    }

    static func exactReal(_ number: Decimal) throws(FormatFailure) -> Double {
        guard let double = number.exactDouble else { throw .unwritable(number.propertyListRefusal) }
        return double
    }

    func placesFailure() -> FormatFailure {
        .overLimit(
            "the tree holds more than \(maximumPlaces) values (counting dictionary keys, as a binary property list's reader does), more than its reader takes (Limits.maximumValueCount)"
        )
    }

    /// Adds a string that cannot fail: a key, or the null marker.
    mutating func addKey(_ key: String) -> Int {
        scalar(.string(key), key: .string(ExactText(text: key)))
    }

    mutating func scalar(_ value: StoredValue, key: ScalarKey) -> Int {
        let candidate = objects.count
        if case .string(let text) = key {
            let number = strings.claim(text.text, candidate: candidate)
            if number == candidate { objects.append(.scalar(value)) }
            return number
        }
        // One hash lookup: reading through the default subscript inserts when absent.
        let number = Self.claim(&shared[key, default: candidate])
        if number == candidate { objects.append(.scalar(value)) }
        return number
    }

    /// One hash lookup: reading through the default subscript inserts when absent.
    static func claim(_ slot: inout Int) -> Int { slot }

    /// A UID object, shared like other scalars.
    mutating func uidObject(_ value: UInt64) -> Int {
        let candidate = objects.count
        let number = Self.claim(&shared[.uid(value), default: candidate])
        if number == candidate { objects.append(.uid(value)) }
        return number
    }

    /// A Boolean, number or date: shared through ``numbers``, keyed by kind and bit pattern.
    mutating func number(_ value: StoredValue, kind: NumberTable.Kind, bits: UInt64) -> Int {
        let candidate = objects.count
        let number = numbers.claim(kind: kind, bits: bits, candidate: candidate)
        if number == candidate { objects.append(.scalar(value)) }
        return number
    }

    func serialize() -> [UInt8] {
        let referenceSize = Self.width(for: UInt64(objects.count))
        var bytes = Spec.signature
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(bytes.count)
            switch object {
            case .scalar(let value): Self.append(scalar: value, to: &bytes)
            case .uid(let value):
                let width = Self.width(for: value)
                bytes.append(Marker.uid | UInt8(width - 1))
                Self.append(value, width: width, to: &bytes)
            case .array(let children):
                Self.appendMarker(Marker.array, count: children.count, to: &bytes)
                for child in children { Self.append(UInt64(child), width: referenceSize, to: &bytes) }
            case .dictionary(let keys, let values):
                Self.appendMarker(Marker.dictionary, count: keys.count, to: &bytes)
                for child in keys { Self.append(UInt64(child), width: referenceSize, to: &bytes) }
                for child in values { Self.append(UInt64(child), width: referenceSize, to: &bytes) }
            }
        }
        Spec.appendOffsetTable(
            offsets, tableStart: bytes.count, referenceSize: referenceSize, rootObject: 0, to: &bytes)
        return bytes
    }

    /// The fewest bytes (1, 2, 4 or 8) that hold `value`.
    static func width(for value: UInt64) -> Int {
        switch value {
        case ..<(1 << 8): 1
        case ..<(1 << 16): 2
        case ..<(1 << 32): 4
        default: 8
        }
    }

    static func append<Bytes: ByteOutput>(_ value: UInt64, width: Int, to bytes: inout Bytes) {
        bytes.appendBigEndian(value, width: width)
    }

    /// A marker with its count: in the low nibble below 15, else `0xF` and an integer object.
    static func appendMarker<Bytes: ByteOutput>(_ marker: UInt8, count: Int, to bytes: inout Bytes) {
        if count < 15 {
            bytes.appendByte(marker | UInt8(count))
        } else {
            bytes.appendByte(marker | Marker.countFollows)
            appendInteger(UInt64(count), to: &bytes)
        }
    }

    static func appendInteger<Bytes: ByteOutput>(_ value: UInt64, to bytes: inout Bytes) {
        let width = width(for: value)
        bytes.appendByte(Marker.integer | UInt8(width.trailingZeroBitCount))
        append(value, width: width, to: &bytes)
    }

    /// A string object: ASCII bytes when every byte is ASCII, else big-endian UTF-16
    /// transcoded from the (valid) UTF-8.
    static func appendString<Bytes: ByteOutput>(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout Bytes) {
        if UTF8Validation.isASCII(utf8) {
            appendMarker(Marker.asciiString, count: utf8.count, to: &bytes)
            bytes.appendBytes(utf8)
            return
        }
        var units = 0
        for byte in utf8 {
            // One UTF-16 unit per scalar (lead bytes), two for scalars past U+FFFF.
            if byte & 0xC0 != 0x80 { units += 1 }
            if byte >= 0xF0 { units += 1 }
        }
        appendMarker(Marker.utf16String, count: units, to: &bytes)
        var index = 0
        while index < utf8.count {
            let lead = UInt32(utf8[index])
            var scalar: UInt32
            switch lead {
            case ..<0x80:
                scalar = lead
                index += 1
            case ..<0xE0:
                scalar = (lead & 0x1F) << 6 | UInt32(utf8[index + 1] & 0x3F)
                index += 2
            case ..<0xF0:
                scalar = (lead & 0x0F) << 12 | UInt32(utf8[index + 1] & 0x3F) << 6 | UInt32(utf8[index + 2] & 0x3F)
                index += 3
            default:
                scalar =
                    (lead & 0x07) << 18 | UInt32(utf8[index + 1] & 0x3F) << 12
                    | UInt32(utf8[index + 2] & 0x3F) << 6 | UInt32(utf8[index + 3] & 0x3F)
                index += 4
            }
            if scalar >= 0x10000 {
                scalar -= 0x10000
                bytes.appendBigEndian(UInt64(0xD800 + (scalar >> 10)), width: 2)
                bytes.appendBigEndian(UInt64(0xDC00 + (scalar & 0x3FF)), width: 2)
            } else {
                bytes.appendBigEndian(UInt64(scalar), width: 2)
            }
        }
    }

    static func append<Bytes: ByteOutput>(scalar value: StoredValue, to bytes: inout Bytes) {
        switch value {
        case .bool(let flag):
            bytes.appendByte(flag ? Marker.true : Marker.false)
        case .int(let number):
            if number >= 0 {
                appendInteger(UInt64(number), to: &bytes)
            } else {
                bytes.appendByte(Marker.integer8)
                append(UInt64(bitPattern: number), width: 8, to: &bytes)
            }
        case .uint(let number):
            if number <= UInt64(Int64.max) {
                appendInteger(number, to: &bytes)
            } else {
                bytes.appendByte(Marker.integer16)
                append(0, width: 8, to: &bytes)
                append(number, width: 8, to: &bytes)
            }
        case .double(let number):
            bytes.appendByte(Marker.real8)
            append(number.bitPattern, width: 8, to: &bytes)
        case .date(let date):
            bytes.appendByte(Marker.date)
            append(date.timeIntervalSinceReferenceDate.bitPattern, width: 8, to: &bytes)
        case .data(let data):
            appendMarker(Marker.data, count: data.count, to: &bytes)
            data.withUnsafeBytes { bytes.appendBytes($0.bindMemory(to: UInt8.self)) }
        case .string(let text):
            var text = text
            text.withUTF8 { appendString($0, to: &bytes) }
        case .null, .decimal, .array, .dictionary:
            preconditionFailure("add(_:) lays out containers and turns null and decimals into other scalars")
        }
    }
}

/// The layout's shared strings, by their UTF-8 bytes: open addressing on ``KeyIndex``'s hash,
/// cheaper than `Hasher` for the many short strings of a document. (A document holds far fewer
/// than 2^31 strings: the limits bound its values long before.)
struct StringTable {
    private var slots: [Int32]
    private var texts: [String] = []
    private var numbers: [Int] = []
    private var hashes: [Int] = []
    private var shift: UInt64 = 64 - 8

    init() {
        slots = Array(repeating: 0, count: 256)
    }

    /// How many strings it holds.
    var count: Int { texts.count }

    /// Empties the table, keeping its first capacity's storage.
    mutating func removeAll() {
        texts.removeAll(keepingCapacity: true)
        numbers.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
        guard slots.count == 256 else {
            self = StringTable()
            return
        }
        slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    /// The object of `text`, or `candidate` (recorded as its object) when it is new.
    mutating func claim(_ text: String, candidate: Int) -> Int {
        claim(text, hash: KeyIndex.hash(text), candidate: candidate)
    }

    /// As ``claim(_:candidate:)``, with `text`'s ``KeyIndex`` hash already known.
    mutating func claim(_ text: String, hash: Int, candidate: Int) -> Int {
        if (texts.count + 1) * 2 > slots.count { grow() }
        let (slot, found) = find(text, hash: hash)
        if let found { return found }
        texts.append(text)
        numbers.append(candidate)
        hashes.append(hash)
        slots[slot] = Int32(truncatingIfNeeded: texts.count)
        return candidate
    }

    /// The object of `text`, if it holds it.
    func number(of text: String) -> Int? {
        find(text, hash: KeyIndex.hash(text)).number
    }

    /// The object of the string whose UTF-8 is `utf8` (its ``KeyIndex`` hash `hash`), if it
    /// holds it: found without making a `String`.
    func number(ofUTF8 utf8: UnsafeBufferPointer<UInt8>, hash: Int) -> Int? {
        probe(hash) { UTF8Validation.spells(texts[$0], utf8) }.number
    }

    /// The slot of `text`: where it is, with its object, or the empty slot where it would go.
    @inline(__always)
    private func find(_ text: String, hash: Int) -> (slot: Int, number: Int?) {
        probe(hash) { KeyIndex.same(texts[$0], text) }
    }

    /// The slot of the entry with `hash` for which `matches` holds, with its object, or the
    /// empty slot where such an entry would go.
    @inline(__always)
    private func probe(_ hash: Int, matches: (Int) -> Bool) -> (slot: Int, number: Int?) {
        let mask = slots.count - 1
        var slot = Self.slot(hash, shift: shift)
        while slots[slot] != 0 {
            let entry = Int(slots[slot]) - 1
            if hashes[entry] == hash, matches(entry) { return (slot, numbers[entry]) }
            slot = (slot + 1) & mask
        }
        return (slot, nil)
    }

    /// The high bits of the hash, mixed once more, so similar strings land apart.
    @inline(__always)
    private static func slot(_ hash: Int, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(hash)) &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }

    private mutating func grow() {
        slots = Array(repeating: 0, count: slots.count * 2)
        shift -= 1
        let mask = slots.count - 1
        for entry in hashes.indices {
            var slot = Self.slot(hashes[entry], shift: shift)
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(truncatingIfNeeded: entry + 1)
        }
    }
}

/// Booleans, numbers and dates already given an object number, by kind and bit pattern: an
/// open-addressing table hashed by one multiplication, cheaper for 8-byte keys than `Hasher`
/// (a large document of numbers spent a third of its binary encoding time hashing them).
struct NumberTable {
    enum Kind: UInt8 {
        case bool = 1
        case int
        case uint
        case double
        case date
    }

    /// Per slot: the kind (0 when empty), the bit pattern and the object number.
    private var kinds: [UInt8]
    private var bits: [UInt64]
    private var numbers: [Int]
    private var count = 0
    private var shift: UInt64

    init() {
        kinds = Array(repeating: 0, count: 256)
        bits = Array(repeating: 0, count: 256)
        numbers = Array(repeating: 0, count: 256)
        shift = 64 - 8
    }

    /// Empties the table, keeping its first capacity's storage.
    mutating func removeAll() {
        guard kinds.count == 256 else {
            self = NumberTable()
            return
        }
        count = 0
        kinds.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    /// The object number already given to this kind and bit pattern, or `candidate`, which
    /// it is given now.
    mutating func claim(kind: Kind, bits key: UInt64, candidate: Int) -> Int {
        if (count + 1) * 2 > kinds.count { grow() }
        let mask = kinds.count - 1
        var slot = Self.slot(kind: kind.rawValue, bits: key, shift: shift)
        while kinds[slot] != 0 {
            if kinds[slot] == kind.rawValue, bits[slot] == key { return numbers[slot] }
            slot = (slot + 1) & mask
        }
        kinds[slot] = kind.rawValue
        bits[slot] = key
        numbers[slot] = candidate
        count += 1
        return candidate
    }

    @inline(__always)
    private static func slot(kind: UInt8, bits: UInt64, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: ((bits ^ (UInt64(kind) &<< 59)) &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }

    private mutating func grow() {
        let oldKinds = kinds
        let oldBits = bits
        let oldNumbers = numbers
        let capacity = oldKinds.count * 2
        kinds = Array(repeating: 0, count: capacity)
        bits = Array(repeating: 0, count: capacity)
        numbers = Array(repeating: 0, count: capacity)
        shift -= 1
        let mask = capacity - 1
        for old in oldKinds.indices where oldKinds[old] != 0 {
            var slot = Self.slot(kind: oldKinds[old], bits: oldBits[old], shift: shift)
            while kinds[slot] != 0 { slot = (slot + 1) & mask }
            kinds[slot] = oldKinds[old]
            bits[slot] = oldBits[old]
            numbers[slot] = oldNumbers[old]
        }
    }
}
