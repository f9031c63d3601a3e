import Foundation

/// Timings of one operation over repeated runs.
struct Measurement {
    var label: String
    var samples: [Double]

    var median: Double {
        let sorted = samples.sorted()
        return sorted[sorted.count / 2]
    }

    /// Runs `body` `warmup` times untimed, then `runs` times timed (milliseconds).
    static func run(_ label: String, runs: Int, warmup: Int = 3, _ body: () throws -> Void) rethrows -> Measurement {
        for _ in 0..<warmup { try body() }
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        let clock = ContinuousClock()
        for _ in 0..<runs {
            let elapsed = try clock.measure(body)
            samples.append(Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        return Measurement(label: label, samples: samples)
    }
}

/// One line of the table: ours against a Foundation path, and the ratio the issue asks for.
struct Comparison {
    var title: String
    var ours: Measurement
    var theirs: Measurement
    var target: Double

    var ratio: Double { theirs.median / ours.median }

    var line: String {
        let verdict = ratio >= target ? "meets ≥\(format(target))×" : "BELOW ≥\(format(target))×"
        return "\(title.padding(toLength: 60, withPad: " ", startingAt: 0)) "
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
