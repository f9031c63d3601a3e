import Foundation
import RawCoding
import Testing

/// Our writers' output read back by independent readers (Foundation, Python's `plistlib` and
/// `json`), and files written by `plistlib` read by ours, compared value for value.
@Suite("Differential: Foundation and Python")
struct DifferentialTests {
    enum Format: String, CaseIterable {
        case json, xml, binary
    }

    static let treesPerFormat = 600

    // MARK: Random trees

    struct TreeGenerator {
        var random: SeededGenerator
        let format: Format
        /// Leaves out U+FEFF and combining marks, which Foundation on Linux drops from text or
        /// merges as dictionary keys (see `Comparison`); Python gets them all.
        var forFoundation = false

        static let pools: [[Unicode.Scalar]] = [
            Array("abcxyzABC0129 _-./:".unicodeScalars), Array("\"\\<>&'/".unicodeScalars),
            Array("éüßøÅçñ".unicodeScalars), Array("日本語中文한국어".unicodeScalars), Array("🙂🎉𝄞👍🏽".unicodeScalars),
            ["\u{301}", "\u{200D}", "\u{FEFF}", "\u{FFFD}", "\u{2028}", "\u{7F}"],
        ]

        mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

        mutating func text() -> String {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<int(0...12) {
                let pool = Self.pools[int(0...(Self.pools.count - 1))]
                let scalar = pool[int(0...(pool.count - 1))]
                if forFoundation, scalar == "\u{FEFF}" || scalar == "\u{301}" { continue }
                scalars.append(scalar)
            }
            if format == .json, int(0...9) == 0 { scalars.append(Unicode.Scalar(UInt8(int(0...31)))) }
            if format != .xml, int(0...19) == 0 { scalars.append("\r") }
            return String(scalars)
        }

        mutating func double() -> Double {
            switch int(0...5) {
            case 0: return Double(int(-1_000...1_000)) / 8
            case 1:
                return [0.1, -0.0, 1e300, .leastNonzeroMagnitude, 2.2250738585072014e-308, 1.7976931348623157e308][
                    int(0...5)]
            default:
                while true {
                    let value = Double(bitPattern: random.next())
                    if value.isFinite { return value }
                }
            }
        }

        mutating func scalar() -> StoredValue {
            switch int(0...(format == .json ? 7 : 9)) {
            case 0: return .bool(int(0...1) == 0)
            case 1: return .int(Int64(int(-300...300)))
            case 2: return .int(Int64.random(in: .min ... .max, using: &random))
            case 3: return .uint(UInt64.random(in: UInt64(Int64.max) + 1 ... .max, using: &random))
            case 4:
                return .int([0, 255, 256, 65_535, 65_536, 4_294_967_295, 4_294_967_296, -1, .max, .min][int(0...9)])
            case 5: return .double(double())
            case 6: return .string(text())
            case 7: return format == .json ? .null : .string(text())
            case 8: return .data(Data((0..<int(0...80)).map { _ in UInt8(int(0...255)) }))
            default:
                // Whole seconds in XML (its text has no fractions), milliseconds in binary;
                // years 1 to 9999, which Python's datetime holds.
                let seconds = Double(Int64.random(in: -63_000_000_000...250_000_000_000, using: &random))
                return .date(
                    Date(
                        timeIntervalSinceReferenceDate: format == .xml ? seconds : seconds + Double(int(0...999)) / 1000
                    ))
            }
        }

        mutating func tree(depth: Int = 0) -> StoredValue {
            guard depth < 4, int(0...2) == 0 || depth == 0 else { return scalar() }
            if int(0...1) == 0 {
                return .array((0..<int(0...(depth == 0 ? 20 : 6))).map { _ in tree(depth: depth + 1) })
            }
            var dictionary = StoredDictionary()
            for _ in 0..<int(0...(int(0...5) == 0 ? 20 : 6)) { dictionary[text()] = tree(depth: depth + 1) }
            return .dictionary(dictionary)
        }
    }

    static func trees(_ format: Format, forFoundation: Bool = false) -> [StoredValue] {
        var generator = TreeGenerator(
            random: SeededGenerator(state: 0x5EED + UInt64(Format.allCases.firstIndex(of: format)!)), format: format,
            forFoundation: forFoundation)
        return (0..<treesPerFormat).map { _ in generator.tree() }
    }

    static func write(_ value: StoredValue, _ format: Format) throws -> Data {
        switch format {
        case .json: try JSONWriter().write(value)
        case .xml: try XMLPropertyListWriter().write(value)
        case .binary: try BinaryPropertyListWriter().write(value)
        }
    }

    static func read(_ data: Data, _ format: Format) throws -> StoredValue {
        switch format {
        case .json: try JSONReader().read(data)
        case .xml: try XMLPropertyListReader().read(data)
        case .binary: try BinaryPropertyListReader().read(data)
        }
    }

    // MARK: Comparing

    /// How strictly two trees are compared.
    struct Comparison {
        /// JSON has one number type: numbers compare by value (3.0 is written `3` and reads back
        /// as an integer; `-0` reads back as the integer 0 in most readers).
        var json = false
        /// Foundation on Linux parses some JSON doubles a few units in the last place off
        /// (3.6114234378382382e+84 reads as 3.6114234378382395e+84) and 19-digit integers as
        /// doubles (-2101174690401177470 as -2.1011746904011776e+18): allow 1e-14 relative.
        var inexactDoubles = false

        static let exact = Comparison()
    }

    static func mismatch(_ expected: StoredValue, _ found: StoredValue, _ rules: Comparison, path: String = "")
        -> String?
    {
        switch (expected, found) {
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return "\(path): \(a.count) elements, found \(b.count)" }
            for index in a.indices {
                if let difference = mismatch(a[index], b[index], rules, path: "\(path)[\(index)]") { return difference }
            }
            return nil
        case (.dictionary(let a), .dictionary(let b)):
            guard a.count == b.count else { return "\(path): \(a.count) entries, found \(b.count)" }
            for (key, value) in a {
                guard let other = b[key] else { return "\(path): key \(key.debugDescription) missing" }
                if let difference = mismatch(value, other, rules, path: "\(path).\(key)") { return difference }
            }
            return nil
        case (.double(let a), .double(let b)) where a.bitPattern == b.bitPattern:
            return nil
        case (.date(let a), .string(let b)) where b.hasPrefix(microsecondsPrefix):
            let (x, y) = (microseconds(a.timeIntervalSinceReferenceDate), Int64(b.dropFirst(microsecondsPrefix.count)))
            return x == y ? nil : "\(path): \(x) µs != \(b)"
        case (.string(let a), .date) where a.hasPrefix(microsecondsPrefix):
            return mismatch(found, expected, rules, path: path)

        case (.double(let a), .double(let b)) where rules.inexactDoubles && abs(a - b) <= abs(a) * 1e-14:
            return nil
        case (.string(let a), .string(let b)):
            return a.utf8.elementsEqual(b.utf8) ? nil : "\(path): \(a.debugDescription) != \(b.debugDescription)"
        default:
            if rules.json, let a = expected.doubleValue, let b = found.doubleValue {
                if a == b, a != 0 || a.sign == b.sign || exactInteger(found) != nil { return nil }
                if rules.inexactDoubles, abs(a - b) <= abs(a) * 1e-14, exactInteger(found) == nil { return nil }
            }
            return expected == found ? nil : "\(path): \(expected) != \(found)"
        }
    }

    /// Whole microseconds of `seconds`, rounded as Python's `timedelta` rounds (exact for
    /// the whole seconds, which a plain `seconds * 1e6` would not be past 2^53).
    static func microseconds(_ seconds: Double) -> Int64 {
        let whole = seconds.rounded(.down)
        return Int64(whole) * 1_000_000 + Int64(((seconds - whole) * 1e6).rounded(.toNearestOrEven))
    }

    static func exactInteger(_ value: StoredValue) -> String? {
        switch value {
        case .int(let number): "\(number)"
        case .uint(let number): "\(number)"
        default: nil
        }
    }

    // MARK: Our round trip and determinism

    @Test(arguments: Format.allCases)
    func writersAreDeterministicAndReadBackExactly(_ format: Format) throws {
        for (index, tree) in Self.trees(format).enumerated() {
            let first = try Self.write(tree, format)
            #expect(try Self.write(tree, format) == first, "\(format) tree \(index): second write differs")
            let back = try Self.read(first, format)
            if let difference = Self.mismatch(tree, back, Comparison(json: format == .json)) {
                Issue.record("\(format) tree \(index) read back differently at \(difference)")
                continue
            }
            #expect(
                try Self.write(back, format) == first,
                "\(format) tree \(index): rewriting what was read changes the bytes")
        }
    }

    // MARK: Foundation reads ours

    @Test(arguments: Format.allCases)
    func foundationReadsOurOutput(_ format: Format) throws {
        for (index, tree) in Self.trees(format, forFoundation: true).enumerated() {
            let data = try Self.write(tree, format)
            let object: Any =
                format == .json
                ? try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
                : try PropertyListSerialization.propertyList(from: data, format: nil)
            let value: StoredValue
            if format == .json {
                value = try Self.storedValue(fromJSONObject: object)
            } else {
                value = try StoredValue(propertyList: object)
            }
            if let difference = Self.mismatch(
                tree, value, Comparison(json: format == .json, inexactDoubles: format == .json))
            {
                Issue.record("Foundation read \(format) tree \(index) differently at \(difference)")
            }
        }
    }

    /// JSONSerialization's objects (NSNull, NSNumber) as a tree.
    static func storedValue(fromJSONObject object: Any) throws -> StoredValue {
        switch object {
        case is NSNull: return .null
        case let array as [Any]: return .array(try array.map(storedValue(fromJSONObject:)))
        case let dictionary as [String: Any]:
            return .dictionary(
                StoredDictionary(try dictionary.map { ($0.key, try storedValue(fromJSONObject: $0.value)) }))
        default: return try StoredValue(propertyList: object)
        }
    }

    // MARK: Python reads ours

    /// Reads every file named on the command line (JSON or plist, by extension) and prints one
    /// line of tagged JSON per file: exact for every type (floats as hex, dates as microseconds
    /// from 2001).
    static let pythonReader =
        pythonTag + #"""
            for path in sys.argv[1:]:
                with open(path, 'rb') as f:
                    data = f.read()
                try:
                    value = json.loads(data.decode('utf-8')) if path.endswith('.json') else plistlib.loads(data)
                    print(json.dumps(['ok', tag(value)]))
                except Exception as e:
                    print(json.dumps(['error', repr(e)]))
            """#

    /// `tag(value)`: a value as JSON, exact for every type (floats as hex, dates as
    /// microseconds from 2001).
    static let pythonTag = #"""
        import json, plistlib, sys, datetime, base64, random, os
        EPOCH = datetime.datetime(2001, 1, 1)
        def tag(v):
            if v is None: return ['n']
            if isinstance(v, bool): return ['b', v]
            if isinstance(v, int): return ['i', str(v)]
            if isinstance(v, float): return ['f', v.hex()]
            if isinstance(v, str): return ['s', v]
            if isinstance(v, bytes): return ['d', base64.b64encode(v).decode()]
            if isinstance(v, datetime.datetime): return ['t', str((v - EPOCH) // datetime.timedelta(microseconds=1))]
            if isinstance(v, list): return ['a', [tag(x) for x in v]]
            if isinstance(v, dict): return ['o', [[k, tag(x)] for k, x in v.items()]]
            raise TypeError(type(v))

        """#

    /// The value a tagged line describes.
    static func untag(_ tagged: Any) throws -> StoredValue {
        func field<T>(_ value: Any?, as type: T.Type) throws -> T {
            guard let value = value as? T else {
                throw DifferentialFailure(description: "unexpected tagged value \(String(describing: value))")
            }
            return value
        }
        let parts = try field(tagged, as: [Any].self)
        let kind = try field(parts.first, as: String.self)
        let payload: Any? = parts.count > 1 ? parts[1] : nil
        switch kind {
        case "n": return .null
        case "b": return .bool(try field(payload, as: Bool.self))
        case "i":
            let text = try field(payload, as: String.self)
            if let number = Int64(text) { return .int(number) }
            return .uint(try field(UInt64(text), as: UInt64.self))
        case "f": return .double(try field(double(fromHex: try field(payload, as: String.self)), as: Double.self))
        case "s": return .string(try field(payload, as: String.self))
        case "d": return .data(try field(Data(base64Encoded: try field(payload, as: String.self)), as: Data.self))
        case "t":
            // Kept as exact microseconds (a Double would round them past 2^53); `mismatch`
            // compares a date with this form.
            return .string(Self.microsecondsPrefix + (try field(payload, as: String.self)))
        case "a": return .array(try field(payload, as: [Any].self).map(untag))
        case "o":
            let entries = try field(payload, as: [[Any]].self)
            return .dictionary(
                StoredDictionary(try entries.map { (try field($0.first, as: String.self), try untag($0[1])) }))
        default:
            throw DifferentialFailure(description: "unknown tag \(kind)")
        }
    }

    static let microsecondsPrefix = "µs since 2001: "

    /// Python's `float.hex()` text (`-0x1.8p+1`, `inf`, `nan`) as a Double.
    static func double(fromHex text: String) -> Double? {
        switch text {
        case "inf": return .infinity
        case "-inf": return -.infinity
        case "nan": return .nan
        default: return Double(text)
        }
    }

    struct DifferentialFailure: Error, CustomStringConvertible {
        var description: String
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rawcoding-differential-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test(Python.required, arguments: Format.allCases)
    func pythonReadsOurOutput(_ format: Format) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trees = Self.trees(format)
        var files: [URL] = []
        for (index, tree) in trees.enumerated() {
            let file = directory.appendingPathComponent("\(index).\(format == .json ? "json" : "plist")")
            try Self.write(tree, format).write(to: file)
            files.append(file)
        }
        for (index, reading) in try Self.pythonReads(files).enumerated() {
            switch reading {
            case .failure(let failure):
                Issue.record("python could not read \(format) tree \(index): \(failure)")
            case .success(let value):
                if let difference = Self.mismatch(trees[index], value, Comparison(json: format == .json)) {
                    Issue.record("python read \(format) tree \(index) differently at \(difference)")
                }
            }
        }
    }

    /// Python's reading of each file (JSON or property list, by extension) through
    /// ``pythonReader``, exact for every type (dates as microseconds, see ``untag(_:)``), or
    /// what Python said when it could not read one.
    static func pythonReads(_ files: [URL]) throws -> [Result<StoredValue, DifferentialFailure>] {
        let python = try #require(Python.executable)
        let result = try ChildProcess.run(python, ["-c", pythonReader] + files.map(\.path))
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n")
        try #require(
            lines.count == files.count, "python printed \(lines.count) lines for \(files.count) files: \(result.errors)"
        )
        return try lines.map { line in
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
            guard parsed.first as? String == "ok" else {
                return .failure(DifferentialFailure(description: "\(parsed.last ?? "")"))
            }
            return .success(try untag(parsed[1]))
        }
    }

    // MARK: We read what plistlib writes

    /// Writes plists with plistlib (fixed edge cases, then seeded random ones) into argv[1],
    /// one `N.xml.plist`/`N.binary.plist` pair per value, and prints each value's tagged JSON.
    static let pythonWriter =
        pythonTag + #"""
            out = sys.argv[1]
            rng = random.Random(20261129)
            def text():
                pools = ['abc XYZ 019', '<>&"\'', 'éüß', '日本語', '🙂𝄞', '\u0301\u200d']
                return ''.join(rng.choice(rng.choice(pools)) for _ in range(rng.randint(0, 10)))
            def scalar():
                k = rng.randint(0, 8)
                if k == 0: return rng.random() < 0.5
                if k == 1: return rng.randint(-300, 300)
                if k == 2: return rng.randint(-2**63, 2**63 - 1)
                if k == 3: return rng.randint(2**63, 2**64 - 1)
                if k == 4: return rng.uniform(-1e10, 1e10)
                if k == 5: return text()
                if k == 6: return bytes(rng.randint(0, 255) for _ in range(rng.randint(0, 40)))
                return EPOCH + datetime.timedelta(seconds=rng.randint(-60_000_000_000, 250_000_000_000))
            def tree(depth=0):
                if depth >= 4 or (depth > 0 and rng.random() < 0.6): return scalar()
                if rng.random() < 0.5: return [tree(depth + 1) for _ in range(rng.randint(0, 8))]
                return {text(): tree(depth + 1) for _ in range(rng.randint(0, 20))}
            fixed = [
                {f'key{i:02}': i for i in range(20)},
                list(range(300)),
                list(range(70_000)),
                [2**64 - 1, -2**63, 2**63, 0, 255, 256, 65535, 65536, 2**32],
                [datetime.datetime(1900, 1, 1), datetime.datetime(1969, 7, 20, 20, 17, 40), datetime.datetime(1, 1, 1), datetime.datetime(9999, 12, 31, 23, 59, 59)],
                ['𝄞🙂👍🏽', 'e\u0301', 'a' * 40, ''],
                {'nested': [{'deep': [[{'x': b'\x00\xff'}]]}], 'float': [0.1, 1e300, -0.0, 5e-324], 'flag': [True, False]},
                'top-level string', 42, 2.5, b'raw', datetime.datetime(2020, 2, 29, 12, 0, 0),
            ]
            values = fixed + [tree() for _ in range(500)]
            for i, v in enumerate(values):
                for name, fmt in (('xml', plistlib.FMT_XML), ('binary', plistlib.FMT_BINARY)):
                    with open(os.path.join(out, f'{i}.{name}.plist'), 'wb') as f:
                        f.write(plistlib.dumps(v, fmt=fmt, sort_keys=(i % 2 == 0)))
                print(json.dumps(tag(v)))
            """#

    @Test(Python.required) func weReadWhatPlistlibWrites() throws {
        let python = try #require(Python.executable)
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ChildProcess.run(python, ["-c", Self.pythonWriter, directory.path])
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count >= 500)
        for (index, line) in lines.enumerated() {
            let expected = try Self.untag(try JSONSerialization.jsonObject(with: Data(line.utf8)))
            for format in [Format.xml, .binary] {
                let data = try Data(contentsOf: directory.appendingPathComponent("\(index).\(format.rawValue).plist"))
                do {
                    let value = try Self.read(data, format)
                    if let difference = Self.mismatch(expected, value, .exact) {
                        Issue.record("plistlib \(format) value \(index) read differently at \(difference)")
                    }
                } catch {
                    Issue.record("plistlib \(format) value \(index) not read: \(error)")
                }
            }
        }
    }
}
