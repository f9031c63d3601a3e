import Foundation
import Testing

/// The Swift version the package says it needs is the one it declares and the one its code
/// needs: `Package.swift`'s tools version, the README's "Needs a Swift N or later toolchain",
/// and no language or standard-library feature newer than N in `Sources` unless guarded by
/// `#if compiler(>=…)`.
@Suite("Toolchain floor")
struct ToolchainFloorTests {
    /// Features newer than 6.0 that a Linux build with a newer compiler would accept silently,
    /// with the compiler version that introduced each.
    static let newerFeatures: [(spelling: String, version: SwiftVersion)] = [
        ("TestScoping", SwiftVersion(6, 1)),
        ("SendableMetatype", SwiftVersion(6, 2)),
        ("InlineArray", SwiftVersion(6, 2)),
        ("RawSpan", SwiftVersion(6, 2)),
        ("MutableSpan", SwiftVersion(6, 2)),
        ("UTF8Span", SwiftVersion(6, 2)),
        ("nonisolated(nonsending)", SwiftVersion(6, 2)),
        ("@concurrent", SwiftVersion(6, 2)),
        ("weak let ", SwiftVersion(6, 2)),
        ("Task.immediate", SwiftVersion(6, 2)),
    ]

    struct SwiftVersion: Comparable, CustomStringConvertible {
        var major: Int
        var minor: Int

        init(_ major: Int, _ minor: Int) {
            self.major = major
            self.minor = minor
        }

        /// "6.2" or "6.2.1" (the patch is ignored).
        init?(_ text: some StringProtocol) {
            let parts = text.split(separator: ".").map { Int($0) }
            guard parts.count >= 2, let major = parts[0], let minor = parts[1] else { return nil }
            self.init(major, minor)
        }

        var description: String { "\(major).\(minor)" }

        static func < (lhs: Self, rhs: Self) -> Bool { (lhs.major, lhs.minor) < (rhs.major, rhs.minor) }
    }

    static func toolsVersion() throws -> SwiftVersion? {
        try TextPattern.captures(#"^// swift-tools-version: ?([0-9.]+)"#, in: try PackagePaths.text("Package.swift"))
            .first
            .flatMap(SwiftVersion.init)
    }

    @Test func theReadmeStatesTheToolsVersionOfPackageSwift() throws {
        let tools = try #require(try Self.toolsVersion(), "Package.swift has no swift-tools-version line")
        let readme = try PackagePaths.text("README.md").replacingOccurrences(of: "\n", with: " ")
        let needs = try #require(
            try TextPattern.captures(#"Needs a Swift ([0-9.]+) or later toolchain"#, in: readme).first
                .flatMap(SwiftVersion.init),
            "the README says no \"Needs a Swift N or later toolchain\"")
        let declares = try #require(
            try TextPattern.captures(#"declares tools ([0-9.]+)"#, in: readme).first.flatMap(SwiftVersion.init),
            "the README says no \"declares tools N\"")
        #expect(needs == tools, "README needs Swift \(needs), Package.swift declares tools \(tools)")
        #expect(declares == tools, "README says tools \(declares), Package.swift declares tools \(tools)")
    }

    @Test func noSourceNeedsANewerCompilerThanTheFloor() throws {
        let floor = try #require(try Self.toolsVersion())
        // Everything but the test targets: the products, examples, support and test helpers.
        var files: [URL] = []
        for folder in ["Sources", "Tests/Helpers"] {
            let root = PackagePaths.root.appendingPathComponent(folder)
            let found = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
            files += found.compactMap { $0 as? URL }
        }
        var checked = 0
        for file in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            checked += 1
            for feature in Self.newerFeatures where feature.version > floor && text.contains(feature.spelling) {
                let guardLine = "#if compiler(>=\(feature.version))"
                #expect(
                    text.contains(guardLine),
                    """
                    \(file.lastPathComponent) uses \(feature.spelling) (Swift \(feature.version)) but the floor \
                    is \(floor): raise it (Package.swift and README) or guard it with \(guardLine)
                    """)
            }
        }
        #expect(checked > 50, "only \(checked) Swift files found under Sources and Tests/Helpers")
    }
}
