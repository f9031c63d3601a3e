import Foundation
import RawCoding
import RawCodingStores
import Testing

/// A table with a text column, as a database would have: here a dictionary behind a lock.
final class TextTable: Sendable {
    let name: String
    let rows = Rows()
    init(name: String) { self.name = name }
}

/// The rows behind an `NSLock` (a pthread mutex, which the thread sanitizer sees; it cannot see
/// `Synchronization.Mutex`, and reported its guarded accesses as races).
final class Rows: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [String: String] = [:]

    func withLock<Result, Failure: Error>(
        _ body: (inout [String: String]) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&rows)
    }
}

/// A store that keeps each tree as JSON text in a table's column.
final class TextColumnStore: KeyValueStore {
    let table: TextTable
    let codec: any Codec = .json
    private let broadcaster: StoreChangeBroadcaster

    init(table: TextTable) {
        self.table = table
        // One broadcaster per table, so every instance on it sees the others' writes.
        broadcaster = .shared(for: "text-table:\(table.name)")
    }

    func read(forKey key: String) throws(RawCodingError) -> StoredValue? {
        guard let text = table.rows.withLock({ $0[key] }) else { return nil }
        return try read(text, forKey: key)
    }

    /// A row's text as a tree, or the error with the key first in its path.
    private func read(_ text: String, forKey key: String) throws(RawCodingError) -> StoredValue {
        do throws(RawCodingError) {
            return try codec.readTree(from: Data(text.utf8))
        } catch {
            throw error.at(key: key)
        }
    }

    func update<Result>(
        forKey key: String, _ body: (inout StoredValue?) throws(RawCodingError) -> Result
    ) throws(RawCodingError) -> Result {
        // A database would run this in a transaction that locks the row.
        let (result, changed) = try table.rows.withLock { rows throws(RawCodingError) in
            let old = try rows[key].map { text throws(RawCodingError) in try read(text, forKey: key) }
            var value = old
            let result = try body(&value)
            guard value != old else { return (result, false) }
            if let value {
                guard !value.isNull else {
                    throw RawCodingError(
                        kind: .encodingFailed, typeName: "TextColumnStore", reason: "null is not a value"
                    ).at(key: key)
                }
                do throws(RawCodingError) {
                    rows[key] = String(decoding: try codec.writeTree(value), as: UTF8.self)
                } catch {
                    throw error.at(key: key)
                }
            } else {
                rows[key] = nil
            }
            return (result, true)
        }
        if changed { broadcaster.send(forKey: key, from: self) }
        return result
    }

    func keys() throws(RawCodingError) -> [String] {
        table.rows.withLock { $0.keys.filter { !$0.hasPrefix("set-aside/") }.sorted() }
    }

    func observe(_ handler: @escaping @Sendable (StoreChange) -> Void) -> StoreObservation {
        broadcaster.add(for: self, handler)
    }

    // Set-aside payloads: rows named "set-aside/<key>@<milliseconds>", holding the text exactly
    // as it was (a real table would have key and date columns).
    func setAside(forKey key: String) throws(RawCodingError) -> SetAsidePayload? {
        let milliseconds = Int64(Date().timeIntervalSince1970 * 1_000)
        let id = "\(key)@\(milliseconds)"
        let text: String? = table.rows.withLock { rows in
            guard let text = rows.removeValue(forKey: key) else { return nil }
            rows["set-aside/\(id)"] = text
            return text
        }
        guard let text else { return nil }
        broadcaster.send(forKey: key, from: self)
        return SetAsidePayload(id: id, key: key, date: Self.date(milliseconds), content: .bytes(Data(text.utf8)))
    }

    func setAsidePayloads() throws(RawCodingError) -> [SetAsidePayload] {
        table.rows.withLock { rows in
            rows.keys.filter { $0.hasPrefix("set-aside/") }.sorted().compactMap { row in
                let id = String(row.dropFirst("set-aside/".count))
                guard let at = id.lastIndex(of: "@"), let milliseconds = Int64(id[at...].dropFirst()) else {
                    // A row this store did not write: skipped, and reported, since listing has
                    // no caller to throw to for one row.
                    RawCodingDiagnostics.report(
                        RawCodingError(
                            kind: .storageFailed, typeName: "TextColumnStore",
                            reason: "the set-aside row \(row) has no key@milliseconds name; it was left as it is"
                        ).at(key: id), as: .readFailed)
                    return nil
                }
                return SetAsidePayload(
                    id: id, key: String(id[..<at]), date: Self.date(milliseconds),
                    content: .bytes(Data(rows[row]!.utf8)))
            }
        }
    }

    static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1_000) }

    func discardSetAside(_ id: String) throws(RawCodingError) {
        _ = table.rows.withLock { $0.removeValue(forKey: "set-aside/\(id)") }
    }
}

/// Errors name the key first, and a row the store cannot list is reported, through public API
/// only.
@Test func errorsNameTheKeyFirstAndUnlistableRowsAreReported() throws {
    let table = TextTable(name: UUID().uuidString)
    let store = TextColumnStore(table: table)
    table.rows.withLock {
        $0["settings"] = #"{"theme": "#
        $0["set-aside/stray"] = "{}"
    }
    let error = try #require(throws: RawCodingError.self) { try store.read(forKey: "settings") }
    #expect(error.codingPath.first?.stringValue == "settings", "\(error)")
    #expect(error.kind == .decodingFailed)
    let refused = try #require(throws: RawCodingError.self) { try store.write(.null, forKey: "theme") }
    #expect(refused.codingPath.map(\.stringValue) == ["theme"], "\(refused)")

    final class Events: @unchecked Sendable {
        let lock = NSLock()
        var all: [RawCodingDiagnostics.Event] = []
    }
    let events = Events()
    let payloads = try RawCodingDiagnostics.withHandler({ event in
        events.lock.withLock { events.all.append(event) }
    }) {
        try store.setAsidePayloads()
    }
    #expect(payloads.isEmpty)
    let reported = events.lock.withLock { events.all }
    #expect(reported.map(\.kind) == [.readFailed])
    #expect(reported.first?.error.codingPath.first?.stringValue == "stray")
}

@Test(arguments: KeyValueStoreContract.Check.allCases)
func textColumnStoreMeetsTheContract(_ check: KeyValueStoreContract.Check) async throws {
    let table = TextTable(name: UUID().uuidString)
    let contract = KeyValueStoreContract(TextColumnStore(table: table), sameStorage: TextColumnStore(table: table))
    try await contract.run(check)
}

/// Every `swift` block of the store authors' article is a run of lines in this file, so the
/// article shows code that compiles and passes the contract.
@Test func theArticleShowsTheTestedStore() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let article = try String(
        contentsOf: root.appendingPathComponent("Sources/RawCodingStores/Documentation.docc/WritingAStore.md"),
        encoding: .utf8)
    let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    let sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
    }
    let blocks = article.components(separatedBy: "```swift\n").dropFirst().map {
        $0.components(separatedBy: "\n```")[0]
    }
    #expect(blocks.count == 5)
    for block in blocks {
        let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let found = sourceLines.indices.contains { start in
            start + lines.count <= sourceLines.count && Array(sourceLines[start..<start + lines.count]) == lines
        }
        #expect(found, "this block of WritingAStore.md is not in TextColumnStore.swift:\n\(block)")
    }
}
