// Prints the public API of modules as text, one declaration or conformance per line, from the
// symbol graphs `swift package dump-symbol-graph --minimum-access-level public` writes.
//
//     swiftc -O Scripts/api-listing.swift -o api-listing
//     api-listing SYMBOL_GRAPH_DIR OUTPUT_DIR MODULE...
//
// writes OUTPUT_DIR/MODULE.txt for each module: its own symbol graph and those of its
// extensions to other modules (MODULE@Other.symbols.json). `.ci/run` compares the result with
// the committed baseline in `.ci/api/`; `Scripts/api-baseline.sh` rewrites the baseline.
// Members the compiler synthesizes from other modules' protocol extensions are left out (the
// conformance that brings them is listed).
import Foundation

struct SymbolGraph: Decodable {
    struct Symbol: Decodable {
        struct Kind: Decodable { var identifier: String }
        struct Identifier: Decodable { var precise: String }
        struct Fragment: Decodable { var spelling: String }
        struct Version: Decodable {
            var major: Int
            var minor: Int?
            var patch: Int?
            var text: String { [major, minor, patch].compactMap { $0 }.map(String.init).joined(separator: ".") }
        }
        struct Availability: Decodable {
            var domain: String?
            var introduced: Version?
            var deprecated: Version?
            var obsoleted: Version?
            var message: String?
            var renamed: String?
            var isUnconditionallyDeprecated: Bool?
            var isUnconditionallyUnavailable: Bool?

            var text: String {
                var parts = [domain ?? "*"]
                if let introduced { parts.append("introduced \(introduced.text)") }
                if let deprecated { parts.append("deprecated \(deprecated.text)") }
                if isUnconditionallyDeprecated == true { parts.append("deprecated") }
                if let obsoleted { parts.append("obsoleted \(obsoleted.text)") }
                if isUnconditionallyUnavailable == true { parts.append("unavailable") }
                if let renamed { parts.append("renamed \(renamed)") }
                if let message { parts.append("\"\(message)\"") }
                return parts.joined(separator: " ")
            }
        }

        var kind: Kind
        var identifier: Identifier
        var pathComponents: [String]
        var declarationFragments: [Fragment]?
        var availability: [Availability]?
        var accessLevel: String
    }

    struct Relationship: Decodable {
        var kind: String
        var source: String
        var target: String
        var targetFallback: String?
    }

    var symbols: [Symbol]
    var relationships: [Relationship]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("api-listing: \(message)\n".utf8))
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3 else { fail("usage: api-listing SYMBOL_GRAPH_DIR OUTPUT_DIR MODULE...") }
let graphs = URL(fileURLWithPath: arguments[0])
let output = URL(fileURLWithPath: arguments[1])
do {
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
} catch {
    fail("cannot create \(output.path): \(error)")
}
let files: [String]
do {
    files = try FileManager.default.contentsOfDirectory(atPath: graphs.path)
} catch {
    fail("cannot list \(graphs.path): \(error)")
}

for module in arguments.dropFirst(2) {
    let names = files.filter { $0 == "\(module).symbols.json" || $0.hasPrefix("\(module)@") }.sorted()
    guard names.contains("\(module).symbols.json") else { fail("no symbol graph for \(module) in \(graphs.path)") }
    var loaded: [SymbolGraph] = []
    for name in names {
        do {
            let data = try Data(contentsOf: graphs.appendingPathComponent(name))
            loaded.append(try JSONDecoder().decode(SymbolGraph.self, from: data))
        } catch {
            fail("cannot read \(name): \(error)")
        }
    }
    var paths: [String: String] = [:]
    for graph in loaded {
        for symbol in graph.symbols { paths[symbol.identifier.precise] = symbol.pathComponents.joined(separator: ".") }
    }
    var lines = Set<String>()
    for graph in loaded {
        for symbol in graph.symbols
        where ["public", "open"].contains(symbol.accessLevel) && !symbol.identifier.precise.contains("::SYNTHESIZED::")
        {
            let path = symbol.pathComponents.joined(separator: ".")
            let declaration = (symbol.declarationFragments ?? []).map(\.spelling).joined()
                .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(
                    separator: " ")
            var line = "\(path): \(declaration)"
            let availability = (symbol.availability ?? []).map(\.text).sorted()
            if !availability.isEmpty { line += "  @available(\(availability.joined(separator: "; ")))" }
            lines.insert(line)
        }
        for relationship in graph.relationships where relationship.kind == "conformsTo" {
            guard let source = paths[relationship.source] else { continue }
            let target = paths[relationship.target] ?? relationship.targetFallback ?? relationship.target
            lines.insert("\(source): conforms to \(target)")
        }
    }
    let text = lines.sorted().joined(separator: "\n") + "\n"
    do {
        try Data(text.utf8).write(to: output.appendingPathComponent("\(module).txt"))
    } catch {
        fail("cannot write \(module).txt: \(error)")
    }
}
