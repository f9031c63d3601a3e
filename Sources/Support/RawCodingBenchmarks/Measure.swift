import Foundation

/// Timings of one operation over repeated runs.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
struct Measurement {
    var label: String
    var samples: [Double]

    var median: Double {
        let sorted = samples.sorted()
        return sorted[sorted.count / 2]
    }

    /// Times each operation `runs` times (milliseconds), interleaved round by round so that
    /// every operation sees the same machine load: the ratios stay meaningful on a busy machine.
    static func interleaved(
        _ operations: [(label: String, body: () throws -> Void)], runs: Int, warmup: Int = 3
    ) throws -> [Measurement] {
        for _ in 0..<warmup {
            for operation in operations { try operation.body() }
        }
        var results = operations.map { Measurement(label: $0.label, samples: []) }
        let clock = ContinuousClock()
        for _ in 0..<runs {
            for (index, operation) in operations.enumerated() {
                let elapsed = try clock.measure(operation.body)
                results[index].samples.append(
                    Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15)
            }
        }
        return results
    }
}

/// One line of the table: ours against a Foundation path, and the ratio the issue asks for.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
struct Comparison {
    var title: String
    var ours: Measurement
    var theirs: Measurement
    /// The ratio asked for, if any.
    var target: Double?

    var ratio: Double { theirs.median / ours.median }

    static let header = "\("".padding(toLength: 64, withPad: " ", startingAt: 0))      ours    Foundation    ratio"

    var line: String {
        let verdict = target.map { ratio >= $0 ? "meets ≥\(format($0))×" : "BELOW ≥\(format($0))×" } ?? "(no target)"
        return "\(title.padding(toLength: 64, withPad: " ", startingAt: 0)) "
            + "\(format(ours.median).leftPadded(8)) ms  \(format(theirs.median).leftPadded(8)) ms  "
            + "\(format(ratio).leftPadded(6))×  \(verdict)"
    }
}

func format(_ value: Double) -> String {
    String(format: "%.2f", value)
}

extension String {
    func leftPadded(_ width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
