import Foundation
import RawCoding
import Testing

/// Python's `plistlib`, an independent reader, accepts what the property-list codecs write,
/// including the top-level scalars Foundation's encoder refuses to write.
@Suite("plistlib interoperability")
struct PlistlibInteropTests {
    static let formats: [(String, any Codec)] = [
        ("xml", PropertyListCodec.propertyList(.xml)), ("binary", PropertyListCodec.propertyList(.binary)),
    ]

    /// Loads the plist at argv[1] and prints `repr` of it with datetimes as ISO text.
    static let printer = """
        import plistlib, sys, datetime
        value = plistlib.load(open(sys.argv[1], 'rb'))
        def show(v):
            if isinstance(v, datetime.datetime): return 'date:' + v.isoformat()
            if isinstance(v, dict): return {k: show(x) for k, x in sorted(v.items())}
            if isinstance(v, list): return [show(x) for x in v]
            return v
        print(repr(show(value)))
        """

    func pythonReads(_ data: Data) throws -> String {
        let result = try Python.run(Self.printer, input: data)
        #expect(result.status == 0, "\(result.errors)")
        return result.output.trimmingCharacters(in: .newlines)
    }

    @Test(Python.required) func readsTopLevelScalars() throws {
        for (name, codec) in Self.formats {
            #expect(try pythonReads(codec.encode(42)) == "42", "\(name)")
            #expect(try pythonReads(codec.encode(UInt64.max)) == "18446744073709551615", "\(name)")
            #expect(try pythonReads(codec.encode(Int64.min)) == "-9223372036854775808", "\(name)")
            #expect(try pythonReads(codec.encode("a <b> & ü 🙂")) == "'a <b> & ü 🙂'", "\(name)")
            #expect(try pythonReads(codec.encode(true)) == "True", "\(name)")
            #expect(try pythonReads(codec.encode(2.5)) == "2.5", "\(name)")
            #expect(try pythonReads(codec.encode(Data([0, 255]))) == "b'\\x00\\xff'", "\(name)")
            #expect(
                try pythonReads(codec.encode(Date(timeIntervalSince1970: 86_400))) == "'date:1970-01-02T00:00:00'",
                "\(name)")
            #expect(try pythonReads(codec.encode(Int?.none)) == "'$null'", "\(name)")
        }
    }

    @Test(Python.required) func readsTheSampleModel() throws {
        for (name, codec) in Self.formats {
            let text = try pythonReads(codec.encode(SampleSettings.sample))
            #expect(text.contains("'fontSize': 14"), "\(name): \(text)")
            #expect(text.contains("'id': -9223372036854775808"), "\(name)")
            #expect(text.contains("'tags': ['work', 'café', '日本語', '🙂', 'a/b', '']"), "\(name)")
            #expect(text.contains("'lastSync': 'date:2000-12-31T00:00:00'"), "\(name)")
        }
    }

    @Test(Python.required) func decodesWhatPlistlibWrites() throws {
        let writer = """
            import plistlib, sys, datetime
            value = {'big': 2**64 - 1, 'small': -2**63, 'text': 'ü🙂', 'when': datetime.datetime(1969, 7, 20, 20, 17, 40),
                     'blob': bytes(range(4)), 'many': {f'k{i}': i for i in range(300)}, 'flag': False}
            fmt = plistlib.FMT_BINARY if sys.argv[2] == 'binary' else plistlib.FMT_XML
            sys.stdout.buffer.write(plistlib.dumps(value, fmt=fmt, sort_keys=True))
            """
        struct Written: Decodable, Equatable {
            var big: UInt64
            var small: Int64
            var text: String
            var when: Date
            var blob: Data
            var many: [String: Int]
            var flag: Bool
        }
        let python = try #require(Python.executable)
        for (name, codec) in Self.formats {
            let result = try ChildProcess.run(python, ["-c", writer, "unused", name])
            #expect(result.status == 0, "\(result.errors)")
            let decoded = try codec.decode(Written.self, from: result.standardOutput)
            #expect(decoded.big == UInt64.max, "\(name)")
            #expect(decoded.small == Int64.min, "\(name)")
            #expect(decoded.text == "ü🙂", "\(name)")
            #expect(decoded.when == Date(timeIntervalSince1970: -14_182_940), "\(name)")
            #expect(decoded.blob == Data([0, 1, 2, 3]), "\(name)")
            #expect(decoded.many.count == 300 && decoded.many["k299"] == 299, "\(name)")
            #expect(decoded.flag == false, "\(name)")
        }
    }
}
