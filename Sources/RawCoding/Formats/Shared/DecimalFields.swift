import Foundation

/// A `Decimal`'s sign, power of ten and low 64 bits of mantissa, read without text.
///
/// `Decimal`'s fields are public only on Apple platforms, and turning one into text is slow
/// (microseconds in swift-foundation). Two readings without text:
/// - its `Codable` form, which every platform writes the same way (`exponent`, `length`,
///   `isNegative`, `isCompact`, then the eight 16-bit words of `mantissa`): public, but it
///   costs an encoder per decimal;
/// - its 20 bytes of storage: an 8-bit exponent; the 4-bit length and the sign bit packed in
///   the next byte (low bits first in `NSDecimal`'s C bit fields on Apple platforms, high bits
///   first in swift-foundation's); 16 bits reserved; eight little-endian 16-bit words. Used
///   only in the packing for which a set of probe decimals read this way agree with their
///   `Codable` form, checked once per process.
struct DecimalFields: Equatable {
    var exponent = 0
    /// How many 16-bit words of the mantissa are in use.
    var length = 0
    var negative = false
    var mantissa: UInt64 = 0
    /// Whether the mantissa is wider than 64 bits (then ``mantissa`` is not the whole of it).
    var wide = false

    /// How the length and the sign share the second byte of a `Decimal`'s storage.
    enum Packing: CaseIterable {
        /// `NSDecimal`'s C bit fields: the length in the low 4 bits, the sign in bit 4.
        case lowBitsFirst
        /// swift-foundation's: the length in the high 4 bits, the sign in bit 3.
        case highBitsFirst
    }

    /// The fields of `decimal`, or `nil` if neither reading applies.
    init?(_ decimal: Decimal) {
        if let packing = Self.storagePacking {
            self.init(storageOf: decimal, packing: packing)
        } else {
            self.init(codableFormOf: decimal)
        }
    }

    /// The packing in which ``init(storageOf:packing:)`` reads what the `Codable` form says,
    /// for probes covering each field; `nil` when neither does.
    static let storagePacking: Packing? = {
        guard MemoryLayout<Decimal>.size == 20 else { return nil }
        let probes: [Decimal] = [
            0, 1, -1, Decimal(UInt64.max), Decimal(sign: .minus, exponent: -15, significand: 65_613_616_999_999_977),
            Decimal(sign: .plus, exponent: 127, significand: 12_345),
            Decimal(sign: .minus, exponent: -128, significand: 7),
            -(Decimal(UInt64.max) * Decimal(UInt64.max)),
        ]
        return Packing.allCases.first { packing in
            probes.allSatisfy { probe in
                guard let codable = DecimalFields(codableFormOf: probe) else { return false }
                return DecimalFields(storageOf: probe, packing: packing) == codable
            }
        }
    }()

    /// The fields as laid out in storage with `packing`; meaningful only for the packing
    /// ``storagePacking`` found.
    init(storageOf decimal: Decimal, packing: Packing) {
        self.init()
        withUnsafeBytes(of: decimal) { bytes in
            exponent = Int(Int8(bitPattern: bytes[0]))
            switch packing {
            case .lowBitsFirst:
                length = Int(bytes[1] & 0x0F)
                negative = bytes[1] & 0x10 != 0
            case .highBitsFirst:
                length = Int(bytes[1] >> 4)
                negative = bytes[1] & 0x08 != 0
            }
            for word in 0..<8 {
                let value = UInt64(bytes[4 + 2 * word]) | UInt64(bytes[5 + 2 * word]) << 8
                if word < 4 {
                    mantissa |= value << (16 * word)
                } else if value != 0 {
                    wide = true
                }
            }
        }
    }

    /// The fields from `decimal`'s `Codable` form, or `nil` if it is not the expected one.
    init?(codableFormOf decimal: Decimal) {
        let encoder = DecimalFieldsEncoder()
        do { try decimal.encode(to: encoder) } catch { return nil }  // Not the expected form: the caller reads text.
        guard encoder.complete, encoder.fields.length <= encoder.words else { return nil }
        self = encoder.fields
    }

    init() {}

    /// `mantissa × 10^exponent` correctly rounded, without text, when the mantissa fits 64
    /// bits and a fast exact conversion decides; `nil` otherwise.
    var fastDouble: Double? {
        guard !wide else { return nil }
        return NumberParsing.fastDouble(mantissa: mantissa, scale: exponent, negative: negative)
    }
}

/// A `Decimal` whose `Codable` form is not the one ``DecimalFields`` reads; the caller then
/// reads the decimal's text instead.
private struct UnexpectedForm: Error {}

/// Collects a `Decimal`'s `Codable` form into ``DecimalFields``.
private final class DecimalFieldsEncoder: Encoder {
    var fields = DecimalFields()
    var words = 0
    /// Which of the four fields arrived, one bit each; anything unexpected breaks the reading.
    var seen: UInt8 = 0
    var broken = false
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    var complete: Bool { !broken && seen == 0b1111 }

    func record(_ value: Int, forKey key: String) throws(UnexpectedForm) {
        switch key {
        case "exponent":
            fields.exponent = value
            seen |= 1
        case "length":
            fields.length = value
            seen |= 2
        default: throw UnexpectedForm()
        }
    }

    func record(_ value: Bool, forKey key: String) throws(UnexpectedForm) {
        switch key {
        case "isNegative":
            fields.negative = value
            seen |= 4
        case "isCompact": break
        default: throw UnexpectedForm()
        }
    }

    func recordWord(_ word: UInt16) throws(UnexpectedForm) {
        guard words < 8 else { throw UnexpectedForm() }
        if words < 4 {
            fields.mantissa |= UInt64(word) << (16 * words)
        } else if word != 0 {
            fields.wide = true
        }
        words += 1
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { Words(encoder: self) }
    func singleValueContainer() -> any SingleValueEncodingContainer { Refusing() }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: DecimalFieldsEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { throw UnexpectedForm() }
        mutating func encode(_ value: Int32, forKey key: Key) throws {
            try encoder.record(Int(value), forKey: key.stringValue)
        }
        mutating func encode(_ value: UInt32, forKey key: Key) throws {
            try encoder.record(Int(value), forKey: key.stringValue)
        }
        mutating func encode(_ value: Bool, forKey key: Key) throws {
            try encoder.record(value, forKey: key.stringValue)
        }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw UnexpectedForm() }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            encoder.broken = true
            return encoder.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            if key.stringValue == "mantissa" { encoder.seen |= 8 } else { encoder.broken = true }
            return Words(encoder: encoder)
        }
        mutating func superEncoder() -> any Encoder {
            encoder.broken = true
            return encoder
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            encoder.broken = true
            return encoder
        }
    }

    struct Words: UnkeyedEncodingContainer {
        let encoder: DecimalFieldsEncoder
        var codingPath: [any CodingKey] { [] }
        var count: Int { encoder.words }

        mutating func encodeNil() throws { throw UnexpectedForm() }
        mutating func encode(_ value: UInt16) throws { try encoder.recordWord(value) }
        mutating func encode<T: Encodable>(_ value: T) throws { throw UnexpectedForm() }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            encoder.broken = true
            return encoder.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            encoder.broken = true
            return self
        }
        mutating func superEncoder() -> any Encoder {
            encoder.broken = true
            return encoder
        }
    }

    struct Refusing: SingleValueEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil() throws { throw UnexpectedForm() }
        mutating func encode<T: Encodable>(_ value: T) throws { throw UnexpectedForm() }
    }
}
