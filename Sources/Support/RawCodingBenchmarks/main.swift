import Foundation
import RawCoding
import RawCodingSQLite
import RawCodingStores

// Side-by-side timings against Foundation, measured in the same run.
// Run: swift run -c release RawCodingBenchmarks [runs] [--originals DIR] [--only GROUP]...
// Instructions per call of the small group under callgrind: Scripts/instructions.sh.

// Profiling: swift run -c release RawCodingBenchmarks profile DOCUMENT OPERATION [repeats]
// repeats one of our operations (json-encode, json-decode, binary-encode, binary-decode,
// xml-encode, xml-decode) on catalog, canada or twitter, or json-decode (or replay-floor, the
// model's calls answered from a tape) on original-canada or original-twitter (the files as
// their producers wrote them), or json-decode-stored on evolving-records (2,000
// StoredDefault & StoredVersioned records), for `perf record`.

/// The command line: `[runs] [--originals DIR] [--only GROUP]...`, groups being originals,
/// small, api, engine, stored, stores, databases, concurrency, catalog, canada and twitter.
enum Options {
    static let arguments = Array(CommandLine.arguments.dropFirst())
    static let only: [String] = arguments.indices.compactMap { index in
        arguments[index] == "--only" && index + 1 < arguments.count ? arguments[index + 1] : nil
    }
}

let runs = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 21

/// `--help` prints the command line instead of starting a run of many minutes, and a group
/// `--only` does not know stops before anything is measured.
extension Options {
    static let groups = [
        "originals", "small", "api", "engine", "stored", "stores", "databases", "concurrency", "catalog", "canada",
        "twitter",
    ]
    static let usage = """
        usage: RawCodingBenchmarks [RUNS] [--originals DIR] [--only GROUP]...
          RUNS             interleaved runs per row, the median is shown (default 21)
          --originals DIR  the original documents (default \(Originals.defaultDirectory))
          --only GROUP     one group; repeat for several: \(groups.joined(separator: ", "))
        Build with -c release: debug timings say nothing. Also: profile, profile-stored-write and
        instructions (see the comments at the top of main.swift, and Scripts/instructions.sh).
        """
}
if Options.arguments.contains(where: { ["--help", "-h", "-help", "help"].contains($0) }) {
    print(Options.usage)
    exit(0)
}
if let unknown = Options.only.first(where: { !Options.groups.contains($0) }) {
    FileHandle.standardError.write(Data("RawCodingBenchmarks: no group \(unknown); \(Options.usage)\n".utf8))
    exit(2)
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
func profile(_ arguments: [String]) throws {
    guard arguments.count >= 2 else { fail("profile DOCUMENT OPERATION [repeats]") }
    let repeats = arguments.count > 2 ? Int(arguments[2]) ?? 100 : 100
    switch arguments[0] {
    case "catalog": try profile(Catalog.make(count: 2_000), arguments[1], repeats)
    case "canada": try profile(Canada.make(), arguments[1], repeats)
    case "twitter": try profile(Twitter.make(), arguments[1], repeats)
    case "evolving-records":
        guard arguments[1] == "json-decode-stored" else { fail("evolving-records take json-decode-stored") }
        let json = JSONCodec()
        let records = Catalog.make(count: 2_000).records.map { EvolvingRecord(record: $0) }
        let bytes = try json.encode(records)
        for _ in 0..<repeats { _ = try json.decodeStored([EvolvingRecord].self, from: bytes) }
    case "sqlite":
        guard arguments[1] == "read" || arguments[1] == "write" else { fail("sqlite takes read or write") }
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(path: directory.appendingPathComponent("settings.sqlite").path)
            let tree = try store.codec.encodeTree(BenchmarkSettings())
            try store.write(tree, forKey: "settings")
            for _ in 0..<repeats {
                if arguments[1] == "read" {
                    _ = try store.read(forKey: "settings")
                } else {
                    try store.write(tree, forKey: "settings")
                }
            }
        }
    case "original-canada", "original-twitter":
        guard arguments[1] == "json-decode" || arguments[1] == "replay-floor" else {
            fail("the original files are profiled with json-decode or replay-floor")
        }
        guard let directory = Originals.directory(Options.arguments) else {
            fail("no original files at \(Originals.defaultDirectory); pass --originals DIR")
        }
        let json = JSONCodec(limits: Limits(maximumInputBytes: 64 << 20))
        let isCanada = arguments[0] == "original-canada"
        let bytes = try Originals.bytes(isCanada ? "canada.json" : "twitter.json", in: directory)
        if arguments[1] == "replay-floor" {
            let tree = try json.readTree(from: bytes)
            if isCanada {
                let tape = try ReplayTape(recording: Canada.self, from: tree)
                for _ in 0..<repeats { _ = try tape.replay(Canada.self) }
            } else {
                let tape = try ReplayTape(recording: Twitter.self, from: tree)
                for _ in 0..<repeats { _ = try tape.replay(Twitter.self) }
            }
            return
        }
        for _ in 0..<repeats {
            _ = isCanada ? try json.decode(Canada.self, from: bytes) as Any : try json.decode(Twitter.self, from: bytes)
        }
    default: fail("unknown document \(arguments[0])")
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
func profile<Document: Codable>(_ document: Document, _ operation: String, _ repeats: Int) throws {
    let limits = Limits(maximumInputBytes: 64 << 20)
    let codecs: [String: any Codec] = [
        "json": JSONCodec(limits: limits), "xml": PropertyListCodec(format: .xml, limits: limits),
        "binary": PropertyListCodec(format: .binary, limits: limits),
    ]
    let parts = operation.split(separator: "-").map(String.init)
    guard parts.count == 2, let codec = codecs[parts[0]] else { fail("unknown operation \(operation)") }
    let bytes = try codec.encode(document)
    for _ in 0..<repeats {
        if parts[1] == "encode" {
            _ = try codec.encode(document)
        } else {
            _ = try codec.decode(Document.self, from: bytes)
        }
    }
}

// Measuring needs ContinuousClock (the 2022 systems) and @Stored (2023).
if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) {
    if CommandLine.arguments.dropFirst().first == "profile-stored-write" {
        // For `perf record`: @Stored writes to a UserDefaults suite, nothing else.
        let suite = "RawCodingBenchmarks.profile.\(ProcessInfo.processInfo.processIdentifier)"
        let stored = StoredSettings(UserDefaultsStore(suiteName: suite))
        for index in 0..<(Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 2_000) {
            stored.settings.launches = index
        }
        UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite)  // `exit` runs no `defer`
        exit(0)
    }

    if CommandLine.arguments.dropFirst().first == "profile" {
        do { try profile(Array(CommandLine.arguments.dropFirst(2))) } catch { fail("\(error)") }
        exit(0)
    }

    if CommandLine.arguments.dropFirst().first == "instructions" {
        do { try countInstructions(Array(CommandLine.arguments.dropFirst(2))) } catch { fail("\(error)") }
        exit(0)
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("RawCodingBenchmarks: \(message)\n".utf8))
    exit(1)
}

/// The value engine against Foundation's tree paths, on the catalog.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
func engineRows(_ catalog: Catalog) throws -> [Comparison] {
    let encoder = StoredValueEncoder()
    let decoder = StoredValueDecoder()
    let jsonEncoder = JSONEncoder()
    let jsonDecoder = JSONDecoder()
    let json = JSONCodec(limits: Limits(maximumInputBytes: 64 << 20))
    let floor = DispatchFloorEncoder()
    // Inputs for the decode rows, made once: our tree, Foundation's tree and JSON bytes.
    let tree = try encoder.encode(catalog)
    let jsonData = try jsonEncoder.encode(catalog)
    let foundationTree = try JSONSerialization.jsonObject(with: jsonData)
    guard try decoder.decode(Catalog.self, from: tree) == catalog,
        try jsonDecoder.decode(Catalog.self, from: JSONSerialization.data(withJSONObject: foundationTree)) == catalog
    else { fail("an engine round trip lost data; timings would mean nothing") }

    let measured = try Measurement.interleaved(
        [
            ("StoredValueEncoder.encode", { _ = try encoder.encode(catalog) }),
            (
                "JSONEncoder → JSONSerialization.jsonObject",
                { _ = try JSONSerialization.jsonObject(with: jsonEncoder.encode(catalog)) }
            ),
            ("JSONEncoder.encode", { _ = try jsonEncoder.encode(catalog) }),
            ("StoredValueDecoder.decode", { _ = try decoder.decode(Catalog.self, from: tree) }),
            (
                "JSONSerialization.data → JSONDecoder",
                {
                    _ = try jsonDecoder.decode(
                        Catalog.self, from: JSONSerialization.data(withJSONObject: foundationTree))
                }
            ),
            ("JSONDecoder.decode", { _ = try jsonDecoder.decode(Catalog.self, from: jsonData) }),
            ("JSONCodec.encode", { _ = try json.encode(catalog) }),
            ("dispatch floor", { _ = try floor.encode(catalog) }),
            (
                "engine into a sink that keeps nothing",
                {
                    guard EngineBenchmark.encodeKeepingNothing(catalog) != nil else {
                        fail("the engine left the catalog to the tree path")
                    }
                }
            ),
        ], runs: runs)
    return [
        Comparison(
            title: "tree encode vs (a) JSONEncoder → JSONSerialization", ours: measured[0], theirs: measured[1],
            target: 4),
        Comparison(title: "tree encode vs (c) JSONEncoder.encode", ours: measured[0], theirs: measured[2], target: 1.5),
        Comparison(
            title: "tree decode vs (b) JSONSerialization.data → JSONDecoder", ours: measured[3], theirs: measured[4],
            target: 3),
        Comparison(title: "tree decode vs (c) JSONDecoder.decode", ours: measured[3], theirs: measured[5], target: nil),
        // Within 2.5× the time of the `encode(to:)` calls themselves: a ratio of at least 0.4.
        Comparison(
            title: "JSON encode vs the Codable dispatch floor", ours: measured[6], theirs: measured[7],
            target: 1 / 2.5),
        Comparison(
            title: "tree encode vs the Codable dispatch floor", ours: measured[0], theirs: measured[7], target: nil),
        // The engine alone (model to sink calls, no bytes written), within 2.5× the floor.
        Comparison(
            title: "engine encode vs the Codable dispatch floor", ours: measured[8], theirs: measured[7],
            target: 1 / 2.5),
    ]
}

/// Every codec against Foundation's coder for the same format, on one document.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
func formatRows<Document: Codable & Equatable>(_ name: String, _ document: Document) throws -> (
    rows: [Comparison], sizes: String
) {
    // canada.json's shape is 12 MB as an XML property list, over the default 8 MiB limit.
    let limits = Limits(maximumInputBytes: 64 << 20)
    let json = JSONCodec(limits: limits)
    let xml = PropertyListCodec(format: .xml, limits: limits)
    let binary = PropertyListCodec(format: .binary, limits: limits)
    let jsonEncoder = JSONEncoder()
    jsonEncoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let jsonDecoder = JSONDecoder()
    let xmlEncoder = PropertyListEncoder()
    xmlEncoder.outputFormat = .xml
    let binaryEncoder = PropertyListEncoder()
    binaryEncoder.outputFormat = .binary
    let plistDecoder = PropertyListDecoder()

    let ours = (json: try json.encode(document), xml: try xml.encode(document), binary: try binary.encode(document))
    let theirs = (
        json: try jsonEncoder.encode(document), xml: try xmlEncoder.encode(document),
        binary: try binaryEncoder.encode(document)
    )
    // Both JSON decoders read the same bytes, with numbers as producers write them.
    let producerJSON = producerWritten(theirs.json)
    guard try json.decode(Document.self, from: producerJSON) == document,
        try jsonDecoder.decode(Document.self, from: producerJSON) == document,
        try json.decode(Document.self, from: ours.json) == document,
        try xml.decode(Document.self, from: ours.xml) == document,
        try binary.decode(Document.self, from: ours.binary) == document,
        try jsonDecoder.decode(Document.self, from: theirs.json) == document,
        try plistDecoder.decode(Document.self, from: theirs.xml) == document,
        try plistDecoder.decode(Document.self, from: theirs.binary) == document
    else { fail("a \(name) round trip lost data; timings would mean nothing") }

    let measured = try Measurement.interleaved(
        [
            ("JSON encode", { _ = try json.encode(document) }),
            ("JSONEncoder", { _ = try jsonEncoder.encode(document) }),
            ("JSON decode", { _ = try json.decode(Document.self, from: producerJSON) }),
            ("JSONDecoder", { _ = try jsonDecoder.decode(Document.self, from: producerJSON) }),
            ("binary encode", { _ = try binary.encode(document) }),
            ("PropertyListEncoder binary", { _ = try binaryEncoder.encode(document) }),
            ("binary decode", { _ = try binary.decode(Document.self, from: ours.binary) }),
            ("PropertyListDecoder binary", { _ = try plistDecoder.decode(Document.self, from: theirs.binary) }),
            ("XML encode", { _ = try xml.encode(document) }),
            ("PropertyListEncoder XML", { _ = try xmlEncoder.encode(document) }),
            ("XML decode", { _ = try xml.decode(Document.self, from: ours.xml) }),
            ("PropertyListDecoder XML", { _ = try plistDecoder.decode(Document.self, from: theirs.xml) }),
        ], runs: runs)
    let rows = [
        Comparison(title: "\(name): JSON encode vs JSONEncoder", ours: measured[0], theirs: measured[1], target: 3),
        Comparison(title: "\(name): JSON decode vs JSONDecoder", ours: measured[2], theirs: measured[3], target: 3),
        Comparison(
            title: "\(name): binary plist encode vs PropertyListEncoder", ours: measured[4], theirs: measured[5],
            target: 3),
        Comparison(
            title: "\(name): binary plist decode vs PropertyListDecoder", ours: measured[6], theirs: measured[7],
            target: 5),
        Comparison(
            title: "\(name): XML plist encode vs PropertyListEncoder", ours: measured[8], theirs: measured[9],
            target: 2),
        Comparison(
            title: "\(name): XML plist decode vs PropertyListDecoder", ours: measured[10], theirs: measured[11],
            target: 4),
    ]
    let sizes = "\(name): JSON \(ours.json.count) bytes, XML \(ours.xml.count), binary \(ours.binary.count)"
    return (rows, sizes)
}

/// Reading stored data as `RawCodable` does (unknown keys recorded, through the evolving
/// decoder) against the plain codec and Foundation, on the catalog.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
func storedRows(_ catalog: Catalog) throws -> [Comparison] {
    let json = JSONCodec(limits: Limits(maximumInputBytes: 64 << 20))
    let bytes = try json.encode(catalog)
    let jsonDecoder = JSONDecoder()
    guard try json.decodeStored(Catalog.self, from: bytes).value == catalog else {
        fail("a stored-form round trip lost data; timings would mean nothing")
    }
    let measured = try Measurement.interleaved(
        [
            ("JSON decodeStored", { _ = try json.decodeStored(Catalog.self, from: bytes) }),
            ("JSON decode", { _ = try json.decode(Catalog.self, from: bytes) }),
            ("JSONDecoder", { _ = try jsonDecoder.decode(Catalog.self, from: bytes) }),
        ], runs: runs)
    // The evolving read of 2,000 current StoredDefault & StoredVersioned records, against the
    // plain decode of the same bytes: at most 1.2× its time (a ratio of at least 0.83).
    let records = catalog.records.map { EvolvingRecord(record: $0, starred: $0.id % 2 == 0) }
    let recordBytes = try json.encode(records)
    guard try json.decodeStored([EvolvingRecord].self, from: recordBytes).value == records else {
        fail("an evolving round trip lost data; timings would mean nothing")
    }
    let evolving = try Measurement.interleaved(
        [
            ("JSON decodeStored records", { _ = try json.decodeStored([EvolvingRecord].self, from: recordBytes) }),
            ("JSON decode records", { _ = try json.decode([EvolvingRecord].self, from: recordBytes) }),
        ], runs: runs)
    return [
        Comparison(
            title: "2,000 evolving records: decodeStored vs our decode", ours: evolving[0], theirs: evolving[1],
            target: 1 / 1.2),
        Comparison(
            title: "catalog: JSON decodeStored vs JSONDecoder", ours: measured[0], theirs: measured[2], target: 1),
        Comparison(
            title: "catalog: JSON decodeStored vs our JSON decode", ours: measured[0], theirs: measured[1], target: nil),
    ]
}

if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) {
    do {
        let catalog = Catalog.make(count: 2_000)
        print("RawCodingBenchmarks: median of \(runs) interleaved runs; ratio = Foundation's time / ours")
        #if DEBUG
            print("Debug build: these timings say nothing; run `swift run -c release RawCodingBenchmarks`.")
        #endif
        print(Comparison.header)
        let groups = Set(Options.only)
        func wanted(_ group: String) -> Bool { groups.isEmpty || groups.contains(group) }
        if wanted("originals") {
            if let directory = Originals.directory(Options.arguments) {
                for row in try originalRows(directory) { print(row.line) }
            } else {
                print("original files: skipped (none at \(Originals.defaultDirectory); pass --originals DIR)")
            }
        }
        if wanted("small") { for row in try smallComparisons() { print(row.line) } }
        if wanted("api") { for row in try apiComparisons() { print(row.line) } }
        if wanted("engine") { for row in try engineRows(catalog) { print(row.line) } }
        if wanted("stored") { for row in try storedRows(catalog) { print(row.line) } }
        if wanted("stores") { for row in try storeRows() { print(row.line) } }
        if wanted("databases") { for row in try databaseRows() { print(row.line) } }
        if wanted("concurrency") { for row in try concurrencyRows() { print(row.line) } }
        var sizes: [String] = []
        for (name, rows) in [
            ("catalog", { try formatRows("catalog", catalog) }),
            ("canada", { try formatRows("canada", Canada.make()) }),
            ("twitter", { try formatRows("twitter", Twitter.make()) }),
        ] as [(String, () throws -> (rows: [Comparison], sizes: String))] where wanted(name) {
            let result = try rows()
            for row in result.rows { print(row.line) }
            sizes.append(result.sizes)
        }
        for line in sizes { print(line) }
    } catch {
        fail("\(error)")
    }
} else {
    fail("the benchmarks need macOS 14, iOS 17, tvOS 17 or watchOS 10")
}
