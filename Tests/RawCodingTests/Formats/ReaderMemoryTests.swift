import Foundation
import Testing

/// Rejecting malformed input frees everything: 200,000 malformed inputs through each reader
/// grow resident memory by less than 5 MB. Measured in a child process (`ReaderSoak`), whose
/// memory only the readers move.
@Suite("Reader memory")
struct ReaderMemoryTests {
    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "needs /proc/self/status (Linux)"),
        .disabled(
            if: Sanitizers.address,
            "AddressSanitizer quarantines freed memory, so resident memory grows; run it without sanitizers"))
    func twoHundredThousandMalformedInputsPerReaderKeepMemoryFlat() throws {
        let result = try ChildProcess.run(try ChildProcess.product("ReaderSoak"), ["200000"])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.map { $0.split(separator: " ").first ?? "" } == ["json", "xml", "binary"], "\(result.output)")
        for line in lines {
            let fields = line.split(separator: " ")
            try #require(fields.count == 5, "\(line)")
            let (inputs, rejected, before, after) = (Int(fields[1]), Int(fields[2]), Int(fields[3]), Int(fields[4]))
            #expect(inputs == 200_000 && rejected == 200_000, "\(line): every input must be rejected")
            let grown = try #require(after) - (try #require(before))
            #expect(before ?? -1 > 0)
            #expect(
                grown < 5 * 1_024, "\(fields[0]): resident memory grew by \(grown) KB over 200,000 malformed inputs")
        }
    }
}
