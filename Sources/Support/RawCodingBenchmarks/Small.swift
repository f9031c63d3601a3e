import Foundation
import RawCoding
import RawCodingSQLite
import RawCodingStores

// The `small` group: settings-sized values, where apps spend most of their calls. Each row
// is one call of ours beside what users replace, timed here (`--only small`) or counted in
// instructions under callgrind (`Scripts/instructions.sh`, through `instructions ROW SIDE N`).

/// The seed's settings struct: six fields, 99 bytes of JSON.
struct SeedSettings: Codable, Sendable, Equatable {
    var username = "ada"
    var isPrivate = true
    var ringtone = "Chimes"
    var fontSize = 14.5
    var volume = 0.8
    var tags = ["work", "home"]
}

/// A larger value: 20 fields, a nested struct and an enum.
struct SeedProfile: Codable, Sendable, Equatable {
    enum Plan: String, Codable, Sendable { case free, pro, team }

    struct Address: Codable, Sendable, Equatable {
        var street = "12 Analytical Row"
        var city = "London"
        var postalCode = "NW1 6XE"
        var country = "GB"
    }

    var id = 1_815
    var handle = "ada"
    var displayName = "Ada Lovelace"
    var email = "ada@example.com"
    var bio = "Writes notes on engines that do not exist yet."
    var plan = Plan.pro
    var address = Address()
    var isVerified = true
    var followers = 18_432
    var following = 52
    var rating = 4.75
    var balance = 1_203.5
    var locale = "en_GB"
    var timeZone = "Europe/London"
    var createdAt = Date(timeIntervalSinceReferenceDate: 700_000_000)
    var website: String? = "https://example.com/ada"
    var tags = ["math", "engines", "poetry"]
    var scores = [98, 87, 91]
    var notifications = false
    var theme = "dark"
}

/// The seed's snippet: a `RawRepresentable` wrapper over `JSONDecoder` and `JSONEncoder`.
struct SnippetCodable<Value: Codable>: RawRepresentable {
    var wrappedValue: Value

    init(_ value: Value) { wrappedValue = value }

    init?(rawValue: String) {
        guard let data = rawValue.data(using: .utf8),
            let result = try? JSONDecoder().decode(Value.self, from: data)
        else { return nil }
        wrappedValue = result
    }

    var rawValue: String {
        guard let data = try? JSONEncoder().encode(wrappedValue),
            let result = String(data: data, encoding: .utf8)
        else { return "{}" }
        return result
    }
}

/// A `@Stored` property over any store.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
final class StoredHolder<Value: Codable & Sendable> {
    @Stored var value: Value
    init(_ value: Value, store: any KeyValueStore) {
        _value = Stored(wrappedValue: value, "small", store: store)
    }
}

/// One row of the group: one call of ours and the call it is compared with.
struct SmallRow {
    /// Names the row for `instructions`.
    var id: String
    var title: String
    var ours: () throws -> Void
    /// `nil` for a row with a limit in instructions instead of a comparison.
    var theirs: (() throws -> Void)?
    /// The ratio asked for (their time over ours).
    var target: Double?
}

/// Files the store rows write, removed by ``removeAll()``.
final class SmallScratch {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("RawCodingSmall-\(UUID())")

    init() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Removes the files; call it once the stores are gone, since their watchers may still be
    /// looking at them.
    func removeAll() {
        do {
            try FileManager.default.removeItem(at: directory)
        } catch {
            FileHandle.standardError.write(Data("RawCodingBenchmarks: left \(directory.path): \(error)\n".utf8))
        }
    }
}

/// Every row for one value: codecs against Foundation's coders, `RawCodable` against the
/// snippet, the stored forms against the plain calls, stores against their codec.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
func smallRows<Value: Codable & Sendable & Equatable>(
    _ name: String, _ value: Value, scratch: SmallScratch, withFileStores: Bool
) throws -> [SmallRow] {
    let json = JSONCodec()
    let binary = PropertyListCodec(format: .binary)
    let xml = PropertyListCodec(format: .xml)
    // Foundation configured for the same bytes as ours (canonical JSON).
    let jsonEncoder = JSONEncoder()
    jsonEncoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let jsonDecoder = JSONDecoder()
    let binaryEncoder = PropertyListEncoder()
    binaryEncoder.outputFormat = .binary
    let xmlEncoder = PropertyListEncoder()
    xmlEncoder.outputFormat = .xml
    let plistDecoder = PropertyListDecoder()

    let jsonBytes = try json.encode(value)
    let binaryBytes = try binary.encode(value)
    let xmlBytes = try xml.encode(value)
    let raw = RawCodable(value).rawValue
    let snippetRaw = SnippetCodable(value).rawValue
    guard try json.decode(Value.self, from: jsonBytes) == value,
        try jsonDecoder.decode(Value.self, from: jsonBytes) == value,
        try binary.decode(Value.self, from: binaryBytes) == value,
        try plistDecoder.decode(Value.self, from: binaryBytes) == value,
        try xml.decode(Value.self, from: xmlBytes) == value,
        try plistDecoder.decode(Value.self, from: xmlBytes) == value,
        RawCodable<Value>(rawValue: raw)?.wrappedValue == value,
        SnippetCodable<Value>(rawValue: snippetRaw)?.wrappedValue == value,
        try json.decodeStored(Value.self, from: jsonBytes).value == value
    else { fail("a \(name) round trip lost data; timings would mean nothing") }

    let memory = InMemoryStore()
    try memory.set(value, forKey: "small")
    guard try memory.value(Value.self, forKey: "small") == value else { fail("the in-memory store lost \(name)") }
    let storedMemory = StoredHolder(value, store: InMemoryStore())
    storedMemory.value = value
    guard storedMemory.value == value else { fail("@Stored lost \(name)") }

    let rows = [
        SmallRow(
            id: "\(name)-json-decode", title: "\(name): JSON decode vs JSONDecoder",
            ours: { _ = try json.decode(Value.self, from: jsonBytes) },
            theirs: { _ = try jsonDecoder.decode(Value.self, from: jsonBytes) }, target: 3),
        SmallRow(
            id: "\(name)-json-encode", title: "\(name): JSON encode vs JSONEncoder",
            ours: { _ = try json.encode(value) }, theirs: { _ = try jsonEncoder.encode(value) }, target: 3),
        SmallRow(
            id: "\(name)-binary-decode", title: "\(name): binary plist decode vs PropertyListDecoder",
            ours: { _ = try binary.decode(Value.self, from: binaryBytes) },
            theirs: { _ = try plistDecoder.decode(Value.self, from: binaryBytes) }, target: 3),
        SmallRow(
            id: "\(name)-binary-encode", title: "\(name): binary plist encode vs PropertyListEncoder",
            ours: { _ = try binary.encode(value) }, theirs: { _ = try binaryEncoder.encode(value) }, target: 3),
        SmallRow(
            id: "\(name)-xml-decode", title: "\(name): XML plist decode vs PropertyListDecoder",
            ours: { _ = try xml.decode(Value.self, from: xmlBytes) },
            theirs: { _ = try plistDecoder.decode(Value.self, from: xmlBytes) }, target: 3),
        SmallRow(
            id: "\(name)-xml-encode", title: "\(name): XML plist encode vs PropertyListEncoder",
            ours: { _ = try xml.encode(value) }, theirs: { _ = try xmlEncoder.encode(value) }, target: 3),
        SmallRow(
            id: "\(name)-rawcodable-decode", title: "\(name): RawCodable(rawValue:) vs the snippet",
            ours: { _ = RawCodable<Value>(rawValue: raw) }, theirs: { _ = SnippetCodable<Value>(rawValue: snippetRaw) },
            target: 3),
        SmallRow(
            id: "\(name)-rawcodable-encode", title: "\(name): RawCodable.rawValue vs the snippet",
            ours: { _ = RawCodable(value).rawValue }, theirs: { _ = SnippetCodable(value).rawValue }, target: 3),
        // At most 1.2× the plain call: a ratio of at least 0.83.
        SmallRow(
            id: "\(name)-stored-decode", title: "\(name): JSON decodeStored vs our decode",
            ours: { _ = try json.decodeStored(Value.self, from: jsonBytes) },
            theirs: { _ = try json.decode(Value.self, from: jsonBytes) }, target: 1 / 1.2),
        SmallRow(
            id: "\(name)-stored-encode", title: "\(name): JSON encodeStored vs our encode",
            ours: { _ = try json.encodeStored(value) }, theirs: { _ = try json.encode(value) }, target: 1 / 1.2),
        // At most 1.3× the codec alone: a ratio of at least 0.77.
        SmallRow(
            id: "\(name)-memory-value", title: "\(name): InMemoryStore value vs its codec's decode",
            ours: { _ = try memory.value(Value.self, forKey: "small") },
            theirs: { _ = try binary.decode(Value.self, from: binaryBytes) }, target: 1 / 1.3),
        SmallRow(
            id: "\(name)-memory-set", title: "\(name): InMemoryStore set vs its codec's encode",
            ours: { try memory.set(value, forKey: "small") }, theirs: { _ = try binary.encode(value) },
            target: 1 / 1.3),
        // A cached read: at most 2,000 instructions (Scripts/instructions.sh).
        SmallRow(
            id: "\(name)-stored-read", title: "\(name): @Stored read, cached", ours: { _ = storedMemory.value },
            theirs: nil, target: nil),
        SmallRow(
            id: "\(name)-stored-write-memory", title: "\(name): @Stored write vs InMemoryStore set",
            ours: { storedMemory.value = value }, theirs: { try memory.set(value, forKey: "small") }, target: nil),
    ]
    guard withFileStores else { return rows }
    // The stores on files watch them from a thread of their own, whose polling would count
    // in the instructions of every other row.
    let fileStore = try FileStore(directory: scratch.directory.appendingPathComponent(name))
    let storedFile = StoredHolder(value, store: fileStore)
    let sqlite = try SQLiteStore(path: scratch.directory.appendingPathComponent("\(name).sqlite").path)
    let storedSQLite = StoredHolder(value, store: sqlite)
    storedFile.value = value
    storedSQLite.value = value
    guard storedFile.value == value, storedSQLite.value == value else { fail("@Stored lost \(name)") }
    let fileTree = try fileStore.codec.encodeTree(value)
    let sqliteTree = try sqlite.codec.encodeTree(value)
    return rows + [
        // The write's overhead beyond the I/O: the store writing an encoded tree.
        SmallRow(
            id: "\(name)-stored-write-file", title: "\(name): @Stored write vs FileStore writing the tree",
            ours: { storedFile.value = value }, theirs: { try fileStore.write(fileTree, forKey: "tree") },
            target: nil),
        SmallRow(
            id: "\(name)-stored-write-sqlite", title: "\(name): @Stored write vs SQLiteStore writing the tree",
            ours: { storedSQLite.value = value }, theirs: { try sqlite.write(sqliteTree, forKey: "tree") },
            target: nil),
    ]
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
func allSmallRows(scratch: SmallScratch, withFileStores: Bool = true) throws -> [SmallRow] {
    try smallRows("settings", SeedSettings(), scratch: scratch, withFileStores: withFileStores)
        + smallRows("profile", SeedProfile(), scratch: scratch, withFileStores: withFileStores)
}

/// The group timed: 200 calls per sample, so each sample is long enough to time.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
func smallComparisons() throws -> [Comparison] {
    let scratch = try SmallScratch()
    defer { scratch.removeAll() }
    return try timeSmallRows(allSmallRows(scratch: scratch))
}

/// The `api` group timed, as the small one.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
func apiComparisons() throws -> [Comparison] {
    try timeSmallRows(apiRows())
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
private func timeSmallRows(_ rows: [SmallRow]) throws -> [Comparison] {
    let calls = 200
    var comparisons: [Comparison] = []
    for row in rows {
        let ours = row.ours
        let theirs = row.theirs ?? {}
        let measured = try Measurement.interleaved(
            [
                ("ours", { for _ in 0..<calls { try ours() } }),
                ("theirs", { for _ in 0..<calls { try theirs() } }),
            ], runs: runs)
        if row.theirs == nil {
            let perCall = measured[0].median * 1_000_000 / Double(calls)
            print("\(row.title.padding(toLength: 64, withPad: " ", startingAt: 0)) \(format(perCall)) ns a call")
            continue
        }
        comparisons.append(Comparison(title: row.title, ours: measured[0], theirs: measured[1], target: row.target))
    }
    return comparisons
}

/// `instructions list` prints each row's id, title and target; `instructions ROW ours|theirs N`
/// makes the row and calls one side `N` times, for callgrind (Scripts/instructions.sh).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
func countInstructions(_ arguments: [String]) throws {
    let scratch = try SmallScratch()
    defer { scratch.removeAll() }
    // Only the rows asked for are made: the api payloads, and the stores on files (whose
    // watcher threads would count in every other row), for their own rows or the list.
    let row = arguments.first ?? "list"
    let rows: [SmallRow]
    if row.hasPrefix("api-") {
        rows = try apiRows()
    } else {
        let onFiles = row.contains("-file") || row.contains("-sqlite") || row == "list"
        rows = try allSmallRows(scratch: scratch, withFileStores: onFiles) + (row == "list" ? apiRows() : [])
    }
    try countInstructions(arguments, rows: rows)
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
private func countInstructions(_ arguments: [String], rows: [SmallRow]) throws {
    if arguments.first == "list" {
        for row in rows {
            let target = row.target.map { String($0) } ?? "-"
            print("\(row.id)\t\(row.theirs == nil ? "-" : target)\t\(row.title)")
        }
        return
    }
    guard arguments.count == 3, let count = Int(arguments[2]) else { fail("instructions ROW ours|theirs COUNT") }
    guard let row = rows.first(where: { $0.id == arguments[0] }) else { fail("no row \(arguments[0])") }
    guard let body = arguments[1] == "ours" ? row.ours : row.theirs else { fail("\(row.id) has no \(arguments[1])") }
    for _ in 0..<count { try body() }
}
