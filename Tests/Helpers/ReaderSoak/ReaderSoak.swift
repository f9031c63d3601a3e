import Foundation
import RawCoding
import RawCodingCommandLine

/// Feeds malformed inputs through every reader in a fresh process and prints how much its
/// resident memory grew: `ReaderSoak [count]` prints one line per reader,
/// `<format> <inputs> <rejected> <kilobytes before> <kilobytes after>`.
///
/// `ReaderSoak tool ARGUMENTS…` instead runs the `rawcoding` tool's logic in process on
/// `ARGUMENTS` and prints `status <exit status> peak <kilobytes>` (VmHWM, this process's own
/// peak: a spawned child's `ru_maxrss` starts at its parent's, which shares its memory until
/// it executes the child).
///
/// Not a product. The memory test runs it as a child process, since test suites running in
/// parallel in one process move its resident memory by several megabytes.
@main
struct ReaderSoak {
    /// VmRSS from /proc/self/status, in kilobytes.
    static func residentKilobytes() throws -> Int {
        try statusKilobytes("VmRSS")
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Whether `read` throws for `data`.
    static func rejects(_ read: (Data) throws -> StoredValue, _ data: Data) -> Bool {
        do {
            _ = try read(data)
            return false
        } catch {
            return true
        }
    }

    /// Every prefix and some single-byte corruptions of a valid document: truncated,
    /// malformed and hostile inputs of every kind the reader checks.
    static func malformedVariants(of valid: Data) -> [Data] {
        var variants: [Data] = []
        for length in 0..<valid.count { variants.append(valid.prefix(length)) }
        for index in valid.indices {
            for replacement: UInt8 in [0x00, 0xFF, 0x22, 0x3C, 0x0F] where replacement != valid[index] {
                var copy = valid
                copy[index] = replacement
                variants.append(copy)
            }
        }
        return variants
    }

    /// A line of /proc/self/status (`VmRSS`, `VmHWM`), in kilobytes.
    static func statusKilobytes(_ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { throw Failure(description: "no \(field) line in /proc/self/status") }
        return kilobytes
    }

    static func main() {
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if arguments.first == "tool" {
                var io = ToolIO.process
                io.write = { _, _ in }  // the output is not the subject; its size in memory is
                let status = Tool.run(Array(arguments.dropFirst()), io: io)
                print("status \(status) peak \(try statusKilobytes("VmHWM"))")
                return
            }
            try run()
        } catch {
            print("ReaderSoak: \(error)")
            exit(1)
        }
    }

    static func run() throws {
        let count = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 200_000
        let sample: StoredValue = [
            "name": "Ada é 🙂", "tags": ["a", "b", ["c": 1.5]], "big": .uint(.max),
            "when": .date(Date(timeIntervalSinceReferenceDate: 1)),
            "blob": .data(Data([1, 2, 3])), "flag": true, "n": -42,
        ]
        let readers: [(String, Data, (Data) throws -> StoredValue)] = [
            ("json", try JSONWriter().write(sample.replacingDates()), { try JSONReader().read($0) }),
            ("xml", try XMLPropertyListWriter().write(sample), { try XMLPropertyListReader().read($0) }),
            ("binary", try BinaryPropertyListWriter().write(sample), { try BinaryPropertyListReader().read($0) }),
        ]
        var failed = false
        for (name, valid, read) in readers {
            let inputs = malformedVariants(of: valid).filter { rejects(read, $0) }
            guard !valid.isEmpty, !inputs.isEmpty else {
                print("\(name): no malformed inputs could be made")
                failed = true
                continue
            }
            // Warm up: allocator arenas, caches and lazily made statics settle first.
            for index in 0..<20_000 where !rejects(read, inputs[index % inputs.count]) {
                throw Failure(description: "\(name): an input rejected before was accepted")
            }
            let before = try residentKilobytes()
            var rejected = 0
            for index in 0..<count where rejects(read, inputs[index % inputs.count]) { rejected += 1 }
            let after = try residentKilobytes()
            print("\(name) \(count) \(rejected) \(before) \(after)")
        }
        exit(failed ? 1 : 0)
    }
}

extension StoredValue {
    /// JSON has no dates: the same tree with dates as numbers, so the JSON input is realistic.
    func replacingDates() -> StoredValue {
        switch self {
        case .date(let date): .double(date.timeIntervalSinceReferenceDate)
        case .array(let elements): .array(elements.map { $0.replacingDates() })
        case .dictionary(let dictionary):
            .dictionary(StoredDictionary(dictionary.map { ($0.key, $0.value.replacingDates()) }))
        default: self
        }
    }
}
