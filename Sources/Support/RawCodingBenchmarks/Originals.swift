import Foundation
import RawCoding

/// The original `canada.json` and `twitter.json` as their producers wrote them (17-digit
/// coordinates, escaped Unicode), decoded by both sides from the same bytes.
///
/// The files are not part of the repository: the directory is `--originals DIR`, or
/// swift-foundation's benchmark inputs beside the checkout when present.
enum Originals {
    static let defaultDirectory = "../shared/peer-suites/swift-foundation-json-bench"

    /// The directory given after `--originals`, else the default when it exists.
    static func directory(_ arguments: [String]) -> String? {
        if let flag = arguments.firstIndex(of: "--originals") {
            guard flag + 1 < arguments.count else { fail("--originals needs a directory") }
            return arguments[flag + 1]
        }
        return FileManager.default.fileExists(atPath: defaultDirectory) ? defaultDirectory : nil
    }

    /// The bytes of `name` in `directory`; a missing file given on the command line is an error.
    static func bytes(_ name: String, in directory: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(name))
    }
}

/// JSON decode of the original files, ours against `JSONDecoder` on the same bytes.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
func originalRows(_ directory: String) throws -> [Comparison] {
    let json = JSONCodec(limits: Limits(maximumInputBytes: 64 << 20))
    let jsonDecoder = JSONDecoder()
    let canada = try Originals.bytes("canada.json", in: directory)
    let twitter = try Originals.bytes("twitter.json", in: directory)
    guard try json.decode(Canada.self, from: canada) == jsonDecoder.decode(Canada.self, from: canada),
        try json.decode(Twitter.self, from: twitter) == jsonDecoder.decode(Twitter.self, from: twitter)
    else { fail("ours and JSONDecoder read the original files differently; timings would mean nothing") }
    let tape = try ReplayTape(recording: Twitter.self, from: json.readTree(from: twitter))
    guard try tape.replay(Twitter.self) == json.decode(Twitter.self, from: twitter) else {
        fail("the replayed twitter.json differs from the decoded one; the floor would mean nothing")
    }
    let measured = try Measurement.interleaved(
        [
            ("canada.json decode", { _ = try json.decode(Canada.self, from: canada) }),
            ("canada.json JSONDecoder", { _ = try jsonDecoder.decode(Canada.self, from: canada) }),
            ("twitter.json decode", { _ = try json.decode(Twitter.self, from: twitter) }),
            ("twitter.json JSONDecoder", { _ = try jsonDecoder.decode(Twitter.self, from: twitter) }),
            ("twitter.json replay floor", { _ = try tape.replay(Twitter.self) }),
        ], runs: runs)
    return [
        Comparison(
            title: "original canada.json: JSON decode vs JSONDecoder", ours: measured[0], theirs: measured[1],
            target: 3),
        Comparison(
            title: "original twitter.json: JSON decode vs JSONDecoder", ours: measured[2], theirs: measured[3],
            target: 3),
        // The most any Codable decoder of the model can reach: its calls answered from a tape.
        Comparison(
            title: "original twitter.json: Codable replay floor vs JSONDecoder", ours: measured[4],
            theirs: measured[3], target: nil),
    ]
}
