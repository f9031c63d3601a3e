import Foundation
import RawCoding

/// `rawcoding fixtures check [DIR] [--fix]`: every fixture parses and is in the canonical form
/// the library's writers produce.
enum FixturesCommand {
    static let help = """
        usage: rawcoding fixtures check [DIR] [--fix] [--tests DIR] [limits]

        Checks every fixture under DIR (default: Fixtures): each *.json, *.pretty.json,
        *.xml.plist, *.binary.plist and *.plist file must parse and be in the canonical form
        the library's writers produce (keys sorted by their UTF-8 bytes, shortest numbers; a
        final newline is allowed in text). Prints one line per file that is not, and exits 1
        if there is one. DIR/.rawcoding-fixtures-ignore lists paths (relative to DIR, one per
        line, a folder ending in /) that are not stored forms: hand-written examples, hostile
        inputs.

        options:
          --fix          rewrite the files that parse but are not canonical, except historical
                         fixtures: a file whose SHA-256 appears in a test source under the
                         tests folder (an expectDecodes pin) is never rewritten
          --tests DIR    where the test sources are (default: Tests)
          --max-bytes N, --max-depth N, --max-values N, --max-expansion N   as for convert
        """

    /// The writer for a fixture's name; `nil` for files that are not stored forms.
    static func format(forName name: String, data: Data) -> (any TreeFormat)? {
        if name.hasSuffix(".pretty.json") { return JSONTreeFormat(formatting: .pretty) }
        if name.hasSuffix(".json") { return JSONTreeFormat(formatting: .compact) }
        if name.hasSuffix(".xml.plist") { return XMLPropertyListTreeFormat() }
        if name.hasSuffix(".binary.plist") { return BinaryPropertyListTreeFormat() }
        if name.hasSuffix(".plist") {
            return BinaryPropertyListTreeFormat.hasSignature(data)
                ? BinaryPropertyListTreeFormat() : XMLPropertyListTreeFormat()
        }
        return nil
    }

    static func run(_ arguments: [String], io: ToolIO) throws(ToolFailure) -> Int32 {
        guard arguments.first == "check" else {
            throw .usage("fixtures takes the subcommand check; see rawcoding fixtures --help")
        }
        let parsed = try Arguments(
            Array(arguments.dropFirst()), valued: Set(["--tests"]).union(ToolLimits.options), flags: ["--fix"],
            command: "fixtures check")
        guard parsed.positional.count <= 1 else { throw .usage("fixtures check takes at most one DIR") }
        let root = parsed.positional.first ?? "Fixtures"
        let limits = try ToolLimits.read(parsed)
        let fix = parsed.flags.contains("--fix")
        let ignored = try ignoredPaths(in: root, io: io)
        let files = try fixtureFiles(under: root).filter { path in
            let relative = String(path.dropFirst(root.count)).drop { $0 == "/" }
            return !ignored.contains { $0.hasSuffix("/") ? relative.hasPrefix($0) : relative == $0 }
        }
        let pins = fix ? try pinnedDigests(under: parsed.values["--tests"] ?? "Tests") : []

        var lines: [String] = []
        var failed = false
        var checked = 0
        for path in files {
            let name = (path as NSString).lastPathComponent
            guard [".json", ".plist"].contains(where: name.hasSuffix) else { continue }  // not a stored form
            let data = try Document.bytes(of: path, io: io)
            guard let format = format(forName: name, data: data) else { continue }
            checked += 1
            let tree: StoredValue
            do {
                tree = try format.readTree(data, limits: limits)
            } catch {
                lines.append(Document.errorLine(path: path, format: format, failure: error))
                failed = true
                continue
            }
            let canonical: [UInt8]
            do {
                canonical = try format.writeTree(tree, limits: limits)
            } catch {
                lines.append("\(path): cannot be written back: \(RawCodingError(error, subject: StoredValue.self))")
                failed = true
                continue
            }
            let bytes = [UInt8](data)
            if bytes == canonical || (!(format is BinaryPropertyListTreeFormat) && bytes == canonical + [0x0A]) {
                continue
            }
            let offset =
                zip(bytes, canonical).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(bytes.count, canonical.count)
            let problem =
                "\(path): not in canonical \(format.formatName) form (first difference at byte offset \(offset))"
            if fix, pins.contains(SHA256.hex(of: data)) {
                lines.append("\(problem); left as it is: a test pins it by its SHA-256 (a historical fixture)")
                failed = true
            } else if fix {
                do {
                    try io.write(canonical, path)
                    lines.append("\(path): rewritten in canonical form")
                } catch {
                    throw .input("\(path): cannot write: \(error)")
                }
            } else {
                lines.append(problem)
                failed = true
            }
        }
        lines.append("\(checked) file(s) checked under \(root)")
        do {
            try io.write(Array((lines.joined(separator: "\n") + "\n").utf8), "-")
        } catch {
            throw .input("cannot write the results: \(error)")
        }
        return failed ? 1 : 0
    }

    /// The paths `root/.rawcoding-fixtures-ignore` lists; none when it does not exist.
    static func ignoredPaths(in root: String, io: ToolIO) throws(ToolFailure) -> [String] {
        let file = (root as NSString).appendingPathComponent(".rawcoding-fixtures-ignore")
        guard FileManager.default.fileExists(atPath: file) else { return [] }
        let text = String(decoding: try Document.bytes(of: file, io: io), as: UTF8.self)
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// The regular files under `root`, sorted.
    static func fixtureFiles(under root: String) throws(ToolFailure) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .input("\(root): no such folder")
        }
        guard let enumerator = FileManager.default.enumerator(atPath: root) else {
            throw .input("\(root): cannot be listed")
        }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let path = (root as NSString).appendingPathComponent(relative)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                files.append(path)
            }
        }
        return files.sorted()
    }

    /// Every 64-hex-digit string in the Swift sources under `root`: the SHA-256 pins of
    /// historical fixtures. A missing folder pins nothing.
    static func pinnedDigests(under root: String) throws(ToolFailure) -> Set<String> {
        guard FileManager.default.fileExists(atPath: root) else { return [] }
        var digests: Set<String> = []
        for path in try fixtureFiles(under: root) where path.hasSuffix(".swift") {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .input("\(path): cannot read")
            }
            var run: [UInt8] = []
            for byte in data + [0x20] {
                let isHex = (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) || (0x41...0x46).contains(byte)
                if isHex {
                    run.append(byte)
                } else {
                    if run.count == 64 { digests.insert(String(decoding: run, as: UTF8.self).lowercased()) }
                    run.removeAll(keepingCapacity: true)
                }
            }
        }
        return digests
    }
}
