// The code RawCodable replaces, as apps paste it, with Foundation alone: it writes a value into
// a `UserDefaults` suite on disk, or reads one back, in the form its snippet uses. The store
// tests run it as a child process, so the data the library reads was written by that code.
//
//     SnippetProbe write SUITE FORM KEY CASE   writes CASE's first value
//     SnippetProbe read SUITE FORM KEY CASE    reads, prints "read first", "read second" or why not
//
// FORM: app-storage (the `RawCodable` wrapper `@AppStorage` stores: JSON text),
// defaults (sindresorhus/Defaults: JSON text with sorted keys; arrays and dictionaries of it),
// plist-data, xml-plist-data (`PropertyListEncoder` into a `Data` value),
// native (a `[String: Any]` dictionary made by hand, as `UserDefaults.set` takes it).
import Foundation

struct Book: Codable, Equatable {
    var title: String
    var pages: Int
    var published: Date
    var link: URL?
}

enum Theme: String, Codable {
    case light, dark
}

/// The `RawCodable` snippet: a `Codable` value as `RawRepresentable` with a `String` raw value.
struct RawCodable<Value: Codable>: RawRepresentable {
    var value: Value
    init(_ value: Value) { self.value = value }
    init?(rawValue: String) {
        guard let value = try? JSONDecoder().decode(Value.self, from: Data(rawValue.utf8)) else { return nil }
        self.value = value
    }
    var rawValue: String {
        guard let data = try? JSONEncoder().encode(value) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Defaults' `CodableBridge`: JSON text, keys sorted.
enum DefaultsBridge {
    static func serialize<Value: Codable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func deserialize<Value: Codable>(_ object: Any?, as type: Value.Type) -> Value? {
        guard let text = object as? String else { return nil }
        return try? JSONDecoder().decode(Value.self, from: Data(text.utf8))
    }
}

/// One value type and its two values, in each form.
struct Case<Value: Codable & Equatable> {
    let first: Value
    let second: Value

    func write(_ form: String, _ key: String, _ defaults: UserDefaults) throws {
        switch form {
        case "app-storage":
            defaults.set(RawCodable(first).rawValue, forKey: key)
        case "defaults":
            defaults.set(try defaultsObject(first), forKey: key)
        case "plist-data":
            defaults.set(try PropertyListEncoder().encode(first), forKey: key)
        case "xml-plist-data":
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .xml
            defaults.set(try encoder.encode(first), forKey: key)
        case "native":
            guard let book = first as? Book else { throw Failure("the native snippet stores a Book") }
            defaults.set(dictionary(book), forKey: key)
        default:
            throw Failure("unknown form \(form)")
        }
    }

    /// Defaults' bridges: `ArrayBridge` and `DictionaryBridge` serialize each element.
    func defaultsObject(_ value: Value) throws -> Any {
        if let books = value as? [Book] { return try books.map(DefaultsBridge.serialize) }
        if let shelf = value as? [String: Book] { return try shelf.mapValues(DefaultsBridge.serialize) }
        return try DefaultsBridge.serialize(value)
    }

    func read(_ form: String, _ key: String, _ defaults: UserDefaults) -> Value? {
        switch form {
        case "app-storage":
            return defaults.string(forKey: key).flatMap { RawCodable<Value>(rawValue: $0)?.value }
        case "defaults":
            let object = defaults.object(forKey: key)
            if Value.self == [Book].self, let texts = object as? [Any] {
                return texts.compactMap { DefaultsBridge.deserialize($0, as: Book.self) } as? Value
            }
            if Value.self == [String: Book].self, let texts = object as? [String: Any] {
                return texts.compactMapValues { DefaultsBridge.deserialize($0, as: Book.self) } as? Value
            }
            return DefaultsBridge.deserialize(object, as: Value.self)
        case "plist-data", "xml-plist-data":
            return defaults.data(forKey: key).flatMap { try? PropertyListDecoder().decode(Value.self, from: $0) }
        case "native":
            return defaults.dictionary(forKey: key).flatMap(book(from:)) as? Value
        default:
            return nil
        }
    }

    func run(_ command: String, _ form: String, _ key: String, _ defaults: UserDefaults) throws {
        if command == "write" {
            try write(form, key, defaults)
            guard defaults.synchronize() else { throw Failure("synchronize() failed") }
            print("wrote")
        } else {
            let value = read(form, key, defaults)
            print(value == first ? "read first" : value == second ? "read second" : "read \(String(describing: value))")
        }
    }
}

/// The `[String: Any]` snippet: a model kept as a dictionary of property-list objects by hand.
func dictionary(_ book: Book) -> [String: Any] {
    var dictionary: [String: Any] = ["title": book.title, "pages": book.pages, "published": book.published]
    if let link = book.link { dictionary["link"] = link.absoluteString }
    return dictionary
}

func book(from dictionary: [String: Any]) -> Book? {
    guard let title = dictionary["title"] as? String, let pages = dictionary["pages"] as? Int,
        let published = dictionary["published"] as? Date
    else { return nil }
    return Book(
        title: title, pages: pages, published: published, link: (dictionary["link"] as? String).flatMap(URL.init))
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let moby = Book(
    title: "Moby-Dick", pages: 635, published: Date(timeIntervalSince1970: -3_730_000_000),
    link: URL(string: "https://example.com/books/moby-dick?edition=1"))
let emma = Book(
    title: "Emma", pages: 474, published: Date(timeIntervalSince1970: -4_920_000_000),
    link: URL(string: "https://example.com/books/emma"))

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 5, ["write", "read"].contains(arguments[0]),
    let defaults = UserDefaults(suiteName: arguments[1])
else {
    print("usage: SnippetProbe write|read SUITE FORM KEY CASE")
    exit(2)
}
let (command, form, key) = (arguments[0], arguments[2], arguments[3])
do {
    switch arguments[4] {
    case "book": try Case(first: moby, second: emma).run(command, form, key, defaults)
    case "optional-book": try Case<Book?>(first: moby, second: emma).run(command, form, key, defaults)
    case "theme": try Case(first: Theme.dark, second: Theme.light).run(command, form, key, defaults)
    case "url":
        try Case(first: URL(string: "https://example.com/a?b=c")!, second: URL(string: "file:///tmp/x")!)
            .run(command, form, key, defaults)
    case "count": try Case(first: 42, second: 7).run(command, form, key, defaults)
    case "books": try Case(first: [moby, emma], second: [emma]).run(command, form, key, defaults)
    case "shelf": try Case(first: ["a": moby, "b": emma], second: ["c": emma]).run(command, form, key, defaults)
    default: throw Failure("unknown case \(arguments[4])")
    }
} catch {
    print("failed: \(error)")
    exit(1)
}
