import Foundation
import RawCoding
import RawCodingTesting
import Testing

/// RawStringCodable without its own Codable: the protocol's defaults meet the trap and throw.
struct TrappingSettings: RawStringCodable, Equatable {
    var theme = "dark"
}

/// The first fix: own memberwise Codable.
struct SafeSettings: RawStringCodable, Equatable {
    var theme = "dark"
    enum CodingKeys: String, CodingKey { case theme }
    init() {}
    init(from decoder: any Decoder) throws {
        theme = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .theme)
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(theme, forKey: .theme)
    }
}

/// The pasted snippet: nothing guards its rawValue. Running it would crash the test process.
struct UnguardedSettings: Codable, RawRepresentable {
    var theme = "dark"
    init() {}
    init?(rawValue: String) {
        guard let value = try? JSONDecoder().decode(Self.self, from: Data(rawValue.utf8)) else { return nil }
        self = value
    }
    var rawValue: String {
        guard let data = try? JSONEncoder().encode(self) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}

struct PlainSettings: Codable { var theme = "dark" }

enum Color: String, Codable { case red, green }

@Suite("expectNoRecursionTrap")
struct ExpectNoRecursionTrapTests {
    @Test func aTrappingTypeFailsWithTheTypedErrorInsteadOfCrashing() throws {
        var line = 0
        let issues = recordedIssues(5) {
            line = #line + 1
            expectNoRecursionTrap(TrappingSettings(), .json, .propertyList(.binary))
        }
        #expect(!issues.isEmpty)
        #expect(issues.allSatisfy { $0.sourceLocation?.line == line })
        let encoding = try #require(
            issues.first { $0.text.contains("Encoding TrappingSettings as json fell into the recursion trap") })
        // The library's own message: the type and both fixes.
        #expect(encoding.text.contains("TrappingSettings"))
        #expect(encoding.text.contains("RawCodable<RawCodingTestingTests.TrappingSettings>"))
        #expect(encoding.text.contains("encode(to:)"))
        #expect(
            issues.contains {
                $0.text.contains("Encoding TrappingSettings as binary.plist fell into the recursion trap")
            })
        #expect(
            issues.contains {
                $0.text.contains("Encoding Array<TrappingSettings> as json fell into the recursion trap")
            })
        #expect(
            issues.contains {
                $0.text.contains("rawValue / init?(rawValue:) of TrappingSettings fell into the recursion trap")
            })
    }

    @Test func guardedAndPlainTypesPass() {
        #expect(expectNoRecursionTrap(SafeSettings(), .json, .propertyList(.xml), .propertyList(.binary)).passed)
        #expect(expectNoRecursionTrap(RawCodable(PlainSettings()), .json, .propertyList(.binary)).passed)
        #expect(expectNoRecursionTrap(PlainSettings(), .json).passed)
        #expect(expectNoRecursionTrap(Color.green, .json, .propertyList(.xml)).passed)
    }

    @Test func anUnguardedRawRepresentableIsReportedWithoutBeingRun() {
        let issues = recordedIssues(1) { expectNoRecursionTrap(UnguardedSettings(), .json) }
        #expect(issues.count == 1)
        #expect(
            issues.first?.text.contains(
                "UnguardedSettings is Codable and RawRepresentable with String raw values, but not RawStringCodable")
                == true)
        #expect(issues.first?.text.contains("It was not run.") == true)
    }
}
