import Foundation

/// Number text shared by the text writers.
enum NumberText {
    static func append(_ value: Int64, to bytes: inout some ByteOutput) {
        if value < 0 {
            bytes.appendByte(UInt8(ascii: "-"))
            append(value.magnitude, to: &bytes)
        } else {
            append(UInt64(value), to: &bytes)
        }
    }

    static func append(_ value: UInt64, to bytes: inout some ByteOutput) {
        if value < 10 {
            bytes.appendByte(UInt8(ascii: "0") + UInt8(value))
            return
        }
        withDigits(of: value) { bytes.appendBytes($0) }
    }

    /// `body` of the decimal digits of `value` (`"0"` for zero), most significant first.
    @inline(__always)
    static func withDigits<Result>(of value: UInt64, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var rest = value
            var position = scratch.count
            repeat {
                position -= 1
                scratch.initializeElement(at: position, to: UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
            } while rest > 0
            return body(UnsafeBufferPointer(rebasing: scratch[position...]))
        }
    }

    /// The shortest text that reads back as `value`, without a trailing `.0`.
    static func append(_ value: Double, to bytes: inout some ByteOutput) {
        if value == value.rounded(.towardZero), value.magnitude < 1e15 {
            if value == 0 {
                if value.sign == .minus { bytes.appendByte(UInt8(ascii: "-")) }
                bytes.appendByte(UInt8(ascii: "0"))
            } else {
                append(Int64(value), to: &bytes)
            }
            return
        }
        if appendShortDecimal(value, to: &bytes) { return }
        // The standard library's shortest digits, written into a stream on the stack (no String).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DigitStream.capacity) { scratch in
            var stream = DigitStream(scratch: scratch)
            value.write(to: &stream)
            // "1.0e+20" keeps its ".0"; only a final ".0" goes.
            var end = stream.count
            if end >= 2, scratch[end - 2] == UInt8(ascii: "."), scratch[end - 1] == UInt8(ascii: "0") { end -= 2 }
            bytes.appendBytes(UnsafeBufferPointer(rebasing: scratch[..<end]))
        }
    }

    /// Writes `value` when it is a decimal of one to three places between 0.001 and 10⁹ in
    /// magnitude (a setting's 14.5 or 0.8, a price, a rating): the standard library's shortest
    /// digits for it, at a tenth of their cost. `value` is m / 10ᵏ for the integer m nearest
    /// to value × 10ᵏ, for the fewest places k where dividing gives `value` back; dividing is
    /// correctly rounded, as reading the text is, so the text reads back as `value`, and with
    /// a unit in the last place far below 10⁻ᵏ no other text of k places does. `false` for
    /// anything else.
    @inline(__always)
    private static func appendShortDecimal(_ value: Double, to bytes: inout some ByteOutput) -> Bool {
        let magnitude = value.magnitude
        guard magnitude >= 0.001, magnitude < 1e9 else { return false }
        var scale: Double = 1
        for places in 1...3 {
            scale *= 10
            let scaled = (magnitude * scale).rounded()
            guard scaled / scale == magnitude else { continue }
            let digits = UInt64(scaled)
            let divisor = UInt64(scale)
            if value < 0 { bytes.appendByte(UInt8(ascii: "-")) }
            append(digits / divisor, to: &bytes)
            bytes.appendByte(UInt8(ascii: "."))
            var fraction = digits % divisor
            var place = divisor / 10
            for _ in 0..<places {
                bytes.appendByte(UInt8(ascii: "0") + UInt8(fraction / place))
                fraction %= place
                place /= 10
            }
            return true
        }
        return false
    }

    /// A number's digits as a text stream into stack memory, so it writes them without making a
    /// `String` or touching the heap. A double's shortest form is at most 24 bytes.
    private struct DigitStream: TextOutputStream {
        static let capacity = 64
        let scratch: UnsafeMutableBufferPointer<UInt8>
        private(set) var count = 0

        init(scratch: UnsafeMutableBufferPointer<UInt8>) { self.scratch = scratch }

        mutating func write(_ string: String) {
            var string = string
            string.withUTF8 { _writeASCII($0) }
        }

        /// What the standard library's numbers call with their digits where it can.
        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
            precondition(count + buffer.count <= scratch.count, "a number's text is longer than 64 bytes")
            _ = UnsafeMutableBufferPointer(rebasing: scratch[count...]).initialize(fromContentsOf: buffer)
            count += buffer.count
        }
    }
}
