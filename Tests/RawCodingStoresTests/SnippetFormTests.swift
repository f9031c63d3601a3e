import Foundation
import RawCoding
import RawCodingStores
import Testing

/// The data the replaced snippets wrote, read through the stores. `SnippetProbe` (the
/// snippets' own code, Foundation alone) writes each value into a `UserDefaults` suite on disk
/// from another process; `@Stored` with the same `Value` type reads it exactly without changing
/// the file; with ``StoredWriting/formFound`` the snippet reads what the library wrote; without
/// it, the native form is written and the original set aside.
@Suite struct SnippetFormTests {
    struct Book: Codable, Equatable, Sendable {
        var title: String
        var pages: Int
        var published: Date
        var link: URL?
    }

    enum Theme: String, Codable, Sendable {
        case light, dark
    }

    static let moby = Book(
        title: "Moby-Dick", pages: 635, published: Date(timeIntervalSince1970: -3_730_000_000),
        link: URL(string: "https://example.com/books/moby-dick?edition=1"))
    static let emma = Book(
        title: "Emma", pages: 474, published: Date(timeIntervalSince1970: -4_920_000_000),
        link: URL(string: "https://example.com/books/emma"))
    static let placeholder = Book(title: "", pages: 0, published: Date(timeIntervalSince1970: 0), link: nil)

    /// The snippet's form, as `SnippetProbe` names it, and the ``StoredForm`` it is read as.
    static let forms: [(probe: String, form: StoredForm)] = [
        ("app-storage", .jsonText), ("defaults", .jsonText), ("plist-data", .propertyListData),
        ("xml-plist-data", .xmlPropertyListData),
    ]

    @Test(arguments: forms.map(\.probe))
    func aStructWrittenBySnippetReadsExactly(_ form: String) throws {
        try check(form, "book", first: Self.moby, second: Self.emma, placeholder: Self.placeholder)
    }

    /// A `[String: Any]` dictionary made by hand is the native form: read as it is, and written
    /// back in it, with nothing set aside.
    @Test func aStructWrittenAsADictionaryByHandReadsExactly() throws {
        try check("native", "book", first: Self.moby, second: Self.emma, placeholder: Self.placeholder)
    }

    @Test(arguments: forms.map(\.probe))
    func anOptionalStructWrittenBySnippetReadsExactly(_ form: String) throws {
        try check(form, "optional-book", first: Self.moby as Book?, second: Self.emma, placeholder: nil)
    }

    /// `PropertyListEncoder` refuses a top-level scalar ("Top-level Theme encoded as string
    /// property list fragment"), so only the JSON snippets store one.
    static let textForms = ["app-storage", "defaults"]

    @Test(arguments: textForms)
    func anEnumWrittenBySnippetReadsExactly(_ form: String) throws {
        try check(form, "theme", first: Theme.dark, second: .light, placeholder: .light)
    }

    @Test(arguments: forms.map(\.probe))
    func aURLWrittenBySnippetReadsExactly(_ form: String) throws {
        try check(
            form, "url", first: try #require(URL(string: "https://example.com/a?b=c")),
            second: try #require(URL(string: "file:///tmp/x")), placeholder: try #require(URL(string: "about:blank")))
    }

    @Test(arguments: textForms)
    func aNumberWrittenBySnippetReadsExactly(_ form: String) throws {
        try check(form, "count", first: 42, second: 7, placeholder: 0)
    }

    /// Defaults keeps an array or dictionary of `Codable` values as JSON text per element.
    @Test(arguments: forms.map(\.probe))
    func anArrayWrittenBySnippetReadsExactly(_ form: String) throws {
        try check(form, "books", first: [Self.moby, Self.emma], second: [Self.emma], placeholder: [])
    }

    @Test(arguments: forms.map(\.probe))
    func aDictionaryWrittenBySnippetReadsExactly(_ form: String) throws {
        try check(
            form, "shelf", first: ["a": Self.moby, "b": Self.emma], second: ["c": Self.emma], placeholder: [:])
    }

    /// Defaults nests its collections' bridges: an array of arrays, or a dictionary of arrays,
    /// of `Codable` values holds JSON text at the innermost level.
    @Test func nestedCollectionsOfJSONTextRead() throws {
        let store = InMemoryStore()
        let moby =
            #"{"link":"https:\/\/example.com\/books\/moby-dick?edition=1","pages":635,"published":-4708307200,"title":"Moby-Dick"}"#
        try store.write(.array([.array([.string(moby)])]), forKey: "nested")
        try store.write(.dictionary(["a": .array([.string(moby)])]), forKey: "shelves")
        #expect(try store.value([[Book]].self, forKey: "nested") == [[Self.moby]])
        #expect(try store.value([String: [Book]].self, forKey: "shelves") == ["a": [Self.moby]])
    }

    /// A `String` holding JSON text stays that text: it decodes as a string, natively.
    @Test func aStringHoldingJSONTextStaysAString() throws {
        let store = InMemoryStore()
        try store.write(.string("{\"title\":\"Emma\"}"), forKey: "note")
        try store.write(.string("\"dark\""), forKey: "quoted")
        #expect(try store.value(String.self, forKey: "note") == "{\"title\":\"Emma\"}")
        #expect(try store.value(String.self, forKey: "quoted") == "\"dark\"")
        #expect(try store.value(Theme.self, forKey: "quoted") == .dark)
        let note = Stored(wrappedValue: "", "note", store: store).projectedValue
        #expect(note.value == "{\"title\":\"Emma\"}")
    }

    /// Text that is not JSON, for a type that is not a string, is the native form's error; a
    /// JSON container that does not decode is the JSON decode's error, with its path.
    @Test func aStringThatIsNotTheValueSaysWhy() throws {
        let store = InMemoryStore()
        try store.write(.string("not json"), forKey: "count")
        try store.write(.string("{\"title\":\"Emma\"}"), forKey: "book")
        let count = #expect(throws: RawCodingError.self) { try store.value(Int.self, forKey: "count") }
        #expect(count?.codingPath.map(\.stringValue) == ["count"])
        let book = #expect(throws: RawCodingError.self) { try store.value(Book.self, forKey: "book") }
        #expect(book?.description.contains("pages") == true, "\(String(describing: book))")
        // Nothing was written by the reads.
        #expect(try store.read(forKey: "book") == .string("{\"title\":\"Emma\"}"))
    }

    /// `update` keeps the form it found; `set` in the native form sets the original aside.
    @Test func updateKeepsTheFormAndSetMovesToNative() throws {
        let store = InMemoryStore()
        try store.write(.string("{\"pages\":1,\"published\":0,\"title\":\"Emma\"}"), forKey: "book")
        try store.update(Book.self, forKey: "book", defaultValue: Self.placeholder) { $0.pages = 2 }
        #expect(try store.read(forKey: "book")?.stringValue?.contains("\"pages\":2") == true)
        #expect(try store.setAsidePayloads().isEmpty)
        try store.set(Self.emma, forKey: "book")
        #expect(try store.read(forKey: "book")?["title"] == "Emma")
        let aside = try store.setAsidePayloads()
        #expect(aside.count == 1)
        #expect(aside.first?.content == .tree(.string("{\"pages\":2,\"published\":0,\"title\":\"Emma\"}")))
        #expect(throws: RawCodingError.self) {
            try store.set(42, forKey: "other", writing: .always(.jsonTextElements))
        }
        #expect(try store.read(forKey: "other") == nil)
    }

    // MARK: The check

    private func check<Value: Codable & Equatable & Sendable>(
        _ form: String, _ name: String, first: Value, second: Value, placeholder: Value,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let suite = "RawCodingSnippetTests.\(UUID().uuidString)"
        let file = Self.suiteFile(suite)
        defer {
            UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite)
            try? FileManager.default.removeItem(at: file)
        }
        // Both keys are written before this process loads the suite: Linux's `UserDefaults`
        // does not see another process's later writes.
        for key in ["kept", "moved"] {
            let wrote = try Probe(["write", suite, form, key, name], executable: "SnippetProbe").finish()
            try #require(wrote.output == "wrote\n", "\(form) \(name): \(wrote.output)", sourceLocation: sourceLocation)
        }
        let before = try Data(contentsOf: file)
        let store = UserDefaultsStore(suiteName: suite)

        let kept = Stored(wrappedValue: placeholder, "kept", store: store, writing: .formFound).projectedValue
        #expect(
            kept.value == first, "\(form) \(name): \(String(describing: kept.error))", sourceLocation: sourceLocation)
        #expect(kept.error == nil, sourceLocation: sourceLocation)
        #expect(
            try store.value(Value.self, forKey: "kept") == first, "\(form) \(name)", sourceLocation: sourceLocation)
        #expect(
            try Data(contentsOf: file) == before, "\(form) \(name): reading changed the file",
            sourceLocation: sourceLocation)

        try kept.set(second)
        let readKept = try Probe(["read", suite, form, "kept", name], executable: "SnippetProbe").finish()
        #expect(readKept.output == "read second\n", "\(form) \(name)", sourceLocation: sourceLocation)

        let moved = Stored(wrappedValue: placeholder, "moved", store: store).projectedValue
        #expect(moved.value == first, "\(form) \(name)", sourceLocation: sourceLocation)
        let original = try #require(try store.read(forKey: "moved"), sourceLocation: sourceLocation)
        try moved.set(second)
        #expect(try store.value(Value.self, forKey: "moved") == second, sourceLocation: sourceLocation)
        #expect(
            try store.read(forKey: "moved") == (try store.codec.encodeStoredTree(second)),
            sourceLocation: sourceLocation)
        let aside = try store.setAsidePayloads().filter { $0.key == "moved" }
        // The native form is not replaced, so nothing is set aside; any other form is.
        let expected: [SetAsidePayload.Content] = form == "native" ? [] : [.tree(original)]
        #expect(aside.map(\.content) == expected, "\(form) \(name)", sourceLocation: sourceLocation)
        #expect(try store.setAsidePayloads().filter { $0.key == "kept" }.isEmpty, sourceLocation: sourceLocation)
    }

    /// Where Foundation keeps a suite's file: `~/.config/SUITE.plist` outside Apple systems.
    static func suiteFile(_ suite: String) -> URL {
        #if canImport(Darwin)
            return FileManager.default.homeDirectoryForCurrentUser
                .appendingPathComponent("Library/Preferences/\(suite).plist")
        #else
            let config =
                ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
                ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
            return config.appendingPathComponent("\(suite).plist")
        #endif
    }
}
