import Foundation
import RawCoding
import Testing

/// Decimal text to `Double` without going through `Decimal` or the C library, checked against
/// `Double(String)` (correctly rounded) on numbers with the 16 to 19 significant digits that
/// producers write (`%.17g`), across the whole range of exponents.
@Suite("Number conversion")
struct NumberConversionTests {
    /// `count` random number texts of 16 to 19 significant digits, most with a power of ten
    /// near zero, some anywhere a `Double` reaches.
    static func texts(count: Int, seed: UInt64) -> [String] {
        var generator = SeededGenerator(state: seed)
        return (0..<count).map { index in
            let digitCount = 16 + Int(generator.next() % 4)
            var digits = String(1 + generator.next() % 9)
            for _ in 1..<digitCount { digits += String(generator.next() % 10) }
            let scale =
                index % 4 == 0
                ? Int(generator.next() % 640) - 340 - digitCount : Int(generator.next() % 40) - 20 - digitCount
            let sign = generator.next() % 2 == 0 ? "-" : ""
            return index % 3 == 0
                ? "\(sign)\(digits)e\(scale)"
                : "\(sign)\(digits.prefix(1)).\(digits.dropFirst())e\(scale + digitCount - 1)"
        }
    }

    /// Decimal texts that lie exactly halfway between two doubles, or one unit beside it, with
    /// at most 19 significant digits: where a fast conversion must step aside.
    static let halfways = [
        "9.007199254740993e15", "9.007199254740992e15", "9.007199254740994e15", "1.8014398509481985e16",
        "1.8014398509481986e16", "9.223372036854775807e18", "4.9406564584124654e-324", "2.2250738585072011e-308",
        "2.2250738585072012e-308", "1.7976931348623157e308", "1.7976931348623158e308", "-65.613616999999977",
        "43.420273000000009", "0.10000000000000001", "5e-324", "2.4703282292062327e-324",
    ]

    /// The texts a `Double` holds, and those nearer zero than its smallest value (below about
    /// 2.47e-324): the readers refuse those rather than read them as 0.
    static func splitAtUnderflow(_ texts: [String]) -> (inRange: [String], underflowing: [String]) {
        (texts.filter { Double($0) != 0 }, texts.filter { Double($0) == 0 })
    }

    @Test func seventeenDigitNumbersDecodeToTheCorrectlyRoundedDouble() throws {
        let (texts, underflowing) = Self.splitAtUnderflow(Self.texts(count: 40_000, seed: 17) + Self.halfways)
        #expect(underflowing.contains("2.4703282292062327e-324") && underflowing.count > 100)
        let codec = JSONCodec()
        for text in underflowing {
            #expect(throws: RawCodingError.self, "\(text)") { try codec.decode([Double].self, from: "[\(text)]") }
        }
        let decoded = try codec.decode([Double].self, from: Data("[\(texts.joined(separator: ","))]".utf8))
        for (text, value) in zip(texts, decoded) {
            let expected = try #require(Double(text))
            #expect(value.bitPattern == expected.bitPattern, "\(text): \(value) is not \(expected)")
        }
    }

    @Test func seventeenDigitRealsInAnXMLPropertyListDecodeToTheCorrectlyRoundedDouble() throws {
        let (texts, underflowing) = Self.splitAtUnderflow(Self.texts(count: 4_000, seed: 19) + Self.halfways)
        let codec = PropertyListCodec(format: .xml)
        for text in underflowing {
            let xml = "<plist version=\"1.0\"><real>\(text)</real></plist>"
            #expect(throws: RawCodingError.self, "\(text)") { try codec.decode(Double.self, from: Data(xml.utf8)) }
        }
        let reals = texts.map { "<real>\($0)</real>" }.joined()
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array>\(reals)</array></plist>
            """
        let decoded = try codec.decode([Double].self, from: Data(xml.utf8))
        for (text, value) in zip(texts, decoded) {
            let expected = try #require(Double(text))
            #expect(value.bitPattern == expected.bitPattern, "\(text): \(value) is not \(expected)")
        }
    }

    /// What a producer writes for a `Double` (`%.17g`) reads into the tree exactly: a `Double`
    /// when the `Double`'s own shortest text denotes the same number, otherwise the exact
    /// `Decimal`; either way a `Double` property gets the `Double` back and a `Decimal`
    /// property every digit.
    @Test func producerWrittenDoublesStayExactInTheTreeAndReadBackAsTheDouble() throws {
        var generator = SeededGenerator(state: 23)
        let posix = Locale(identifier: "en_US_POSIX")
        let reader = JSONReader()
        for index in 0..<5_000 {
            let double =
                index % 2 == 0
                ? Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
                : (Double(generator.next() % 100_000_000) / 1_000_000 - 50)
            guard double.isFinite, double != 0 else { continue }
            let text = String(format: "%.17g", double)
            // Text with neither a point nor an exponent is an integer, which reads as one.
            guard text.contains(where: { $0 == "." || $0 == "e" }) else { continue }
            let tree = try reader.read(Data(text.utf8))
            if let exact = Decimal(string: text, locale: posix), !exact.isNaN,
                exact != Decimal(string: "\(double)", locale: posix)
            {
                // A Decimal holds the 17 digits and the Double does not: every digit is kept.
                guard case .decimal(let decimal) = tree else {
                    Issue.record("\(text) read as \(tree), not the exact decimal")
                    continue
                }
                #expect(decimal == exact, "\(text)")
                #expect(decimal.description == exact.description, "\(text)")
            } else {
                #expect(tree == .double(double), "\(text)")
            }
            #expect(tree.doubleValue?.bitPattern == double.bitPattern, "\(text)")
            #expect(try JSONCodec().decode(Double.self, from: Data(text.utf8)).bitPattern == double.bitPattern)
        }
    }
}
