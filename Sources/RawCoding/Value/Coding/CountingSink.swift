import Foundation

/// An ``EncodingSink`` that keeps nothing and counts what it is given: the engine's own cost,
/// with no format behind it, for the benchmark that sets it against the Codable dispatch
/// floor (an encoder that does nothing at all).
struct CountingSink: EncodingSink {
    private(set) var valueCount = 0
    /// Keys given, with their UTF-8 lengths, so the calls cannot be optimised away.
    private(set) var keyBytes = 0

    mutating func writeNull() { valueCount += 1 }
    mutating func writeBool(_ value: Bool) { valueCount += 1 }
    mutating func writeInt(_ value: Int64) { valueCount += 1 }
    mutating func writeUInt(_ value: UInt64) { valueCount += 1 }
    mutating func writeDouble(_ value: Double) { valueCount += 1 }
    mutating func writeNonFinite(_ value: Double) -> Bool {
        valueCount += 1
        return true
    }
    mutating func writeString(_ value: String) { valueCount += 1 }
    mutating func writeDecimal(_ value: Decimal) -> Bool {
        valueCount += 1
        return true
    }
    mutating func writeDate(_ value: Date) -> Bool {
        valueCount += 1
        return true
    }
    mutating func writeData(_ value: Data) -> Bool {
        valueCount += 1
        return true
    }
    mutating func beginArray() { valueCount += 1 }
    mutating func beginElement() {}
    mutating func endArray() {}
    mutating func beginDictionary() { valueCount += 1 }
    mutating func beginEntry(key: String) { keyBytes += key.utf8.count }
    mutating func endDictionary() -> Bool { true }
}

/// The encoding engine alone, for the benchmarks of this package.
package enum EngineBenchmark {
    /// Encodes `value` through the engine into a sink that keeps nothing, as `JSONCodec()`'s
    /// `encode` would; the values and key bytes it was given, or `nil` where the engine would
    /// hand the value to the tree path.
    package static func encodeKeepingNothing<Value: Encodable>(_ value: Value) -> Int? {
        let options = JSONCodec().encoder(checking: nil)
        guard
            let context = SinkEncoding.encode(
                value, root: .root(options: SinkOptions(options), sink: CountingSink()), limits: .default)
        else {
            return nil
        }
        return context.sink.valueCount + context.sink.keyBytes
    }
}
