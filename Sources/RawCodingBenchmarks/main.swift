import Foundation
import RawCoding

// Side-by-side timings against Foundation, measured in the same run.
// Run: swift run -c release RawCodingBenchmarks [runs]

let runs = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 31
let catalog = Catalog.make(count: 2_000)

let encoder = StoredValueEncoder()
let decoder = StoredValueDecoder()
let jsonEncoder = JSONEncoder()
let jsonDecoder = JSONDecoder()

do {
    // Inputs for the decode rows, made once: our tree, Foundation's tree and JSON bytes.
    let tree = try encoder.encode(catalog)
    let jsonData = try jsonEncoder.encode(catalog)
    let foundationTree = try JSONSerialization.jsonObject(with: jsonData)
    guard try decoder.decode(Catalog.self, from: tree) == catalog,
          try jsonDecoder.decode(Catalog.self, from: JSONSerialization.data(withJSONObject: foundationTree)) == catalog
    else {
        FileHandle.standardError.write(Data("RawCodingBenchmarks: a round trip lost data; timings would mean nothing\n".utf8))
        exit(1)
    }

    let measured = try Measurement.interleaved([
        ("StoredValueEncoder.encode", { _ = try encoder.encode(catalog) }),
        ("JSONEncoder → JSONSerialization.jsonObject", { _ = try JSONSerialization.jsonObject(with: jsonEncoder.encode(catalog)) }),
        ("JSONEncoder.encode", { _ = try jsonEncoder.encode(catalog) }),
        ("StoredValueDecoder.decode", { _ = try decoder.decode(Catalog.self, from: tree) }),
        ("JSONSerialization.data → JSONDecoder", {
            _ = try jsonDecoder.decode(Catalog.self, from: JSONSerialization.data(withJSONObject: foundationTree))
        }),
        ("JSONDecoder.decode", { _ = try jsonDecoder.decode(Catalog.self, from: jsonData) }),
    ], runs: runs)
    let (encode, pathA, jsonEncode, decode, pathB, jsonDecode) =
        (measured[0], measured[1], measured[2], measured[3], measured[4], measured[5])

    let rows = [
        Comparison(title: "encode: ours vs (a) JSONEncoder → JSONSerialization", ours: encode, theirs: pathA, target: 4),
        Comparison(title: "encode: ours vs (c) JSONEncoder.encode", ours: encode, theirs: jsonEncode, target: 1.5),
        Comparison(title: "decode: ours vs (b) JSONSerialization.data → JSONDecoder", ours: decode, theirs: pathB, target: 3),
        Comparison(title: "decode: ours vs (c) JSONDecoder.decode", ours: decode, theirs: jsonDecode, target: 1),
    ]
    print("RawCodingBenchmarks: 2,000-record catalog, median of \(runs) interleaved runs (\(jsonData.count) bytes as JSON)")
    #if DEBUG
    print("Debug build: these timings say nothing; run `swift run -c release RawCodingBenchmarks`.")
    #endif
    print("\("".padding(toLength: 60, withPad: " ", startingAt: 0))      ours    Foundation   ratio")
    for row in rows { print(row.line) }
} catch {
    FileHandle.standardError.write(Data("RawCodingBenchmarks: \(error)\n".utf8))
    exit(1)
}
