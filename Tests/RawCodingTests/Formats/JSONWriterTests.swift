import Foundation
import RawCoding
import Testing

@Suite("JSON writer")
struct JSONWriterTests {
    func text(_ value: StoredValue, _ writer: JSONWriter = JSONWriter()) throws -> String {
        String(decoding: try writer.write(value), as: UTF8.self)
    }

    @Test func escapesOnlyQuotesBackslashesAndControlCharacters() throws {
        let value: StoredValue = .string("\"\\/\u{8}\u{C}\n\r\t\u{0}\u{1F}\u{7F}é🙂\u{2028}")
        #expect(try text(value) == #""\"\\/\b\f\n\r\t\u0000\u001f"# + "\u{7F}é🙂\u{2028}\"")
    }

    @Test func numbersAreShortestAndExact() throws {
        let cases: [(StoredValue, String)] = [
            (1.0, "1"), (-0.0, "-0"), (0.0, "0"), (0.1, "0.1"), (1e20, "1e+20"), (1e-5, "1e-05"), (123.456, "123.456"),
            (1e15, "1000000000000000"), (1e16, "1e+16"), (999_999_999_999_999.0, "999999999999999"),
            (.double(.leastNonzeroMagnitude), "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"), (.int(.min), "-9223372036854775808"),
            (.uint(.max), "18446744073709551615"), (42, "42"),
            (.decimal(Decimal(string: "12345678901234567890.123456789")!), "12345678901234567890.123456789"),
        ]
        for (value, expected) in cases {
            let written = try text(value)
            #expect(written == expected, "\(value)")
            // And reads back as the same number.
            #expect(try JSONReader().read(Data(expected.utf8)).doubleValue == value.doubleValue, "\(expected)")
        }
    }

    /// The writer takes the standard library's shortest digits without making a `String`; the
    /// text is that of `description` without a trailing `.0`, for doubles of every exponent.
    @Test func doublesAreWrittenAsTheirDescription() throws {
        var generator = SeededGenerator(state: 17)
        var doubles: [Double] = [1e15, 1e16, 123_456_789_012_345_680, -65.613616999999977, 0.10000000000000001]
        for _ in 0..<20_000 {
            let double = Double(bitPattern: generator.next())
            if double.isFinite { doubles.append(double) }
        }
        // Decimals of a few places, which the writer writes itself, and their neighbours.
        doubles += [0.001, 0.0009, 0.00099, 999_999_999.999, 1e9 + 0.5, 0.8, 14.5, 1203.5, 4.75, 0.005, 0.05, 0.3]
        for _ in 0..<20_000 {
            let places = Double([1, 10, 100, 1_000, 10_000][Int(generator.next() % 5)])
            let decimal = Double(Int64(truncatingIfNeeded: generator.next() % 2_000_000_000_000) - 1_000_000_000_000)
            let double = decimal / places / Double([1, 1, 1_000][Int(generator.next() % 3)])
            doubles += [double, double.nextUp, double.nextDown]
        }
        for double in doubles {
            var expected = double.description
            if expected.hasSuffix(".0") { expected.removeLast(2) }
            #expect(try text(.double(double)) == expected)
        }
    }
    @Test func keysAreSortedByUTF8Bytes() throws {
        var dictionary = StoredDictionary()
        for (offset, key) in ["b", "B", "a", "é", "Z", "_", "10", "9", "e\u{301}", "ab", ""].enumerated() {
            dictionary[key] = .int(Int64(offset))
        }
        #expect(
            try text(.dictionary(dictionary))
                == #"{"":10,"10":6,"9":7,"B":1,"Z":4,"_":5,"a":2,"ab":9,"b":0,"e"# + "\u{301}\":8,\"é\":3}")
        #expect(try text(.dictionary(dictionary), JSONWriter(sortsKeys: false)).hasPrefix(#"{"b":0,"B":1,"a":2"#))
    }

    /// Writers remember the key order of recent dictionaries; a remembered order is reused only
    /// for the same keys, never for other keys of the same count.
    @Test func rememberedKeyOrdersAreReusedOnlyForTheSameKeys() throws {
        let value: StoredValue = [
            ["b": 1, "a": 2], ["d": 3, "c": 4], ["b": 5, "a": 6], ["a": 7, "b": 8], ["x": 0, "y": 9],
        ]
        let expected = #"[{"a":2,"b":1},{"c":4,"d":3},{"a":6,"b":5},{"a":7,"b":8},{"x":0,"y":9}]"#
        #expect(try text(value) == expected)
        var manyShapes: [StoredValue] = []
        for round in 0..<3 {
            for shape in 0..<6 {
                manyShapes.append(.dictionary(["k\(5 - shape)": .int(Int64(round)), "k\(shape)x": 1]))
                // Longer than the lists each thread keeps: the writer's own cache.
                var long = StoredDictionary()
                for index in 0..<40 { long["\((index * 7 + shape * 11) % 40)-\(shape)"] = .int(Int64(index)) }
                manyShapes.append(.dictionary(long))
            }
        }
        let written = try text(.array(manyShapes))
        let back = try JSONReader().read(Data(written.utf8))
        for (index, element) in (back.arrayValue ?? []).enumerated() {
            let keys = element.dictionaryValue?.keys ?? []
            #expect(
                keys == keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) },
                "element \(index): \(keys)")
        }
        #expect(try text(.array(manyShapes)) == written)
    }

    /// Key orders found by one call are kept for the next ones on the same thread: every
    /// call, on every thread, still gets its own keys in order, whatever lists of the same
    /// length came before (more than the few kept per length).
    @Test func keyOrdersKeptAcrossCallsAreUsedOnlyForTheSameKeys() throws {
        let shapes: [[String: Int]] = (0..<7).map { shape in
            Dictionary(uniqueKeysWithValues: (0..<5).map { ("k\((shape * 7 + $0 * 3) % 10)\($0)", $0 + shape) })
        }
        @Sendable func expected(_ dictionary: [String: Int]) -> String {
            let keys = dictionary.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            return "{" + keys.map { "\"\($0)\":\(dictionary[$0]!)" }.joined(separator: ",") + "}"
        }
        let failures = Collected<String>()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<3 {
                for index in shapes.indices {
                    let shape = shapes[(index * (thread + 1) + round) % shapes.count]
                    do {
                        let text = try JSONCodec().encodeToString(shape)
                        if text != expected(shape) { failures.append(text) }
                        let xml = try PropertyListCodec(format: .xml).encode(shape)
                        let binary = try PropertyListCodec(format: .binary).encode(shape)
                        let fromXML = try PropertyListSerialization.propertyList(from: xml, format: nil)
                        let fromBinary = try PropertyListSerialization.propertyList(from: binary, format: nil)
                        if (fromXML as? [String: Int]) != shape || (fromBinary as? [String: Int]) != shape {
                            failures.append("plist of \(shape)")
                        }
                        if String(decoding: xml, as: UTF8.self).contains("<key>") {
                            let keys = String(decoding: xml, as: UTF8.self).components(separatedBy: "<key>").dropFirst()
                                .map { String($0.prefix { $0 != "<" }) }
                            if keys != keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
                                failures.append("XML keys \(keys)")
                            }
                        }
                    } catch {
                        failures.append("\(error)")
                    }
                }
            }
        }
        #expect(failures.all == [])
    }

    @Test func prettyLayout() throws {
        let value: StoredValue = ["b": [1, [], [:], ["x": "y"]], "a": .null]
        #expect(
            try text(value, JSONWriter(formatting: .pretty)) == """
                {
                  "a" : null,
                  "b" : [
                    1,
                    [],
                    {},
                    {
                      "x" : "y"
                    }
                  ]
                }
                """)
    }

    @Test func datesAndBytesAreWrittenAsFoundationsJSONEncoderDoes() throws {
        #expect(try text(.date(Date(timeIntervalSinceReferenceDate: 12.5))) == "12.5")
        #expect(try text(.data(Data([0, 255, 16]))) == "\"AP8Q\"")
    }

    @Test func nonFiniteNumbersAreAnErrorWithTheirPath() {
        let value: StoredValue = ["a": [1, ["b": .double(.nan)]]]
        let error = #expect(throws: RawCodingError.self) { try JSONWriter().write(value) }
        #expect(error?.kind == .encodingFailed)
        #expect(error?.codingPathDescription == "a[1].b")
        #expect(throws: RawCodingError.self) { try JSONWriter().write(.double(.infinity)) }
    }

    /// Foundation's JSONEncoder (keys sorted, slashes unescaped) is the oracle for the codec's
    /// bytes: the raw values stored before the codec moved onto the engine stay the same.
    @Test func codecOutputEqualsJSONEncoderForTheSameModel() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for value in [SampleSettings.sample] {
            #expect(try JSONCodec.json.encode(value) == encoder.encode(value))
        }
        struct Mixed: Codable {
            var text = "a/b \"q\" \u{1} é 🙂 \\"
            var numbers: [Double] = [0.1, 1e-7, 1.5e300, -0.0, 3, 1e16, 123456789.125]
            var integers: [Int64] = [.min, .max, 0, -1]
            var big = UInt64.max
            var flags = [true, false]
            var nested = ["z": [1], "a": [], "M": [2, 3]]
            var optional: String? = nil
            var date = Date(timeIntervalSinceReferenceDate: 700_000_000.25)
            var data = Data([1, 2, 3])
        }
        #expect(try JSONCodec.json.encode(Mixed()) == encoder.encode(Mixed()))
    }
}
