import Foundation

/// Where the text writers append their bytes: an array, or an ``OutputBuffer``.
protocol ByteOutput {
    mutating func appendByte(_ byte: UInt8)
    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>)
    mutating func dropLast(count: Int)
    /// Appends `bytes` when `specials` finds none of them special (eight at a time), and
    /// answers whether it did; appends nothing otherwise.
    mutating func appendIfPlain(_ bytes: UnsafeBufferPointer<UInt8>, specials: (UInt64) -> UInt64) -> Bool
    /// The low `width` bytes of `value` (1 to 8), most significant first.
    mutating func appendBigEndian(_ value: UInt64, width: Int)
}

extension ByteOutput {
    @inline(__always)
    mutating func appendBytes(_ text: StaticString) {
        appendBytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}

extension ByteOutput {
    /// The UTF-8 of `text`.
    mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { appendBytes($0) }
    }

    /// Appends the UTF-8 of `text` when it is short and `specials` finds none of its bytes
    /// special, and answers whether it did: most keys and values, copied whole without copying
    /// the string (which `withUTF8` makes, retaining it). The writers escape the others.
    @inline(__always)
    mutating func appendIfPlain(_ text: String, specials: (UInt64) -> UInt64) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { utf8 in
            utf8.count <= 64 && appendIfPlain(utf8, specials: specials)
        } ?? false
    }
}

extension [UInt8]: ByteOutput {
    @inline(__always)
    mutating func appendByte(_ byte: UInt8) { append(byte) }

    @inline(__always)
    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }

    @inline(__always)
    mutating func dropLast(count: Int) { removeLast(count) }

    mutating func appendBigEndian(_ value: UInt64, width: Int) {
        BinaryPropertyListSpec.append(value, width: width, to: &self)
    }

    mutating func appendIfPlain(_ bytes: UnsafeBufferPointer<UInt8>, specials: (UInt64) -> UInt64) -> Bool {
        guard !EscapeRuns.mayNeedEscape(bytes, specials: specials) else { return false }
        append(contentsOf: bytes)
        return true
    }
}

/// A sink's growing output: bytes behind one pointer, appended without the uniqueness check
/// and the generic copy an array makes on each append. A settings-sized encode appends about
/// forty small pieces, and those checks were a fifth of its instructions.
///
/// A reference, shared by every copy of the sink holding it; a sink is written by one encode
/// at a time, so its state is exempt from run-time exclusivity checks.
final class OutputBuffer: ByteOutput {
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private(set) var capacity: Int

    init(capacity: Int = 1024) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written, to rewrite in place (entries put in key order).
    var written: UnsafeMutableBufferPointer<UInt8> { UnsafeMutableBufferPointer(start: base, count: count) }

    @inline(__always)
    func appendByte(_ byte: UInt8) {
        if count == capacity { grow(toHold: 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if capacity - count < bytes.count { grow(toHold: bytes.count) }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    func appendBytes(_ text: StaticString) {
        appendBytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Copies first and checks the copy in place: the buffer keeps eight bytes of room past
    /// the copy, so the last word is read whole and masked, with no second copy to pad it.
    @inline(__always)
    func appendIfPlain(_ bytes: UnsafeBufferPointer<UInt8>, specials: (UInt64) -> UInt64) -> Bool {
        guard let source = bytes.baseAddress else { return true }
        if capacity - count < bytes.count + 8 { grow(toHold: bytes.count + 8) }
        let copy = UnsafeMutableBufferPointer(start: base + count, count: bytes.count)
        copy.baseAddress.unsafelyUnwrapped.update(from: source, count: bytes.count)
        guard !EscapeRuns.mayNeedEscape(UnsafeBufferPointer(copy), specials: specials, readsPastEnd: true) else {
            return false
        }
        count += bytes.count
        return true
    }

    /// One unaligned store of eight bytes, of which `width` are kept.
    @inline(__always)
    func appendBigEndian(_ value: UInt64, width: Int) {
        precondition(width > 0 && width <= 8, "OutputBuffer writes 1 to 8 big-endian bytes")
        if capacity - count < 8 { grow(toHold: 8) }
        UnsafeMutableRawPointer(base + count).storeBytes(
            of: (value &<< UInt64(64 - 8 * width)).bigEndian, as: UInt64.self)
        count += width
    }

    func dropLast(count dropped: Int) {
        precondition(dropped >= 0 && dropped <= count, "OutputBuffer cannot drop more than it holds")
        count -= dropped
    }

    /// Drops the first `dropped` bytes, moving the rest to the front.
    func dropFirst(count dropped: Int) {
        precondition(dropped >= 0 && dropped <= count, "OutputBuffer cannot drop more than it holds")
        base.update(from: base + dropped, count: count - dropped)
        count -= dropped
    }

    /// Empties the buffer, keeping its capacity.
    func removeAll() { count = 0 }

    /// Whether a sink's buffer is small enough to keep for the thread's next encode
    /// (``JSONSink/takingSpare(pretty:)``); a large document's is freed.
    var isSmallEnoughToKeep: Bool { capacity <= 16 * 1024 }

    private func grow(toHold extra: Int) {
        let (needed, overflow) = count.addingReportingOverflow(extra)
        precondition(!overflow, "OutputBuffer size overflows")
        var newCapacity = capacity
        while newCapacity < needed { newCapacity = newCapacity > Int.max / 2 ? needed : newCapacity * 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.initialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    /// The first `end` bytes, as an array.
    func array(upTo end: Int) -> [UInt8] {
        precondition(end >= 0 && end <= count, "OutputBuffer range out of bounds")
        return Array(UnsafeBufferPointer(start: base, count: end))
    }

    /// The bytes written, as data.
    func data() -> Data { Data(bytes: base, count: count) }
}
