import Foundation

/// The binary property-list writer as an ``EncodingSink``: the same bytes
/// ``BinaryPropertyListLayout`` writes for the tree the tree path would build.
///
/// Scalars are written to their bytes as they come, shared as the layout shares them (strings
/// by their bytes, numbers by kind and bits); each container's references are collected until
/// it ends, a dictionary's in canonical key order. The canonical layout numbers objects in the
/// order a walk of the tree first meets them (a dictionary, then its keys, then its values,
/// in key order); ``finishData()`` numbers them that way while it writes the document, so the
/// output is the same.
///
/// A class, kept per thread between encodes (as ``JSONSink``): a settings-sized encode spent
/// most of its instructions making and freeing the tables and arrays a new layout holds. One
/// encode writes into it at a time, so its state is exempt from run-time exclusivity checks.
final class BinaryPropertyListSink: EncodingSink {
    typealias Layout = BinaryPropertyListLayout
    typealias Marker = BinaryPropertyListSpec.Marker

    /// One object, numbered by its place in ``objects``: a scalar's bytes in ``scalars``, or a
    /// container's references in ``references`` (a dictionary's keys, then its values).
    private struct Object {
        enum Kind { case scalar, array, dictionary }
        var kind: Kind
        var start: Int
        var count: Int
    }

    /// One array or dictionary being written.
    private struct Open {
        let number: Int
        /// Where its references begin in ``members``, and its keys in ``keys``.
        let firstMember: Int
        let firstKey: Int
    }

    @exclusivity(unchecked) private var objects: [Object] = []
    @exclusivity(unchecked) private var scalars = OutputBuffer()
    @exclusivity(unchecked) private var references: [Int] = []
    @exclusivity(unchecked) private var open: [Open] = []
    @exclusivity(unchecked) private var members: [Int] = []
    @exclusivity(unchecked) private var keys: [String] = []
    @exclusivity(unchecked) private var root: Int?
    @exclusivity(unchecked) private var strings = StringTable()
    @exclusivity(unchecked) private var numbers = NumberTable()
    @exclusivity(unchecked) private var sharedData: [Data: Int] = [:]
    @exclusivity(unchecked) private var keyOrder = KeyOrder()
    /// What ``finishData()`` works in: each object's final number, the objects in that order,
    /// the walk's pending objects, the document and its offsets.
    @exclusivity(unchecked) private var renumbered: [Int] = []
    @exclusivity(unchecked) private var order: [Int] = []
    @exclusivity(unchecked) private var pending: [Int] = []
    @exclusivity(unchecked) private var output = OutputBuffer()
    @exclusivity(unchecked) private var offsets: [Int] = []

    /// Values and keys, counted as the reader counts places.
    @exclusivity(unchecked) private(set) var valueCount = 0

    /// A codec's sink for one encode: the thread's spare, its tables and buffers kept from an
    /// earlier encode, or a new one (as ``JSONSink/takingSpare(pretty:)``).
    static func takingSpare() -> BinaryPropertyListSink {
        guard let sink = RecursionGuard.state.spareBinarySink.take() else { return BinaryPropertyListSink() }
        return sink
    }

    private func place(_ number: Int) {
        valueCount += 1
        if open.isEmpty { root = number } else { members.append(number) }
    }

    /// A new scalar object: the bytes from `start` on.
    private func scalar(from start: Int) -> Int {
        objects.append(Object(kind: .scalar, start: start, count: scalars.count - start))
        return objects.count - 1
    }

    private func string(_ text: String) -> Int {
        let candidate = objects.count
        let number = strings.claim(text, candidate: candidate)
        guard number == candidate else { return number }
        let start = scalars.count
        var text = text
        text.withUTF8 { Layout.appendString($0, to: &scalars) }
        return scalar(from: start)
    }

    private func number(kind: NumberTable.Kind, bits: UInt64, _ value: StoredValue) -> Int {
        let candidate = objects.count
        let number = numbers.claim(kind: kind, bits: bits, candidate: candidate)
        guard number == candidate else { return number }
        let start = scalars.count
        Layout.append(scalar: value, to: &scalars)
        return scalar(from: start)
    }

    func writeNull() { place(string(PropertyListNullMarker.text)) }

    func writeBool(_ value: Bool) {
        place(number(kind: .bool, bits: value ? 1 : 0, .bool(value)))
    }

    func writeInt(_ value: Int64) {
        place(number(kind: .int, bits: UInt64(bitPattern: value), .int(value)))
    }

    func writeUInt(_ value: UInt64) {
        place(number(kind: .uint, bits: value, .uint(value)))
    }

    func writeDouble(_ value: Double) {
        place(number(kind: .double, bits: value.bitPattern, .double(value)))
    }

    func writeNonFinite(_ value: Double) -> Bool {
        writeDouble(value)
        return true
    }

    func writeString(_ value: String) { place(string(value)) }

    /// Property lists have no decimals: a real when one holds it exactly.
    func writeDecimal(_ value: Decimal) -> Bool {
        guard let double = value.exactDouble else { return false }
        writeDouble(double)
        return true
    }

    func writeDate(_ value: Date) -> Bool {
        guard Layout.holds(value) else { return false }
        place(number(kind: .date, bits: value.timeIntervalSinceReferenceDate.bitPattern, .date(value)))
        return true
    }

    func writeData(_ value: Data) -> Bool {
        let candidate = objects.count
        let number = Layout.claim(&sharedData[value, default: candidate])
        if number == candidate {
            let start = scalars.count
            Layout.append(scalar: .data(value), to: &scalars)
            _ = scalar(from: start)
        }
        place(number)
        return true
    }

    func beginArray() { begin(.array) }

    func beginElement() {}

    func endArray() {
        let closed = open.removeLast()
        let count = members.count - closed.firstMember
        objects[closed.number].start = references.count
        objects[closed.number].count = count
        references.append(contentsOf: members[closed.firstMember...])
        members.truncate(to: closed.firstMember)
    }

    func beginDictionary() { begin(.dictionary) }

    func beginEntry(key: String) {
        valueCount += 1
        keys.append(key)
    }

    func endDictionary() -> Bool {
        let closed = open.removeLast()
        let count = members.count - closed.firstMember
        let (order, repeats) = keyOrder.order(count: count) { keys[closed.firstKey + $0] }
        // A one-entry `CF$UID` dictionary may be a UID object: the tree path decides.
        guard !repeats, count != 1 || keys[closed.firstKey] != BinaryPropertyListSpec.uidKey else { return false }
        objects[closed.number].start = references.count
        objects[closed.number].count = count
        for position in order { references.append(string(keys[closed.firstKey + position])) }
        for position in order { references.append(members[closed.firstMember + position]) }
        members.truncate(to: closed.firstMember)
        keys.truncate(to: closed.firstKey)
        return true
    }

    private func begin(_ kind: Object.Kind) {
        let number = objects.count
        objects.append(Object(kind: kind, start: 0, count: 0))
        place(number)
        open.append(Open(number: number, firstMember: members.count, firstKey: keys.count))
    }

    /// The document, its objects numbered as the canonical layout numbers them; `nil` when
    /// nothing was written. The sink becomes the thread's spare unless it grew large.
    func finishData() -> Data? {
        guard let root, open.isEmpty else { return nil }
        numberObjects(from: root)
        guard order.count == objects.count else { return nil }
        writeDocument()
        let data = output.data()
        recycle()
        return data
    }

    /// Numbers the objects depth first, each where the walk first meets it, a dictionary's
    /// keys right after it. (The arrays are worked on as locals: a class's stored array is
    /// checked for uniqueness on every write.)
    private func numberObjects(from root: Int) {
        var renumbered: [Int] = []
        var order: [Int] = []
        var pending: [Int] = []
        swap(&renumbered, &self.renumbered)
        swap(&order, &self.order)
        swap(&pending, &self.pending)
        defer {
            swap(&renumbered, &self.renumbered)
            swap(&order, &self.order)
            swap(&pending, &self.pending)
        }
        renumbered.removeAll(keepingCapacity: true)
        renumbered.append(contentsOf: repeatElement(-1, count: objects.count))
        order.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
        pending.append(root)
        objects.withUnsafeBufferPointer { objects in
            references.withUnsafeBufferPointer { references in
                while let number = pending.popLast() {
                    guard renumbered[number] < 0 else { continue }
                    renumbered[number] = order.count
                    order.append(number)
                    let object = objects[number]
                    switch object.kind {
                    case .scalar:
                        break
                    case .array:
                        for position in (object.start..<(object.start + object.count)).reversed() {
                            pending.append(references[position])
                        }
                    case .dictionary:
                        for position in object.start..<(object.start + object.count) {
                            let key = references[position]
                            guard renumbered[key] < 0 else { continue }
                            renumbered[key] = order.count
                            order.append(key)
                        }
                        let values = object.start + object.count
                        for position in (values..<(values + object.count)).reversed() {
                            pending.append(references[position])
                        }
                    }
                }
            }
        }
    }

    /// The objects in ``order``, then the offset table and the trailer.
    private func writeDocument() {
        let referenceSize = Layout.width(for: UInt64(objects.count))
        let output = self.output
        let scalars = self.scalars.written
        var offsets: [Int] = []
        swap(&offsets, &self.offsets)
        defer { swap(&offsets, &self.offsets) }
        offsets.removeAll(keepingCapacity: true)
        output.removeAll()
        output.appendBytes("bplist00")
        objects.withUnsafeBufferPointer { objects in
            references.withUnsafeBufferPointer { references in
                renumbered.withUnsafeBufferPointer { renumbered in
                    for number in order {
                        offsets.append(output.count)
                        let object = objects[number]
                        switch object.kind {
                        case .scalar:
                            output.appendBytes(
                                UnsafeBufferPointer(rebasing: scalars[object.start..<(object.start + object.count)]))
                        case .array, .dictionary:
                            let marker = object.kind == .array ? Marker.array : Marker.dictionary
                            let count = object.kind == .array ? object.count : object.count * 2
                            var bytes = output
                            Layout.appendMarker(marker, count: object.count, to: &bytes)
                            for position in object.start..<(object.start + count) {
                                output.appendBigEndian(UInt64(renumbered[references[position]]), width: referenceSize)
                            }
                        }
                    }
                }
            }
        }
        var bytes = output
        BinaryPropertyListSpec.appendOffsetTable(
            offsets, tableStart: output.count, referenceSize: referenceSize, rootObject: 0, to: &bytes)
    }

    /// Empties the sink and makes it the thread's spare, unless a large document grew it.
    private func recycle() {
        guard output.isSmallEnoughToKeep, scalars.isSmallEnoughToKeep, objects.count <= 1024 else { return }
        objects.removeAll(keepingCapacity: true)
        scalars.removeAll()
        references.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        root = nil
        strings.removeAll()
        numbers.removeAll()
        sharedData.removeAll()
        valueCount = 0
        RecursionGuard.state.spareBinarySink = self
    }
}

extension Array {
    /// Drops the elements from `count` on, one by one: for the few members of a closed
    /// container, cheaper than `removeLast(_:)`'s general range replacement.
    @inline(__always)
    fileprivate mutating func truncate(to count: Int) {
        while self.count > count { removeLast() }
    }
}
