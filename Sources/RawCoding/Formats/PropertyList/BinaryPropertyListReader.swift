import Foundation

/// Reads a binary property list (`bplist00`) into a ``StoredValue``, defensively.
///
/// ```swift
/// let tree = try BinaryPropertyListReader().read(data)
/// ```
///
/// Every offset, length and object reference is checked against the input before it is used;
/// the first problem is a thrown ``RawCodingError`` with its byte offset. Reference cycles are
/// refused. An object referenced from several places is read once and shared, but each place
/// counts toward ``Limits/maximumValueCount``, so a small file that describes an enormous
/// tree fails quickly instead of filling memory.
///
/// Accepted objects: booleans, integers of 1, 2, 4 and 8 bytes and the 16-byte form (values
/// from `Int64.min` to `UInt64.max`), 4- and 8-byte reals, dates, data, ASCII and UTF-16
/// strings (lone surrogates refused), arrays, dictionaries with string keys, and null (read as
/// the string `"$null"`, which is how both property-list writers write ``StoredValue/null``).
///
/// Dates: any number of seconds from 2001-01-01 within ±2^53 (about ±285 million years, the
/// range in which a `Double` holds every whole second) is accepted, as `Date` holds it,
/// including `Date.distantPast`, `Date.distantFuture` and years past 9999 that Python's
/// `plistlib` cannot represent. NaN, infinite and larger values are refused: they are not
/// points in time.
/// `NSKeyedArchiver`'s UIDs (object references) are read as a dictionary with one key,
/// `CF$UID`, holding the UID's integer, as Core Foundation writes them to XML; the binary
/// writer writes such a dictionary back as a UID, so keyed archives convert between the formats.
/// Decoding a `Codable` type, a UID is that keyed container. Sets are refused: they have no
/// ``StoredValue``.
public struct BinaryPropertyListReader: Sendable {
    /// The bounds enforced while reading.
    public var limits: Limits

    /// Creates a reader.
    /// - Parameter limits: The bounds to enforce.
    public init(limits: Limits = .default) {
        self.limits = limits
    }

    /// Whether `data` starts like a binary property list.
    public static func hasSignature(_ data: Data) -> Bool {
        BinaryPropertyListTreeFormat.hasSignature(data)
    }

    /// Reads the property list in `data`.
    /// - Parameter data: `bplist00` bytes.
    /// - Returns: The value.
    /// - Throws: ``RawCodingError`` with the byte offset of the first problem.
    public func read(_ data: Data) throws(RawCodingError) -> StoredValue {
        try BinaryPropertyListTreeFormat().readValue(data, limits: limits)
    }

}

struct BinaryPropertyListParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: Limits
    let maximumDepth: Int
    /// The most values this input may produce (``Limits/valueBound(forInputOf:)``).
    let valueBound: Int
    let offsetSize: Int
    let referenceSize: Int
    let objectCount: Int
    let rootObject: Int
    let tableStart: Int
    var depth = 0
    var valueCount = 0
    var stack = StackCheck()
    /// Whether a container object was referenced again after it was read: the tree then has
    /// more containers than the file, and writing it back can take more bytes than were read.
    var sharesContainers = false
    /// Objects already read, and how many values each expands to.
    let cache: ObjectCache
    /// Containers being read right now: meeting one again is a cycle.
    var inProgress: [Bool]

    typealias Spec = BinaryPropertyListSpec
    typealias Marker = BinaryPropertyListSpec.Marker

    init(bytes: UnsafeBufferPointer<UInt8>, limits: Limits) throws(FormatFailure) {
        self.bytes = bytes
        self.limits = limits
        maximumDepth = limits.effectiveDepth
        valueBound = limits.valueBound(forInputOf: bytes.count)
        guard Spec.hasReadableHeader(bytes) else {
            throw .malformed(
                bytes.count < 8
                    ? "input is \(bytes.count) bytes, too short for a binary property list"
                    : "not a binary property list: it does not start with \"bplist0\" (\"bplist00\" and its minor versions)",
                at: InputPosition(byteOffset: 0))
        }
        guard bytes.count >= 8 + 1 + 1 + Spec.Trailer.size else {
            throw .endedEarly(
                "input is \(bytes.count) bytes, too short for a header, an object, an offset and a trailer",
                at: InputPosition(byteOffset: bytes.count))
        }
        let trailer = bytes.count - Spec.Trailer.size
        let fields = Spec.Trailer(readingEndOf: bytes)
        let (offsetSize, referenceSize) = (fields.offsetSize, fields.referenceSize)
        let (objectCount, rootObject, tableStart) = (fields.objectCount, fields.rootObject, fields.tableStart)
        let trailerPosition = InputPosition(byteOffset: trailer)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw .endedEarly(
                "the trailer gives offsets of \(offsetSize) bytes and references of \(referenceSize) bytes; both must be 1 to 8",
                at: trailerPosition)
        }
        guard objectCount >= 1, objectCount <= UInt64(trailer) else {
            throw .endedEarly(
                "the trailer gives \(objectCount) objects, impossible in \(bytes.count) bytes", at: trailerPosition)
        }
        guard objectCount <= UInt64(max(limits.maximumValueCount, 1)) else {
            throw .limit(
                "the trailer gives \(objectCount) objects, more than the \(limits.maximumValueCount) values allowed (Limits.maximumValueCount)",
                at: trailerPosition)
        }
        guard rootObject < objectCount else {
            throw .endedEarly(
                "the trailer's root object \(rootObject) is not one of its \(objectCount) objects", at: trailerPosition)
        }
        guard tableStart >= 9, tableStart < UInt64(trailer),
            (UInt64(trailer) - tableStart) / UInt64(offsetSize) >= objectCount
        else {
            throw .endedEarly(
                "the trailer's offset table at \(tableStart) (\(objectCount) entries of \(offsetSize) bytes) does not fit between the header and the trailer",
                at: trailerPosition)
        }
        self.offsetSize = offsetSize
        self.referenceSize = referenceSize
        self.objectCount = Int(objectCount)
        self.rootObject = Int(rootObject)
        self.tableStart = Int(tableStart)
        cache = ObjectCache(count: Int(objectCount))
        inProgress = Array(repeating: false, count: Int(objectCount))
    }

    @inline(__always)
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, size: Int) -> UInt64 {
        Spec.integer(bytes, at: offset, size: size)
    }

    func malformed(_ reason: String, at offset: Int) -> FormatFailure {
        .malformed(reason, at: InputPosition(byteOffset: offset))
    }

    /// The document's value, refused when writing it back could exceed the input limit.
    ///
    /// Writers lay out every container on its own, so a file whose containers are shared can
    /// describe a tree that takes far more bytes to write than to read (found by fuzzing: 163
    /// bytes describing 13 MB). Such a file is refused, so nothing is read that cannot be
    /// written back. Counted from the file's objects, each once, not by writing: the tree can
    /// hold millions of values.
    mutating func parseRoot() throws(FormatFailure) -> StoredValue {
        let value = try object(rootObject)
        if sharesContainers {
            let size = try writtenSizeBound()
            if size > limits.maximumInputBytes {
                throw .limit(
                    "the property list shares containers that, written back, could take \(size) bytes, more than the \(limits.maximumInputBytes) allowed (Limits.maximumInputBytes)",
                    at: InputPosition(byteOffset: tableStart))
            }
        }
        return value
    }

    /// The byte offset of object `number`, checked to lie in the object area.
    func offset(of number: Int) throws(FormatFailure) -> Int {
        let entry = tableStart + number * offsetSize
        let offset = Self.integer(bytes, at: entry, size: offsetSize)
        guard offset >= 8, offset < UInt64(tableStart) else {
            throw malformed(
                "object \(number) has offset \(offset), outside the objects (bytes 8 to \(tableStart))", at: entry)
        }
        return Int(offset)
    }

    /// Reads object `number` (or takes it from the cache) and counts its values. Not inlined:
    /// a dictionary calls it twice per entry, and two inlined copies would double its frame.
    @inline(never)
    mutating func object(_ number: Int) throws(FormatFailure) -> StoredValue {
        let cachedCount = cache.counts[number]
        if cachedCount > 0 {
            try count(cachedCount, at: number)
            let value = cache.values[number]
            if case .array = value {
                sharesContainers = true
            } else if case .dictionary(let dictionary) = value, Spec.uidValue(of: dictionary) == nil {
                // A UID (`["CF$UID": N]`) is a scalar in the file, written once however shared.
                sharesContainers = true
            }
            return value
        }
        let before = valueCount
        let start = try offset(of: number)
        let marker = bytes[start]
        let value =
            marker >> 4 == Marker.array >> 4 || marker >> 4 == Marker.dictionary >> 4
            ? try container(number, at: start, marker: marker) : try scalarObject(number, at: start, marker: marker)
        cache.store(value, expandingTo: valueCount - before, at: number)
        return value
    }

    /// An array or dictionary. Recursion goes object → container → array/dictionary → object,
    /// so these frames are kept small; scalars and messages live in other functions.
    mutating func container(_ number: Int, at start: Int, marker: UInt8) throws(FormatFailure) -> StoredValue {
        if inProgress[number] || depth >= maximumDepth { throw containerFailure(number, at: start) }
        depth += 1
        guard stack.allows(depth: depth) else {
            throw stack.measured.failure(depth: depth, at: InputPosition(byteOffset: start))
        }
        inProgress[number] = true
        try count(1, at: number)
        let value =
            marker >> 4 == Marker.array >> 4
            ? try array(at: start, marker: marker) : try dictionary(at: start, marker: marker)
        inProgress[number] = false
        depth -= 1
        return value
    }

    @inline(never)
    func containerFailure(_ number: Int, at start: Int) -> FormatFailure {
        inProgress[number]
            ? malformed("object \(number) contains itself: a reference cycle", at: start)
            : limits.depthFailure(at: InputPosition(byteOffset: start))
    }

    @inline(never)
    mutating func scalarObject(_ number: Int, at start: Int, marker: UInt8) throws(FormatFailure) -> StoredValue {
        try count(1, at: number)
        return try scalar(at: start, marker: marker)
    }

    mutating func count(_ values: Int, at number: Int) throws(FormatFailure) {
        valueCount += values
        guard valueCount <= valueBound else {
            // The position of the object's entry in the offset table: always inside the input.
            let position = InputPosition(byteOffset: tableStart + number * offsetSize)
            throw valueCount > limits.maximumValueCount
                ? limits.valueCountFailure(at: position) : limits.expansionFailure(byteCount: bytes.count, at: position)
        }
    }

    /// At most how many bytes the binary writer takes for the tree just read, computed only
    /// after a read that shared containers (so reading stays as fast without). The writer lays
    /// out every container instance on its own and every distinct scalar once; this walks the
    /// file's objects once, with each container's count of instances below it remembered, and
    /// counts widths as the writer picks them.
    func writtenSizeBound() throws(FormatFailure) -> Int {
        var walk = WrittenSizeWalk(objectCount: objectCount)
        try walk.visit(rootObject, in: self)
        let objects = walk.containerInstances[rootObject] + walk.scalarObjects
        let referenceWidth = BinaryPropertyListLayout.width(for: UInt64(objects))
        let objectBytes = walk.headerBytes[rootObject] + valueCount * referenceWidth + walk.scalarBytes
        let offsetWidth = BinaryPropertyListLayout.width(for: UInt64(8 + objectBytes))
        return 8 + objectBytes + objects * offsetWidth + 32
    }

    /// The count in a marker's low nibble, or the integer object after it when the nibble is 0xF.
    /// Returns the count and the offset of the contents.
    func length(at start: Int, marker: UInt8) throws(FormatFailure) -> (count: Int, contents: Int) {
        let nibble = Int(marker & 0x0F)
        guard nibble == Int(Marker.countFollows) else { return (nibble, start + 1) }
        let lengthMarker = start + 1
        guard lengthMarker < tableStart else { throw malformed("object at \(start) ends before its length", at: start) }
        let intMarker = bytes[lengthMarker]
        guard intMarker >> 4 == Marker.integer >> 4, intMarker & 0x0F <= 3 else {
            throw malformed(
                "object at \(start) has a length that is not an integer of 1 to 8 bytes (marker \(UTF8Validation.hex(intMarker)))",
                at: lengthMarker)
        }
        let size = 1 << Int(intMarker & 0x0F)
        guard lengthMarker + 1 + size <= tableStart else {
            throw malformed("object at \(start) is cut off in its length", at: lengthMarker)
        }
        let value = Self.integer(bytes, at: lengthMarker + 1, size: size)
        guard value <= UInt64(Int.max / 4) else {
            throw malformed("object at \(start) claims \(value) elements", at: lengthMarker)
        }
        return (Int(value), lengthMarker + 1 + size)
    }

    /// Checks that `count` items of `unit` bytes from `contents` lie inside the object area.
    func checkExtent(_ count: Int, unit: Int, from contents: Int, object start: Int, what: String) throws(FormatFailure)
    {
        guard contents <= tableStart, count <= (tableStart - contents) / unit else {
            throw malformed(
                "\(what) at \(start) claims \(count) \(unit == 1 ? "bytes" : "items of \(unit) bytes"), past the end of the objects at \(tableStart)",
                at: start)
        }
    }

    func reference(at offset: Int) throws(FormatFailure) -> Int {
        let reference = Self.integer(bytes, at: offset, size: referenceSize)
        guard reference < UInt64(objectCount) else {
            throw malformed("reference to object \(reference), but there are \(objectCount) objects", at: offset)
        }
        return Int(reference)
    }

    mutating func array(at start: Int, marker: UInt8) throws(FormatFailure) -> StoredValue {
        let (count, contents) = try length(at: start, marker: marker)
        try checkExtent(count, unit: referenceSize, from: contents, object: start, what: "array")
        var elements: [StoredValue] = []
        elements.reserveCapacity(count)
        for position in 0..<count {
            do {
                elements.append(try object(try reference(at: contents + position * referenceSize)))
            } catch {
                throw error.inside(.index(position))
            }
        }
        return .array(elements)
    }

    mutating func dictionary(at start: Int, marker: UInt8) throws(FormatFailure) -> StoredValue {
        let (count, contents) = try length(at: start, marker: marker)
        try checkExtent(count, unit: referenceSize * 2, from: contents, object: start, what: "dictionary")
        var entries: [StoredDictionary.Element] = []
        entries.reserveCapacity(count)
        for position in 0..<count {
            let keyOffset = contents + position * referenceSize
            let keyObject = try object(try reference(at: keyOffset))
            // Not through a method taking the key: passing the parser to a call that is not
            // inlined copied it, for every entry.
            guard case .string(let key) = keyObject else { throw keyFailure(keyObject, at: keyOffset, in: start) }
            do {
                entries.append((key, try object(try reference(at: contents + (count + position) * referenceSize))))
            } catch {
                throw error.inside(.key(key))
            }
        }
        return .dictionary(StoredDictionary(readEntries: entries))
    }

    @inline(never)
    func keyFailure(_ key: StoredValue, at offset: Int, in start: Int) -> FormatFailure {
        malformed("dictionary at \(start) has a key of kind \(key.kindName), not a string", at: offset)
    }

    func scalar(at start: Int, marker: UInt8) throws(FormatFailure) -> StoredValue {
        switch marker >> 4 {
        case 0x0:
            switch marker {
            // Property lists have no null in this library's trees: the null object reads as
            // the marker string both writers write for `.null`, so what is read writes back
            // and reads again as the same tree (the property-list codec decodes it as nil).
            case 0x00: return .string(PropertyListNullMarker.text)
            case Marker.false: return .bool(false)
            case Marker.true: return .bool(true)
            default: throw malformed("unknown object marker \(UTF8Validation.hex(marker))", at: start)
            }
        case Marker.integer >> 4:
            let nibble = marker & 0x0F
            guard nibble <= 4 else {
                throw malformed(
                    "integer at \(start) has an invalid size (marker \(UTF8Validation.hex(marker)))", at: start)
            }
            let size = 1 << Int(nibble)
            try checkExtent(size, unit: 1, from: start + 1, object: start, what: "integer")
            if size == 16 {
                let high = Self.integer(bytes, at: start + 1, size: 8)
                let low = Self.integer(bytes, at: start + 9, size: 8)
                if high == 0 { return low <= UInt64(Int64.max) ? .int(Int64(low)) : .uint(low) }
                if high == .max, low > UInt64(Int64.max) { return .int(Int64(bitPattern: low)) }
                throw malformed(NumberParsing.outside64Bits("at \(start)"), at: start)
            }
            let value = Self.integer(bytes, at: start + 1, size: size)
            // 1-, 2- and 4-byte integers are unsigned; 8-byte ones are signed.
            return size == 8 ? .int(Int64(bitPattern: value)) : .int(Int64(value))
        case Marker.real8 >> 4:
            switch marker & 0x0F {
            case 2:
                try checkExtent(4, unit: 1, from: start + 1, object: start, what: "real")
                return .double(Double(Float(bitPattern: UInt32(Self.integer(bytes, at: start + 1, size: 4)))))
            case 3:
                try checkExtent(8, unit: 1, from: start + 1, object: start, what: "real")
                return .double(Double(bitPattern: Self.integer(bytes, at: start + 1, size: 8)))
            default:
                throw malformed(
                    "real at \(start) has an invalid size (marker \(UTF8Validation.hex(marker)))", at: start)
            }
        case Marker.date >> 4:
            guard marker == Marker.date else {
                throw malformed(
                    "date at \(start) has an invalid size (marker \(UTF8Validation.hex(marker)))", at: start)
            }
            try checkExtent(8, unit: 1, from: start + 1, object: start, what: "date")
            let seconds = Double(bitPattern: Self.integer(bytes, at: start + 1, size: 8))
            guard seconds.isFinite, seconds.magnitude <= Spec.largestDateOffset else {
                throw malformed(
                    "date at \(start) is \(seconds) seconds from 2001; dates must be finite and within 2^53 seconds (285 million years) of 2001",
                    at: start)
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case Marker.data >> 4:
            let (count, contents) = try length(at: start, marker: marker)
            try checkExtent(count, unit: 1, from: contents, object: start, what: "data")
            return .data(Data(UnsafeBufferPointer(rebasing: bytes[contents..<(contents + count)])))
        case Marker.asciiString >> 4:
            let (count, contents) = try length(at: start, marker: marker)
            try checkExtent(count, unit: 1, from: contents, object: start, what: "ASCII string")
            let text = UnsafeBufferPointer(rebasing: bytes[contents..<(contents + count)])
            if let bad = text.firstIndex(where: { $0 >= 0x80 }) {
                throw malformed(
                    "ASCII string at \(start) holds the byte \(UTF8Validation.hex(text[bad]))", at: contents + bad)
            }
            return .string(String(decoding: text, as: UTF8.self))
        case Marker.utf16String >> 4:
            let (count, contents) = try length(at: start, marker: marker)
            try checkExtent(count, unit: 2, from: contents, object: start, what: "UTF-16 string")
            return .string(try utf16(count: count, at: contents, object: start))
        case Marker.uid >> 4:
            let size = Int(marker & 0x0F) + 1
            guard size == 1 || size == 2 || size == 4 || size == 8 else {
                throw malformed("UID at \(start) has \(size) bytes; a UID takes 1, 2, 4 or 8", at: start)
            }
            try checkExtent(size, unit: 1, from: start + 1, object: start, what: "UID")
            return Spec.uidTree(Self.integer(bytes, at: start + 1, size: size))
        case 0xC:
            throw malformed("set object at \(start): sets have no StoredValue form", at: start)
        default:
            throw malformed("unknown object marker \(UTF8Validation.hex(marker))", at: start)
        }
    }

    /// Big-endian UTF-16 transcoded straight to UTF-8; a lone surrogate is an error.
    func utf16(count: Int, at contents: Int, object start: Int) throws(FormatFailure) -> String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(count * 3)
        var position = 0
        while position < count {
            let offset = contents + position * 2
            let unit = UInt32(bytes[offset]) << 8 | UInt32(bytes[offset + 1])
            position += 1
            if unit < 0xD800 || unit > 0xDFFF {
                UTF8Validation.append(unit, to: &utf8)
            } else if unit <= 0xDBFF {
                let low = position < count ? UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3]) : 0
                guard low >= 0xDC00, low <= 0xDFFF else {
                    throw malformed("UTF-16 string at \(start) has a lone high surrogate", at: offset)
                }
                position += 1
                UTF8Validation.append(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), to: &utf8)
            } else {
                throw malformed("UTF-16 string at \(start) has a lone low surrogate", at: offset)
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }
}

/// The objects a binary property list reader has read, by object number. Slots are filled
/// only as objects are read, so a large table costs nothing until it is used.
final class ObjectCache {
    let values: UnsafeMutablePointer<StoredValue>
    /// How many values each object read expands to; zero for objects not read yet.
    let counts: UnsafeMutablePointer<Int>
    let count: Int

    init(count: Int) {
        self.count = count
        values = .allocate(capacity: max(count, 1))
        counts = .allocate(capacity: max(count, 1))
        counts.initialize(repeating: 0, count: max(count, 1))
    }

    func store(_ value: StoredValue, expandingTo expansion: Int, at number: Int) {
        (values + number).initialize(to: value)
        counts[number] = max(expansion, 1)
    }

    deinit {
        for number in 0..<count where counts[number] > 0 { (values + number).deinitialize(count: 1) }
        values.deallocate()
        counts.deallocate()
    }
}

/// The walk behind ``BinaryPropertyListParser/writtenSizeBound()``: per object, how many
/// container instances (and their marker and count bytes, at most 10 each) its expanded tree
/// holds; each scalar object counted once, at most its written size. The read before it
/// checked references, cycles and depth, so the walk only re-reads counts and references.
struct WrittenSizeWalk {
    var containerInstances: [Int]
    var headerBytes: [Int]
    var visited: [Bool]
    var scalarObjects = 0
    var scalarBytes = 0

    init(objectCount: Int) {
        containerInstances = Array(repeating: 0, count: objectCount)
        headerBytes = Array(repeating: 0, count: objectCount)
        visited = Array(repeating: false, count: objectCount)
    }

    mutating func visit(_ number: Int, in parser: BinaryPropertyListParser) throws(FormatFailure) {
        guard !visited[number] else { return }
        visited[number] = true
        let start = try parser.offset(of: number)
        let marker = parser.bytes[start]
        typealias Marker = BinaryPropertyListSpec.Marker
        switch marker >> 4 {
        case Marker.array >> 4, Marker.dictionary >> 4:
            let (count, contents) = try parser.length(at: start, marker: marker)
            let references = marker >> 4 == Marker.array >> 4 ? count : 2 * count
            var instances = 1
            var header = count < 15 ? 1 : 10
            for position in 0..<references {
                let child = try parser.reference(at: contents + position * parser.referenceSize)
                try visit(child, in: parser)
                instances += containerInstances[child]
                header += headerBytes[child]
            }
            containerInstances[number] = instances
            headerBytes[number] = header
        case Marker.data >> 4, Marker.asciiString >> 4:
            scalarObjects += 1
            scalarBytes += 10 + (try parser.length(at: start, marker: marker).count)
        case Marker.utf16String >> 4:
            scalarObjects += 1
            scalarBytes += 10 + 2 * (try parser.length(at: start, marker: marker).count)
        default:
            scalarObjects += 1
            scalarBytes += 9
        }
    }
}
