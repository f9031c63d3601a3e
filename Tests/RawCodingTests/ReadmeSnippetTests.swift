import Foundation
import Testing

/// Every `swift` block of the README compiles on its own, as a reader would paste it: Swift
/// files are type-checked against the modules this build made, the installation block is
/// evaluated by SwiftPM as a whole `Package.swift`, and the SwiftUI block, on a system without
/// SwiftUI, against a stand-in declaring only what it uses.
@Suite("README snippets")
struct ReadmeSnippetTests {
    struct Snippet: CustomTestStringConvertible, Sendable {
        var line: Int
        var code: String

        var isManifest: Bool { code.hasPrefix("// swift-tools-version:") }
        var usesSwiftUI: Bool { code.contains("import SwiftUI") }
        var testDescription: String { "README.md line \(line)" }
    }

    /// The README's ```swift blocks, each with the line its code starts on.
    static func snippets() throws -> [Snippet] {
        var snippets: [Snippet] = []
        var current: (line: Int, lines: [String])?
        let readme = try PackagePaths.text("README.md")
        for (index, line) in readme.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if current == nil, line == "```swift" {
                current = (index + 2, [])
            } else if let open = current, line == "```" {
                snippets.append(Snippet(line: open.line, code: open.lines.joined(separator: "\n") + "\n"))
                current = nil
            } else if current != nil {
                current?.lines.append(String(line))
            }
        }
        return snippets
    }

    /// The folder of the modules the package's targets were built into.
    static let modules = PackagePaths.products.appendingPathComponent("Modules")

    static func tool(_ name: String) throws -> URL {
        try #require(ChildProcess.onPath(name), "\(name) is not on PATH: the README's snippets are compiled with it")
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func theReadmeHasItsSnippets() throws {
        let snippets = try Self.snippets()
        #expect(snippets.count >= 6, "found \(snippets.count) swift blocks in README.md")
        #expect(snippets.contains { $0.isManifest }, "no installation block starting with swift-tools-version")
        #expect(snippets.contains { $0.usesSwiftUI }, "no SwiftUI block")
    }

    @Test(arguments: try snippets().filter { !$0.isManifest })
    func compilesOnItsOwn(_ snippet: Snippet) throws {
        let directory = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("main.swift")
        try Data(snippet.code.utf8).write(to: source)
        var arguments = ["-typecheck", "-swift-version", "6", "-I", Self.modules.path]
        #if !canImport(SwiftUI)
            if snippet.usesSwiftUI {
                arguments += ["-I", try Self.swiftUIStandIn(in: directory).path]
            }
        #endif
        let result = try ChildProcess.run(try Self.tool("swiftc"), arguments + [source.path], timeout: 300)
        #expect(
            result.status == 0,
            "README.md line \(snippet.line): the snippet does not compile alone:\n\(result.errors)\(result.output)")
    }

    /// The installation block is a whole manifest: SwiftPM evaluates it (without fetching
    /// anything), names only this package's products, and asks for the `main` branch.
    @Test func theInstallationBlockIsAManifestThatNamesRealProducts() throws {
        let snippet = try #require(try Self.snippets().first { $0.isManifest })
        let directory = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(snippet.code.utf8).write(to: directory.appendingPathComponent("Package.swift"))
        let result = try ChildProcess.run(
            try Self.tool("swift"), ["package", "--package-path", directory.path, "dump-package"], timeout: 300)
        try #require(result.status == 0, "swift package dump-package failed:\n\(result.errors)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        let dependency = try #require((manifest["dependencies"] as? [[String: Any]])?.first)
        let sourceControl = try #require((dependency["sourceControl"] as? [[String: Any]])?.first)
        let requirement = try #require(sourceControl["requirement"] as? [String: Any])
        #expect(requirement["branch"] as? [String] == ["main"], "\(requirement)")

        let ours = try PackagePaths.text("Package.swift")
        let declared = Set(try TextPattern.captures(#"\.(?:library|executable)\(\s*name:\s*"([^"]+)""#, in: ours))
        let named = try TextPattern.captures(
            #"\.product\(name:\s*"([^"]+)",\s*package:\s*"RawCodable"\)"#, in: snippet.code)
        #expect(!named.isEmpty)
        for product in named {
            #expect(
                declared.contains(product),
                "the installation block names \(product), which Package.swift does not declare")
        }
    }

    /// What a new user does with the installation block: SwiftPM resolves it against a clone of
    /// this repository holding no tags (as a fresh clone of `main` holds none), with the URL
    /// pointed at that clone. A version requirement (`from:`) fails there, "no versions match".
    @Test(.enabled(if: ReadmeSnippetTests.isGitRepository, "the package is not a git clone: nothing to clone from"))
    func theInstallationBlockResolvesAgainstACloneWithoutTags() throws {
        let snippet = try #require(try Self.snippets().first { $0.isManifest })
        let url = try #require(try TextPattern.captures(#"\.package\(url: "([^"]+)""#, in: snippet.code).first)
        let directory = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The folder's name is the URL's last part: SwiftPM names the package after it.
        let clone = directory.appendingPathComponent("RawCodable")
        let git = try Self.tool("git")
        for arguments in [
            ["clone", "--quiet", "--no-tags", PackagePaths.root.path, clone.path],
            // `main` at the commit under test, whatever branch (or none) the package's clone is on.
            ["-C", clone.path, "checkout", "--quiet", "-B", "main"],
            ["-C", clone.path, "tag", "--list"],
        ] {
            let run = try ChildProcess.run(git, arguments, timeout: 120)
            try #require(run.status == 0, "git \(arguments.joined(separator: " ")):\n\(run.errors)")
            if arguments.contains("--list") { try #require(run.output.isEmpty, "the clone holds tags: \(run.output)") }
        }
        let app = directory.appendingPathComponent("MyApp")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        let manifest = snippet.code.replacingOccurrences(of: url, with: clone.absoluteString)
        try Data(manifest.utf8).write(to: app.appendingPathComponent("Package.swift"))
        let result = try ChildProcess.run(
            try Self.tool("swift"),
            [
                "package", "--package-path", app.path, "--cache-path", directory.appendingPathComponent("cache").path,
                "resolve",
            ], timeout: 300)
        try #require(result.status == 0, "swift package resolve failed:\n\(result.errors)\(result.output)")
        let resolved = try String(contentsOf: app.appendingPathComponent("Package.resolved"), encoding: .utf8)
        #expect(resolved.contains(#""identity" : "rawcodable""#), "\(resolved)")
        #expect(resolved.contains(#""branch" : "main""#), "\(resolved)")
    }

    /// Whether the package's folder is a git work tree (CI's clone is).
    static let isGitRepository = FileManager.default.fileExists(
        atPath: PackagePaths.root.appendingPathComponent(".git").path)

    /// A module named SwiftUI declaring just what the README's SwiftUI block uses, with
    /// SwiftUI's shapes: `@AppStorage` of a `String`-backed `RawRepresentable` projecting a
    /// `Binding`, which reaches into its value through writable key paths.
    static func swiftUIStandIn(in directory: URL) throws -> URL {
        let folder = directory.appendingPathComponent("SwiftUIStandIn")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = folder.appendingPathComponent("SwiftUI.swift")
        try Data(
            """
            @MainActor @preconcurrency public protocol View {
                associatedtype Body: View
                @MainActor var body: Body { get }
            }
            extension Never: View {
                public var body: Never { fatalError() }
            }
            public protocol DynamicProperty {}
            @propertyWrapper @dynamicMemberLookup public struct Binding<Value> {
                public var wrappedValue: Value { get { fatalError() } nonmutating set {} }
                public var projectedValue: Binding<Value> { self }
                public init(get: @escaping @Sendable () -> Value, set: @escaping @Sendable (Value) -> Void) {}
                public subscript<T>(dynamicMember keyPath: WritableKeyPath<Value, T>) -> Binding<T> { fatalError() }
            }
            @propertyWrapper public struct AppStorage<Value>: DynamicProperty {
                public var wrappedValue: Value { get { fatalError() } nonmutating set {} }
                public var projectedValue: Binding<Value> { fatalError() }
                public init(wrappedValue: Value, _ key: String) where Value: RawRepresentable, Value.RawValue == String {
                    fatalError()
                }
            }
            public struct Text: View {
                public var body: Never { fatalError() }
            }
            public struct Stepper<Label: View>: View {
                public var body: Never { fatalError() }
                public init<V: Strideable>(_ title: String, value: Binding<V>) where Label == Text { fatalError() }
            }

            """.utf8
        ).write(to: source)
        let result = try ChildProcess.run(
            try tool("swiftc"),
            [
                "-emit-module", "-parse-as-library", "-swift-version", "6", "-module-name", "SwiftUI",
                "-emit-module-path", folder.appendingPathComponent("SwiftUI.swiftmodule").path, source.path,
            ], timeout: 300)
        try #require(result.status == 0, "the SwiftUI stand-in does not compile:\n\(result.errors)")
        return folder
    }
}

/// One version everywhere: CHANGELOG's newest release is the source; the tool's `--version`
/// and the README's note on pinning a release say the same.
@Suite("One version")
struct ProjectVersionTests {
    @Test func theToolTheReadmeAndTheChangelogAgree() throws {
        let newest = try #require(try ProjectVersion.newestRelease(), "CHANGELOG.md has no released version")
        let result = try ChildProcess.run(try ChildProcess.product("rawcoding"), ["--version"])
        #expect(result.output == "rawcoding \(newest)\n")
        let text = try PackagePaths.text("README.md")
        #expect(text.contains("the newest is \(newest),"))
        let pinned = try TextPattern.captures(#"`from: "([^"]+)"` pins a release"#, in: text)
        #expect(pinned == [newest], "README pins \(pinned), CHANGELOG's newest release is \(newest)")
    }
}

enum ProjectVersion {
    /// The newest `## [x.y.z] - date` heading of CHANGELOG.md.
    static func newestRelease() throws -> String? {
        try TextPattern.captures(
            #"(?m)^## \[([0-9]+\.[0-9]+\.[0-9]+)\] - [0-9]{4}-[0-9]{2}-[0-9]{2}$"#,
            in: PackagePaths.text("CHANGELOG.md")
        ).first
    }
}

/// `.spi.yml` names only what exists: each documentation target has a DocC catalog, and each
/// scheme or target it builds is a target of `Package.swift` that needs no libpq.
@Suite("Swift Package Index configuration")
struct PackageIndexConfigurationTests {
    @Test func everyNameInSpiYmlExists() throws {
        let root = PackagePaths.root
        let configuration = try PackagePaths.text(".spi.yml")
        let documented = try TextPattern.captures(#"documentation_targets: \[([^\]]*)\]"#, in: configuration)
            .flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        #expect(documented.contains("RawCoding"))
        for target in documented {
            let catalog = root.appendingPathComponent("Sources/\(target)/Documentation.docc/\(target).md")
            #expect(FileManager.default.fileExists(atPath: catalog.path), "\(target) has no catalog at \(catalog.path)")
        }
        let built = try TextPattern.captures(#"(?m)^\s+(?:scheme|target): (\S+)$"#, in: configuration)
        #expect(!built.isEmpty)
        for target in Set(built) {
            #expect(
                FileManager.default.fileExists(atPath: root.appendingPathComponent("Sources/\(target)").path),
                "\(target) is not a target")
            #expect(target != "RawCodingPostgres" && target != "CLibPQ", "the index's builders have no libpq")
        }
    }
}
