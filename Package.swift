// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "RawCodable",
    // Apple systems that have SwiftUI's @AppStorage; Linux needs no entry.
    platforms: [.macOS(.v11), .iOS(.v14), .tvOS(.v14), .watchOS(.v7), .visionOS(.v1)],
    products: [
        .library(name: "RawCoding", targets: ["RawCoding"]),
        .library(name: "RawCodingStores", targets: ["RawCodingStores"]),
        .library(name: "RawCodingStoresApple", targets: ["RawCodingStoresApple"]),
        .library(name: "RawCodingTesting", targets: ["RawCodingTesting"]),
        .library(name: "RawCodingSQLite", targets: ["RawCodingSQLite"]),
        .library(name: "RawCodingPostgres", targets: ["RawCodingPostgres"]),
        .executable(name: "rawcoding", targets: ["rawcoding"]),
    ],
    targets: [
        // MARK: The products (`Sources/`)
        .target(name: "RawCoding"),
        // Key-value stores, `@Stored`, change streams and the store contract.
        .target(name: "RawCodingStores", dependencies: ["RawCoding"]),
        // Apple only (the iCloud adapter, SwiftUI's `StoredState`); empty elsewhere and never
        // compiled on the Linux machines that build and test this package, so kept thin, in its
        // own product, where a mistake cannot break RawCoding or RawCodingStores.
        .target(name: "RawCodingStoresApple", dependencies: ["RawCoding", "RawCodingStores"]),
        // A store in one SQLite database file. Apple SDKs ship SQLite as the `SQLite3` module;
        // elsewhere it is the system library (`libsqlite3-dev`), only compiled for this product.
        .target(
            name: "RawCodingSQLite",
            dependencies: [
                "RawCoding", "RawCodingStores", .target(name: "CSQLite", condition: .when(platforms: [.linux])),
            ]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // A store in a PostgreSQL table, for servers: over libpq (`libpq-dev`; Homebrew's
        // `libpq` on macOS), only compiled for this product.
        .target(name: "RawCodingPostgres", dependencies: ["RawCoding", "RawCodingStores", "CLibPQ"]),
        .systemLibrary(
            name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        // Fixture round-trip checks for Swift Testing and XCTest (both ship with the toolchain).
        .target(name: "RawCodingTesting", dependencies: ["RawCoding"]),
        // The command-line tool's logic, testable in process; `rawcoding` is its thin `main`.
        .target(name: "RawCodingCommandLine", dependencies: ["RawCoding"]),
        .executableTarget(name: "rawcoding", dependencies: ["RawCodingCommandLine"]),

        // MARK: Examples (`Sources/Examples/`, not products)
        // The snippets this library replaces, as runnable examples (`swift run …`); the store
        // tests run each one.
        .executableTarget(
            name: "SettingsFormExample", dependencies: ["RawCoding", "RawCodingStores"],
            path: "Sources/Examples/SettingsFormExample"),
        .executableTarget(
            name: "DefaultsDictionaryExample", dependencies: ["RawCoding", "RawCodingStores"],
            path: "Sources/Examples/DefaultsDictionaryExample"),
        .executableTarget(
            name: "CloudSettingExample", dependencies: ["RawCoding", "RawCodingStores"],
            path: "Sources/Examples/CloudSettingExample"),

        // MARK: Support (`Sources/Support/`, not products)
        // Timings against Foundation in the same run (`swift run -c release RawCodingBenchmarks`).
        .executableTarget(
            name: "RawCodingBenchmarks",
            dependencies: [
                "RawCoding", "RawCodingStores", "RawCodingSQLite",
                .target(name: "CSQLite", condition: .when(platforms: [.linux])),
                // libpq is for servers: no Apple SDK has it, only Homebrew on a Mac.
                .target(name: "RawCodingPostgres", condition: .when(platforms: [.linux, .macOS])),
                .target(name: "CLibPQ", condition: .when(platforms: [.linux, .macOS])),
            ],
            path: "Sources/Support/RawCodingBenchmarks"),
        // The fuzz targets, compiled with the library into a libFuzzer binary by
        // `Scripts/fuzz.sh`, and replayed on the kept findings by `FuzzRegressionTests`.
        .target(
            name: "RawCodingFuzzTargets", dependencies: ["RawCoding"], path: "Sources/Support/RawCodingFuzzTargets"),

        // MARK: Test helpers (`Tests/Helpers/`): executables the tests run as child processes
        // The naive snippet that crashes, and the same model made safe (the trap tests).
        .executableTarget(name: "TrapDemo", dependencies: ["RawCoding"], path: "Tests/Helpers/TrapDemo"),
        // Writes every codec's output so a test can compare it across TZ and LANG.
        .executableTarget(name: "LocaleProbe", dependencies: ["RawCoding"], path: "Tests/Helpers/LocaleProbe"),
        // Malformed inputs through every reader in a fresh process, printing how resident memory
        // grew (the memory test).
        .executableTarget(
            name: "ReaderSoak", dependencies: ["RawCoding", "RawCodingCommandLine"], path: "Tests/Helpers/ReaderSoak"),
        // Every recursive path on threads with small stacks, one line per case (the stack matrix
        // test, in a child process since a crash must not end the suite).
        .executableTarget(
            name: "StackProbe",
            dependencies: ["RawCoding", "RawCodingStores", "RawCodingCommandLine", "RawCodingFuzzTargets"],
            path: "Tests/Helpers/StackProbe"),
        // The second process of the FileStore and SQLiteStore tests (kills, cross-process updates).
        .executableTarget(
            name: "StoreProbe",
            dependencies: [
                "RawCoding", "RawCodingStores", "RawCodingSQLite",
                .target(name: "RawCodingPostgres", condition: .when(platforms: [.linux, .macOS])),
            ],
            path: "Tests/Helpers/StoreProbe"),
        // The snippets RawCodable replaces, with Foundation alone: writes and reads a suite on
        // disk in their forms (the tests of reading what they wrote).
        .executableTarget(name: "SnippetProbe", path: "Tests/Helpers/SnippetProbe"),

        // MARK: Tests (`Tests/`)
        .testTarget(
            name: "RawCodingTests",
            dependencies: [
                "RawCoding", "RawCodingTesting", "RawCodingCommandLine", "rawcoding", "TrapDemo", "LocaleProbe",
                "ReaderSoak", "RawCodingFuzzTargets", "StackProbe",
            ]
        ),
        .testTarget(
            name: "RawCodingStoresTests",
            dependencies: [
                "RawCoding", "RawCodingStores", "RawCodingSQLite", "RawCodingPostgres", "StoreProbe", "SnippetProbe",
                "SettingsFormExample",
                "DefaultsDictionaryExample", "CloudSettingExample",
                .target(name: "CSQLite", condition: .when(platforms: [.linux])),
            ]
        ),
        // Uses only the public API, as another store's package would: its own store, checked by
        // the public store contract.
        .testTarget(name: "ExternalStoreTests", dependencies: ["RawCoding", "RawCodingStores"]),
        .testTarget(name: "RawCodingTestingTests", dependencies: ["RawCoding", "RawCodingTesting"]),
        // Uses only the public API, as another library would: its own codec with RawCodable,
        // RawCodingTesting and RawCodingError.
        .testTarget(name: "ExternalCodecTests", dependencies: ["RawCoding", "RawCodingTesting"]),
        // swift-foundation's own coder tests (JSONEncoderTests, PropertyListEncoderTests), ported
        // case by case onto the public API: each passes as with Foundation or asserts a kept
        // difference. Reads swift-foundation's resource files from ../shared/peer-suites where
        // present.
        .testTarget(name: "FoundationCoderPortTests", dependencies: ["RawCoding"]),
        // sindresorhus/Defaults' own tests, ported case by case onto UserDefaultsStore, StoredKey,
        // @Stored and the change streams: each passes as with Defaults or asserts a kept difference.
        .testTarget(name: "DefaultsPortTests", dependencies: ["RawCoding", "RawCodingStores"]),
    ]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
