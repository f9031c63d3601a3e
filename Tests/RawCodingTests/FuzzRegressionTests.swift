import Foundation
import RawCodingFuzzTargets
import Testing

/// What the fuzzers found (`Scripts/fuzz.sh`), kept under `Fixtures/FuzzRegressions/<target>/`
/// and replayed through the same targets, without libFuzzer: a fixed bug that returns fails here.
@Suite("Fuzz findings stay fixed")
struct FuzzRegressionTests {
    static let directory = PackagePaths.root.appendingPathComponent("Fixtures/FuzzRegressions")

    /// Every kept input, as "<target>/<file>".
    static let inputs: [String] = {
        let manager = FileManager.default
        var inputs: [String] = []
        for target in (try? manager.contentsOfDirectory(atPath: directory.path)) ?? [] {
            for file in (try? manager.contentsOfDirectory(atPath: directory.appendingPathComponent(target).path)) ?? []
            {
                inputs.append("\(target)/\(file)")
            }
        }
        return inputs.sorted()
    }()

    @Test func theRegressionCorpusIsThere() {
        #expect(Self.inputs.count >= 3, "Fixtures/FuzzRegressions holds \(Self.inputs)")
    }

    @Test(arguments: inputs)
    func keptFindingStaysFixed(_ input: String) throws {
        let target = String(input.prefix { $0 != "/" })
        let run = try #require(FuzzTargets.Target(rawValue: target), "no fuzz target named \(target)")
        let data = try Data(contentsOf: Self.directory.appendingPathComponent(input))
        do {
            // On a 512 KiB thread, as the fuzzer runs them.
            try SmallStackThread.run(run, on: data)
        } catch {
            Issue.record("\(input): \(error)")
        }
    }

    @Test func everyTargetRunsOnEmptyAndTinyInputs() throws {
        for target in FuzzTargets.Target.allCases {
            for input in [Data(), Data([0]), Data("{}".utf8), Data("bplist00".utf8), Data("<plist>".utf8)] {
                do {
                    try target.run(input)
                } catch {
                    Issue.record("\(target.rawValue) on \(input as NSData): \(error)")
                }
            }
        }
    }
}

/// The container-shapes fuzz target on scripts from a fixed seed: the sink path and the tree
/// agree on every shape of `Encoder` calls, in every codec, and what is written reads back.
@Suite("Container shapes on both encode paths")
struct ContainerShapeScriptTests {
    @Test func randomScriptsGiveTheSameBytesOrErrorOnBothPaths() {
        var generator = SeededGenerator(state: 0xC0_47A1_4E25)
        for index in 0..<3_000 {
            let script = Data(
                (0..<Int.random(in: 1...24, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator)
                })
            do {
                try FuzzTargets.Target.containerShapes.run(script)
            } catch {
                Issue.record("script \(index) \(Array(script)): \(error)")
            }
        }
    }
}
