import Foundation

/// A `Decimal`'s sign, power of ten and low 64 bits of mantissa, read without text.
///
/// `Decimal`'s fields are public only on Apple platforms, and turning one into text is slow
/// (microseconds in swift-foundation); its `Codable` form, which every platform writes the
/// same way (`exponent`, `length`, `isNegative`, `isCompact`, then the eight 16-bit words
/// of `mantissa`), hands them over directly.
struct DecimalFields {
    var exponent = 0
    /// How many 16-bit words of the mantissa are in use.
    var length = 0
    var negative = false
    var mantissa: UInt64 = 0
    /// Whether the mantissa is wider than 64 bits (then ``mantissa`` is not the whole of it).
    var wide = false

    /// The fields of `decimal`, or `nil` if its `Codable` form is not the expected one.
    init?(_ decimal: Decimal) {
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

    func record(_ value: Any, forKey key: String) throws(UnexpectedForm) {
        switch (key, value) {
        case ("exponent", let value as Int32):
            fields.exponent = Int(value)
            seen |= 1
        case ("length", let value as UInt32):
            fields.length = Int(value)
            seen |= 2
        case ("isNegative", let value as Bool):
            fields.negative = value
            seen |= 4
        case ("isCompact", _ as Bool): break
        default: throw UnexpectedForm()
        }
    }

    func recordWord(_ value: Any) throws(UnexpectedForm) {
        guard let word = value as? UInt16, words < 8 else { throw UnexpectedForm() }
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
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try encoder.record(value, forKey: key.stringValue)
        }
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
        mutating func encode<T: Encodable>(_ value: T) throws { try encoder.recordWord(value) }
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
