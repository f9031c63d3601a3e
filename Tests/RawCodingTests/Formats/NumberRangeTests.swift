import Foundation
import RawCoding
import Testing

/// A number outside what its type holds is an error naming the path, never another number:
/// too large (infinity) or so small that it would read as 0. `JSONDecoder` is the oracle for
/// JSON; the property-list readers follow the same rule (Core Foundation reads such reals as
/// infinity or 0, a kept difference).
@Suite("Numbers out of range")
struct NumberRangeTests {
    /// Text that reads as 0 although a digit other than 0 was written, and text that is 0.
    static let underflowing = ["2.01e-1234", "1e-400", "-1e-400", "2e-324", "0.00000000000000000000000001e-300"]
    static let zeros = ["0e-9999", "-0.0e-400", "0.0e99999", "0.000e-5"]

    static func failure(_ body: () throws -> some Any) -> RawCodingError? {
        do {
            _ = try body()
            return nil
        } catch let error as RawCodingError {
            return error
        } catch {
            Issue.record("not a RawCodingError: \(error)")
            return nil
        }
    }

    @Test(arguments: underflowing)
    func jsonThatUnderflowsADoubleIsRefusedWithItsPath(text: String) throws {
        let json = #"{"values":[1,\#(text)]}"#
        #expect(throws: (any Error).self, "JSONDecoder refuses it") {
            try JSONDecoder().decode([String: [Double]].self, from: Data(json.utf8))
        }
        let decoded = Self.failure { try JSONCodec().decode([String: [Double]].self, from: json) }
        #expect(decoded?.codingPathDescription == "values[1]", "\(String(describing: decoded))")
        #expect(decoded?.reason.contains("too small for a Double") == true, "\(String(describing: decoded))")
        let tree = Self.failure { try JSONCodec().decode(StoredValue.self, from: json) }
        #expect(tree?.codingPathDescription == "values[1]", "\(String(describing: tree))")
        let stored = Self.failure { try JSONCodec().decodeStored([String: [Double]].self, from: json) }
        #expect(stored?.codingPathDescription == "values[1]", "\(String(describing: stored))")
        let decimal = Self.failure { try JSONCodec().decode([String: [Decimal]].self, from: json) }
        #expect(decimal?.codingPathDescription == "values[1]", "\(String(describing: decimal))")
    }

    @Test(arguments: zeros)
    func zeroWithAnyExponentIsZero(text: String) throws {
        let json = "[\(text)]"
        #expect(try JSONDecoder().decode([Double].self, from: Data(json.utf8)) == [0])
        #expect(try JSONCodec().decode([Double].self, from: json) == [0])
        #expect(try JSONCodec().decode([Float].self, from: json) == [0])
        let xml = "<plist version=\"1.0\"><array><real>\(text)</real></array></plist>"
        #expect(try PropertyListCodec(format: .xml).decode([Double].self, from: Data(xml.utf8)) == [0])
    }

    @Test(arguments: underflowing)
    func xmlRealsThatUnderflowAreRefusedWithTheirPath(text: String) throws {
        let xml = "<plist version=\"1.0\"><dict><key>v</key><array><real>\(text)</real></array></dict></plist>"
        let error = Self.failure {
            try PropertyListCodec(format: .xml).decode([String: [Double]].self, from: Data(xml.utf8))
        }
        #expect(error?.codingPathDescription == "v[0]", "\(String(describing: error))")
        #expect(error?.reason.contains("too small for a Double") == true, "\(String(describing: error))")
    }

    /// Doubles that a `Float` would read as infinity or 0, in every codec and the engine.
    @Test(arguments: [1e39, -1e39, 1e-46, -1e-50, 4e-300])
    func aDoubleOutsideFloatIsRefusedForAFloat(value: Double) throws {
        let json = "[\(value)]"
        #expect(throws: (any Error).self) { try JSONDecoder().decode([Float].self, from: Data(json.utf8)) }
        let codecs: [any Codec] = [JSONCodec(), PropertyListCodec(format: .xml), PropertyListCodec(format: .binary)]
        for codec in codecs {
            let data = try codec.encode([value])
            let error = Self.failure { try codec.decode([Float].self, from: data) }
            #expect(error?.codingPathDescription == "[0]", "\(codec): \(String(describing: error))")
            #expect(error?.reason.contains("does not fit Float") == true, "\(codec): \(String(describing: error))")
        }
        #expect(throws: DecodingError.self) {
            try StoredValueDecoder().decode([Float].self, from: .array([.double(value)]))
        }
    }

    /// The smallest `Float`s, and the Doubles that round to them, still decode.
    @Test func theSmallestFloatsDecode() throws {
        let smallest = Float.leastNonzeroMagnitude
        #expect(
            try JSONCodec().decode([Float].self, from: "[1.4e-45,1e-45,-1e-45]") == [smallest, smallest, -smallest])
        #expect(try JSONCodec().decode([Float].self, from: "[3.4028235e38]") == [.greatestFiniteMagnitude])
        let binary = PropertyListCodec(format: .binary)
        #expect(try binary.decode([Float].self, from: binary.encode([Double(smallest)])) == [smallest])
    }
}

/// The tool takes the same rule for a number given on its command line.
@Suite("Numbers out of range on the command line")
struct NumberRangeToolTests {
    @Test func aFloatValueThatWouldReadAsZeroIsRefused() {
        let plist = Data("<plist version=\"1.0\"><dict/></plist>".utf8)
        let refused = ToolRun.run(["-insert", "a", "-float", "1e-400", "x.plist"], files: ["x.plist": plist])
        #expect(refused.status == 1)
        #expect(refused.messagesText.contains("would read as 0"), "\(refused.messagesText)")
        #expect(refused.files["x.plist"] == plist, "the file is left as it was")
        let zero = ToolRun.run(["-insert", "a", "-float", "0e-400", "x.plist"], files: ["x.plist": plist])
        #expect(zero.status == 0, "\(zero.messagesText)")
        #expect(String(decoding: zero.files["x.plist"] ?? Data(), as: UTF8.self).contains("<real>0</real>"))
    }
}
