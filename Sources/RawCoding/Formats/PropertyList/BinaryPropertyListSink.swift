import Foundation

/// The binary property-list writer as an ``EncodingSink``: the same bytes
/// ``BinaryPropertyListLayout`` writes for the tree the tree path would build.
///
/// Objects are laid out as they come, shared as the layout shares them (strings and data by
/// their bytes, numbers by kind and bits), each container's references collected until it
/// ends, a dictionary's in canonical key order. The canonical layout numbers objects in the
/// order a walk of the tree first meets them (a dictionary, then its keys, then its values,
/// in key order); ``finish()`` renumbers the objects that way, so the output is the same.
struct BinaryPropertyListSink: EncodingSink {
    /// One array or dictionary being written.
    private struct Open {
        let number: Int
        /// Where its references begin in ``members``, and its keys in ``keys``.
        let firstMember: Int
        let firstKey: Int
    }

    private var layout = BinaryPropertyListLayout()
    private var open: [Open] = []
    private var members: [Int] = []
    private var keys: [String] = []
    private var root: Int?

    /// Values and keys, counted as the reader counts places.
    var valueCount: Int { layout.places }

    private mutating func place(_ number: Int) {
        layout.places += 1
        if open.isEmpty { root = number } else { members.append(number) }
    }

    mutating func writeNull() { place(layout.addKey(PropertyListNullMarker.text)) }

    mutating func writeBool(_ value: Bool) {
        place(layout.number(.bool(value), kind: .bool, bits: value ? 1 : 0))
    }

    mutating func writeInt(_ value: Int64) {
        place(layout.number(.int(value), kind: .int, bits: UInt64(bitPattern: value)))
    }

    mutating func writeUInt(_ value: UInt64) {
        place(layout.number(.uint(value), kind: .uint, bits: value))
    }

    mutating func writeDouble(_ value: Double) {
        place(layout.number(.double(value), kind: .double, bits: value.bitPattern))
    }

    mutating func writeNonFinite(_ value: Double) -> Bool {
        writeDouble(value)
        return true
    }

    mutating func writeString(_ value: String) {
        place(layout.scalar(.string(value), key: .string(BinaryPropertyListLayout.ExactText(text: value))))
    }

    /// Property lists have no decimals: a real when one holds it exactly.
    mutating func writeDecimal(_ value: Decimal) -> Bool {
        guard let double = value.exactDouble else { return false }
        writeDouble(double)
        return true
    }

    mutating func writeDate(_ value: Date) -> Bool {
        guard BinaryPropertyListLayout.holds(value) else { return false }
        let bits = value.timeIntervalSinceReferenceDate.bitPattern
        place(layout.number(.date(value), kind: .date, bits: bits))
        return true
    }

    mutating func writeData(_ value: Data) -> Bool {
        place(layout.scalar(.data(value), key: .data(value)))
        return true
    }

    mutating func beginArray() {
        begin(.array([]))
    }

    mutating func beginElement() {}

    mutating func endArray() {
        let closed = open.removeLast()
        layout.objects[closed.number] = .array(Array(members[closed.firstMember...]))
        members.removeLast(members.count - closed.firstMember)
    }

    mutating func beginDictionary() {
        begin(.dictionary(keys: [], values: []))
    }

    mutating func beginEntry(key: String) {
        layout.places += 1
        keys.append(key)
    }

    mutating func endDictionary() -> Bool {
        let closed = open.removeLast()
        let count = members.count - closed.firstMember
        let (order, repeats) = layout.keyOrder.order(count: count) { keys[closed.firstKey + $0] }
        // A one-entry `CF$UID` dictionary may be a UID object: the tree path decides.
        guard !repeats, count != 1 || keys[closed.firstKey] != BinaryPropertyListSpec.uidKey else { return false }
        var keyNumbers: [Int] = []
        var values: [Int] = []
        keyNumbers.reserveCapacity(count)
        values.reserveCapacity(count)
        for position in order {
            keyNumbers.append(layout.addKey(keys[closed.firstKey + position]))
            values.append(members[closed.firstMember + position])
        }
        layout.objects[closed.number] = .dictionary(keys: keyNumbers, values: values)
        members.removeLast(count)
        keys.removeLast(count)
        return true
    }

    private mutating func begin(_ placeholder: BinaryPropertyListLayout.Object) {
        let number = layout.objects.count
        layout.objects.append(placeholder)
        place(number)
        open.append(Open(number: number, firstMember: members.count, firstKey: keys.count))
    }

    /// The document, its objects numbered as the canonical layout numbers them; `nil` when
    /// nothing was written.
    mutating func finish() -> [UInt8]? {
        guard let root, open.isEmpty else { return nil }
        var renumbered = [Int](repeating: -1, count: layout.objects.count)
        var order: [Int] = []
        order.reserveCapacity(layout.objects.count)
        // Depth first, each object numbered where the walk first meets it.
        var pending = [root]
        while let number = pending.popLast() {
            guard renumbered[number] < 0 else { continue }
            renumbered[number] = order.count
            order.append(number)
            switch layout.objects[number] {
            case .scalar, .uid:
                break
            case .array(let children):
                pending.append(contentsOf: children.reversed())
            case .dictionary(let keys, let values):
                for key in keys where renumbered[key] < 0 {
                    renumbered[key] = order.count
                    order.append(key)
                }
                pending.append(contentsOf: values.reversed())
            }
        }
        guard order.count == layout.objects.count else { return nil }
        // Each object moves to its new place once, its references rewritten where they are.
        var laidOut = layout.objects
        layout.objects = []
        var numbered: [BinaryPropertyListLayout.Object] = []
        numbered.reserveCapacity(laidOut.count)
        for number in order {
            var object = BinaryPropertyListLayout.Object.array([])
            swap(&object, &laidOut[number])
            switch object {
            case .scalar, .uid:
                numbered.append(object)
            case .array(var children):
                object = .array([])
                for index in children.indices { children[index] = renumbered[children[index]] }
                numbered.append(.array(children))
            case .dictionary(var keys, var values):
                object = .array([])
                for index in keys.indices {
                    keys[index] = renumbered[keys[index]]
                    values[index] = renumbered[values[index]]
                }
                numbered.append(.dictionary(keys: keys, values: values))
            }
        }
        layout.objects = numbered
        return layout.serialize()
    }
}
