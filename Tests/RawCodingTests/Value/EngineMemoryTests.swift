import Foundation
import RawCoding
import Testing

/// Resident memory of this process, from /proc/self/status (Linux).
func residentMemoryBytes() throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
    let kilobytes = try #require(Int(line.split(separator: " ").dropFirst().first ?? ""))
    return kilobytes * 1_024
}

@Suite("StoredValue engine memory", .serialized)
struct EngineMemoryTests {
    struct Failing: Encodable {
        enum Keys: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
            try nested.encode(1, forKey: .a)
            throw EncodingError.invalidValue(
                1, EncodingError.Context(codingPath: [], debugDescription: "fails after a nested container"))
        }
    }

    /// Nested containers and super encoders point back at the encoder that made them; those
    /// cycles are broken at the end of every encode call, including calls that throw.
    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "needs /proc/self/status (Linux)"),
        .disabled(
            if: Sanitizers.address,
            "AddressSanitizer quarantines freed memory, so resident memory grows; run it without sanitizers"))
    func nestedContainersAndSuperEncodersDoNotLeak() throws {
        let encoder = StoredValueEncoder()
        let values = (
            HandNested(latitude: 1, longitude: 2, history: ["a"], label: "x"), Dog(name: "Rex", breed: "collie")
        )
        for _ in 0..<1_000 { _ = try encoder.encode(values.0) }  // warm up allocator and caches
        // The leak this guards against grew memory by 190 MB per round here. Other suites run
        // in parallel in the same process and can move resident memory by tens of MB while a
        // round runs (a release run measured 71 MB once, beside a test that writes 13 MB
        // strings), so the smallest growth of up to three rounds is what counts: a leak grows
        // every round.
        var grown = Int.max
        for _ in 0..<3 where grown >= 64 << 20 {
            let before = try residentMemoryBytes()
            for _ in 0..<60_000 {
                _ = try encoder.encode(values.0)
                _ = try encoder.encode(values.1)
                _ = try? encoder.encode(Failing())
            }
            grown = min(grown, try residentMemoryBytes() - before)
        }
        #expect(grown < 64 << 20, "resident memory grew by \(grown / 1_024) KB over 180,000 encodes")
    }
}
