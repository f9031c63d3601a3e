import Foundation
import RawCoding
import Testing

/// `rawcoding` as a child process, with Python as the oracle: plistlib's files through every
/// format and back, and the peak memory of a large conversion.
@Suite("rawcoding with plistlib")
struct ToolInteropTests {
    /// plistlib writes a corpus in both formats; each goes to every output format and back to a
    /// binary property list with --restore dates,data, and plistlib finds the same value (XML
    /// keeps whole seconds, so a route through XML is compared with its dates truncated).
    @Test(Python.required) func plistlibsCorpusSurvivesEveryFormatAndBack() throws {
        let program = """
            import datetime, plistlib, subprocess, sys, os
            tool, folder = sys.argv[1], sys.argv[2]
            value = {
                'dates': [datetime.datetime(2026, 11, 30, 20, 24, 18, 250000), datetime.datetime(1969, 7, 20, 20, 17, 40),
                          datetime.datetime(1, 1, 1), datetime.datetime(9999, 12, 31, 23, 59, 59, 500000)],
                'data': [b'', b'\\x00\\xff', bytes(range(256))],
                'ints': [0, -1, 2**63 - 1, -2**63, 2**64 - 1],
                'text': ['plain', 'ü', '🙂 𝄞 non-BMP', '', 'work', 'data:;base64', '2026-11-30T20:24:18Z is a date'],
                'reals': [0.5, -2.25, 1e300, 0.1],
                'nested': {'a': {'b': [True, False, {}]}},
            }
            def truncated(v):
                if isinstance(v, datetime.datetime): return v.replace(microsecond=0)
                if isinstance(v, dict): return {k: truncated(x) for k, x in v.items()}
                if isinstance(v, list): return [truncated(x) for x in v]
                return v
            failures = 0
            for name, fmt in (('xml', plistlib.FMT_XML), ('binary', plistlib.FMT_BINARY)):
                source = os.path.join(folder, 'corpus.' + name)
                with open(source, 'wb') as f: plistlib.dump(value, f, fmt=fmt)
                original = plistlib.load(open(source, 'rb'))
                for target in ('json', 'json-pretty', 'xml', 'binary'):
                    middle = os.path.join(folder, 'middle.' + target)
                    back = os.path.join(folder, 'back.plist')
                    for args in (['convert', source, '--to', target, '-o', middle],
                                 ['convert', middle, '--to', 'binary', '--restore', 'dates,data', '-o', back]):
                        run = subprocess.run([tool] + args, capture_output=True, text=True)
                        if run.returncode != 0: print('FAIL', name, target, args, run.stderr); failures += 1
                    got = plistlib.load(open(back, 'rb'))
                    expected = truncated(original) if target == 'xml' else original
                    if got != expected:
                        print('DIFFERENT', name, '->', target, repr(got)[:300]); failures += 1
                    else:
                        print('same', name, '->', target)
            sys.exit(1 if failures else 0)
            """
        let result = try runWithTheTool(program) { _ in }
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        #expect(result.output.components(separatedBy: "same ").count - 1 == 8, "\(result.output)")
    }

    /// A JSON document of numbers converted to a binary property list: the tool's peak resident
    /// memory (measured by Python around the child process) stays within four times the input.
    /// Shown locally with /usr/bin/time -v on 50 MB (2.7×) and 200 MB (2.4×) documents.
    @Test(Python.required) func aLargeJSONDocumentConvertsWithinFourTimesItsSize() throws {
        let program = """
            import json, os, random, resource, subprocess, sys
            tool, folder = sys.argv[1], sys.argv[2]
            random.seed(7)
            path = os.path.join(folder, 'large.json')
            with open(path, 'w') as out:
                out.write('{"type":"FeatureCollection","features":[')
                total, first = 0, True
                while total < 32_000_000:
                    ring = [[round(random.uniform(-180, 180), 13), round(random.uniform(-90, 90), 13)] for _ in range(1000)]
                    text = json.dumps({'type': 'Feature', 'properties': {'id': total}, 'geometry': {'coordinates': [ring]}})
                    out.write(('' if first else ',') + text)
                    first, total = False, total + len(text)
                out.write(']}')
            size = os.path.getsize(path)
            run = subprocess.run([tool, 'convert', path, '--to', 'binary', '-o', os.path.join(folder, 'large.plist')],
                                 capture_output=True, text=True)
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
            print(run.returncode, size, peak, run.stderr.strip())
            """
        var converted = Data()
        let result = try runWithTheTool(program) { folder in
            converted = try Data(contentsOf: folder.appendingPathComponent("large.plist"))
        }
        let fields = result.output.split(separator: " ", maxSplits: 3).map(String.init)
        try #require(fields.count >= 3, "\(result.output)\(result.errors)")
        let (status, size, peak) = (Int(fields[0]), Int(fields[1]) ?? 0, Int(fields[2]) ?? .max)
        #expect(status == 0, "\(result.output)")
        #expect(size > 30_000_000)
        // A sanitizer's shadow memory and quarantine add to the child's resident memory.
        // (AddressSanitizer: a 256 MB quarantine of freed blocks, and red zones around each.)
        let slack = Sanitizers.address ? 640 << 20 : Sanitizers.thread ? 256 << 20 : 0
        #expect(peak <= 4 * size + slack, "peak resident memory \(peak) bytes for \(size) bytes of JSON")
        let features = try BinaryPropertyListReader(
            limits: Limits(maximumInputBytes: 1 << 30, maximumValueCount: 1 << 26)
        )
        .read(converted)["features"]?.arrayValue
        #expect((features?.count ?? 0) > 700)
    }

    /// Numbers written as `%.17g` (as `canada.json` has them), converted to a binary property
    /// list through the tree (a small document) and value by value (one over the streaming
    /// threshold): plistlib reads back every number equal to what Python's `json.load` reads.
    @Test(Python.required) func seventeenDigitNumbersConvertAsPythonReadsThem() throws {
        let program = """
            import json, os, plistlib, random, subprocess, sys
            tool, folder = sys.argv[1], sys.argv[2]
            random.seed(11)
            failures = 0
            for name, count in (('small', 2_000), ('large', 900_000)):
                numbers = [random.uniform(-180, 180) for _ in range(count)] + [0.1, 1e-320, 5e-324, 1.7976931348623157e308]
                path = os.path.join(folder, name + '.json')
                with open(path, 'w') as out:
                    out.write('{"coordinates":[' + ','.join('%.17g' % n for n in numbers) + ']}')
                target = os.path.join(folder, name + '.plist')
                run = subprocess.run([tool, 'convert', path, '--to', 'binary', '-o', target], capture_output=True, text=True)
                if run.returncode != 0:
                    print('FAIL', name, run.stderr); failures += 1; continue
                expected = json.load(open(path))
                got = plistlib.load(open(target, 'rb'))
                if got != expected: print('DIFFERENT', name); failures += 1
                else: print('same', name, os.path.getsize(path))
            sys.exit(1 if failures else 0)
            """
        let result = try runWithTheTool(program) { _ in }
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        let sizes = result.output.split(separator: "\n").compactMap { line in Int(line.split(separator: " ").last ?? "")
        }
        #expect(
            sizes.count == 2 && sizes[1] > 16 << 20, "the large document must take the streaming path: \(result.output)"
        )
    }

    /// A keyed archive as `plistlib` writes one (`UID` values, binary): binary → XML → binary
    /// reads back in plistlib as the same value, UIDs and all; from the canonical binary the
    /// round trip is byte-identical; `print` shows the UIDs.
    @Test(Python.required) func keyedArchivesConvertThroughXMLAndBack() throws {
        let program = """
            import plistlib, subprocess, sys, os
            from plistlib import UID
            tool, folder = sys.argv[1], sys.argv[2]
            archive = {'$archiver': 'NSKeyedArchiver', '$version': 100000, '$top': {'root': UID(1)},
                       '$objects': ['$null', {'$class': UID(3), 'name': UID(2), 'friends': [UID(1), UID(300)],
                                              'far': UID(70000), 'farther': UID(2**33)},
                                    'Ada', {'$classname': 'Person', '$classes': ['Person', 'NSObject']}]}
            def path(name): return os.path.join(folder, name)
            with open(path('a.plist'), 'wb') as f: plistlib.dump(archive, f, fmt=plistlib.FMT_BINARY)
            def tool_run(*args):
                run = subprocess.run([tool] + list(args), capture_output=True, text=True)
                if run.returncode != 0: print('FAIL', args, run.stderr); sys.exit(1)
                return run.stdout
            tool_run('convert', path('a.plist'), '--to', 'xml', '-o', path('a.xml'))
            tool_run('convert', path('a.xml'), '--to', 'binary', '-o', path('b.plist'))
            back = plistlib.load(open(path('b.plist'), 'rb'))
            print('values', 'same' if back == archive else 'DIFFERENT ' + repr(back))
            tool_run('convert', path('a.plist'), '--to', 'binary', '-o', path('canonical.plist'))
            tool_run('convert', path('canonical.plist'), '--to', 'xml', '-o', path('c.xml'))
            tool_run('convert', path('c.xml'), '--to', 'binary', '-o', path('c.plist'))
            same = open(path('canonical.plist'), 'rb').read() == open(path('c.plist'), 'rb').read()
            print('bytes', 'same' if same else 'DIFFERENT')
            print(tool_run('print', path('a.plist')))
            """
        let result = try runWithTheTool(program) { _ in }
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        #expect(result.output.contains("values same\nbytes same\n"), "\(result.output)")
        for shown in [#""root" => uid 1"#, "0 => uid 1", "1 => uid 300", #""far" => uid 70000"#, "uid 8589934592"] {
            #expect(result.output.contains(shown), "\(result.output)")
        }
    }

    /// Runs `python -c program <rawcoding binary> <folder>` in a fresh folder, then `inspect` on
    /// the folder before it is removed.
    /// JSON with nulls (as twitter.json has, 1,946 of them) into property lists that
    /// `plistlib` reads: `--nulls drop` leaves out each null's key or element, `--nulls string`
    /// writes `$null`, through the tree and through the streaming conversions (a document over
    /// 16 MiB), to binary and XML; without the option the conversion stops, naming the path.
    @Test(Python.required) func nullsBecomeWhatTheOptionSaysAndPlistlibReadsThem() throws {
        let program = """
            import json, os, plistlib, subprocess, sys
            tool, folder = sys.argv[1], sys.argv[2]
            def status(i):
                return {'id': i, 'in_reply_to_status_id': None if i % 3 else i - 1, 'text': 'tweet %d' % i,
                        'user': {'url': None, 'name': 'u%d' % i, 'tags': [None, 'a', None] if i % 2 else []},
                        'coordinates': None, 'geo': [None] * (i % 4)}
            def dropped(v):
                if isinstance(v, dict): return {k: dropped(x) for k, x in v.items() if x is not None}
                if isinstance(v, list): return [dropped(x) for x in v if x is not None]
                return v
            def strings(v):
                if isinstance(v, dict): return {k: strings(x) for k, x in v.items()}
                if isinstance(v, list): return [strings(x) for x in v]
                return '$null' if v is None else v
            # The large document goes to the streaming conversions, which --nulls drop does not use.
            for name, count in (('small', 100), ('large', 110000)):
                doc = {'statuses': [status(i) for i in range(count)], 'search_metadata': {'next_results': None}}
                path = os.path.join(folder, name + '.json')
                with open(path, 'w') as out: json.dump(doc, out)
                cases = (('drop', 'binary', dropped), ('drop', 'xml', dropped),
                         ('string', 'binary', strings), ('string', 'xml', strings))
                for nulls, fmt, expected in cases[2:] if name == 'large' else cases:
                    target = os.path.join(folder, 'out.plist')
                    run = subprocess.run([tool, 'convert', path, '--to', fmt, '--nulls', nulls, '-o', target],
                                         capture_output=True, text=True)
                    with open(target, 'rb') as f: read = plistlib.load(f)
                    note = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else ''
                    print(name, nulls, fmt, run.returncode, read == expected(doc), note.split(', at ')[0])
                run = subprocess.run([tool, 'convert', path, '--to', 'binary', '-o', os.path.join(folder, 'no.plist')],
                                     capture_output=True, text=True)
                print(name, 'refuse', run.returncode, os.path.exists(os.path.join(folder, 'no.plist')),
                      run.stderr.strip().split(': null at ')[-1].split(' cannot')[0])
            print('large size', os.path.getsize(os.path.join(folder, 'large.json')) > 16 << 20)
            """
        let result = try runWithTheTool(program) { _ in }
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n").map(String.init)
        let small = 517  // nulls in the small document, by the model above
        let large = 568_334
        var expected: [String] = []
        for (name, count) in [("small", small), ("large", large)] {
            for (nulls, what) in [
                ("drop", "were left out (--nulls drop)"),
                ("string", "were written as the string $null (--nulls string)"),
            ] where name == "small" || nulls == "string" {
                for format in ["binary", "xml"] {
                    expected.append("\(name) \(nulls) \(format) 0 True rawcoding: note: \(count) null(s) \(what)")
                }
            }
            expected.append("\(name) refuse 1 False statuses[0].user.url")
        }
        expected.append("large size True")
        #expect(lines == expected, "\(result.output)\(result.errors)")
    }

    func runWithTheTool(_ program: String, inspect: (URL) throws -> Void) throws -> ChildProcess {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rawcoding-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let python = try #require(Python.executable)
        let result = try ChildProcess.run(
            python, ["-c", program, try ChildProcess.product("rawcoding").path, folder.path])
        try inspect(folder)
        return result
    }
}
