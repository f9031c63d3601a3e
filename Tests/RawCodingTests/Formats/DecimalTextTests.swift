import Foundation
import Testing

@testable import RawCoding

/// Decimals are written from their fields, not through `description`, which is slow in
/// swift-foundation: the text must be `description`'s, byte for byte, for every decimal.
@Suite("Decimal text without description")
struct DecimalTextTests {
    static func decimals(count: Int, seed: UInt64, exponents: ClosedRange<Int> = -128...127) -> [Decimal] {
        var generator = SeededGenerator(state: seed)
        return (0..<count).map { _ in
            let mantissa: UInt64 =
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: UInt64.random(in: 0..<1_000, using: &generator)
                case 1: UInt64.random(in: 0..<100_000_000_000_000_000, using: &generator)
                case 2: UInt64.random(in: 0..<20, using: &generator) * 1_000
                default: UInt64.random(in: 0...UInt64.max, using: &generator)
                }
            let exponent = Int.random(in: exponents, using: &generator)
            let sign: FloatingPointSign = Bool.random(using: &generator) ? .minus : .plus
            return Decimal(sign: sign, exponent: exponent, significand: Decimal(mantissa))
        }
    }

    @Test func theTextIsDescriptionsForRandomDecimals() {
        for decimal in Self.decimals(count: 20_000, seed: 4_401) {
            #expect(DecimalText.text(of: decimal) == decimal.description, "\(decimal)")
        }
    }

    /// Sums and products make decimals in whatever form arithmetic leaves them (wider than 64
    /// bits, zeros after the point): the text is still `description`'s.
    @Test func theTextIsDescriptionsForArithmeticResults() {
        // Exponents that keep products within Decimal's range (arithmetic past it traps).
        let decimals = Self.decimals(count: 2_000, seed: 4_402, exponents: -30...30)
        for (left, right) in zip(decimals, decimals.dropFirst()) {
            for result in [left + right, left * right, left - right, Decimal(string: "1.500")! * left] {
                #expect(DecimalText.text(of: result) == result.description, "\(result)")
            }
        }
        #expect(DecimalText.text(of: Decimal.nan) == Decimal.nan.description)
        #expect(DecimalText.text(of: Decimal(string: "7.5549616388273222")!) == "7.5549616388273222")
        #expect(DecimalText.text(of: Decimal(string: "-0.000012")!) == "-0.000012")
        #expect(DecimalText.text(of: Decimal(string: "12e3")!) == "12000")
    }

    /// The significant digits and the nearest `Double` read from the fields are what the text
    /// gives (the tool maps a decimal to a property list's real with them).
    @Test func theDigitsAndTheNearestDoubleAreTheTextsOnes() {
        var decided = 0
        for decimal in Self.decimals(count: 20_000, seed: 4_404) {
            guard let read = DecimalText.significantDigitsAndNearestDouble(of: decimal) else { continue }
            decided += 1
            let text = decimal.description
            let digits = text.filter(\.isNumber).drop { $0 == "0" }.reversed().drop { $0 == "0" }.count
            #expect(read.digits == digits, "\(text)")
            #expect(read.nearest == Double(text), "\(text)")
        }
        #expect(decided > 10_000)
    }

    /// What the JSON writer writes for a decimal reads back as the same decimal.
    @Test func writtenDecimalsReadBackAsThemselves() throws {
        for decimal in Self.decimals(count: 2_000, seed: 4_403) where !decimal.isNaN {
            let text = try JSONCodec().writeTree(.decimal(decimal))
            #expect(String(decoding: text, as: UTF8.self) == decimal.description)
            #expect(try JSONCodec().decode(Decimal.self, from: text) == decimal, "\(decimal)")
        }
    }
}
