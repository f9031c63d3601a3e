import Foundation
import RawCoding

// Deliberately naive (try?, a default on failure): this is the snippet the library replaces,
// exactly as it is pasted into apps: a model that is
// Codable and RawRepresentable<String> and JSON-encodes itself in rawValue. Its encode(to:)
// is the standard library's default, which calls rawValue: infinite recursion.
struct NaiveSettings: Codable, RawRepresentable {
    var theme = "dark"
    var fontSize = 14

    init() {}

    init?(rawValue: String) {
        guard let data = rawValue.data(using: .utf8),
            let result = try? JSONDecoder().decode(NaiveSettings.self, from: data)
        else { return nil }
        self = result
    }

    var rawValue: String {
        guard let data = try? JSONEncoder().encode(self),
            let result = String(data: data, encoding: .utf8)
        else { return "[]" }
        return result
    }
}

// The same model through RawStringCodable: the trap ends in a typed error.
struct GuardedSettings: RawStringCodable {
    var theme = "dark"
    var fontSize = 14
}

/// A model whose `encode(to:)` reads its own `rawValue`: the trap, every time.
struct TrappedInRawValue: RawStringCodable {
    var value = 1

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// `TrapDemo repeat` sends 30,000 failures of three kinds to the default handler.
/// `TrapDemo naive` dies of a stack overflow; `TrapDemo guarded` prints the typed error and
/// exits 0. The trap tests run both as child processes.
@main
struct TrapDemo {
    static func main() {
        switch CommandLine.arguments.dropFirst().first {
        case "naive":
            let text = NaiveSettings().rawValue
            print("unreachable: naive snippet returned \(text)")
            exit(3)
        case "guarded":
            do {
                let data = try JSONCodec.json.encode(GuardedSettings())
                print("unexpected success: \(String(decoding: data, as: UTF8.self))")
                exit(4)
            } catch {
                print("kind=\(error.kind)")
                print(error)
                exit(0)
            }
        case "repeat":
            // The same failures 10,000 times each through the default diagnostics handler:
            // stored text that does not decode, and the recursion trap in both directions.
            for _ in 0..<10_000 {
                _ = RawCodable<GuardedSettings>(rawValue: #"{"theme":"dark"}"#)
                _ = GuardedSettings(rawValue: "{}")
                _ = TrappedInRawValue().rawValue
            }
            let counts = RawCodingDiagnostics.repeatCounts.values.sorted()
            print("repeatCounts=\(counts)")
            exit(0)
        default:
            FileHandle.standardError.write(Data("usage: TrapDemo naive|guarded|repeat\n".utf8))
            exit(64)
        }
    }
}
