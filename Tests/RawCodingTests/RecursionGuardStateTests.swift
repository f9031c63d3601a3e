import Foundation
import RawCoding
import Testing

/// A model with its own coding that can be told to fail or to re-enter itself, so that one
/// type takes every exit path of the recursion guard.
struct SteerableModel: RawStringCodable, Equatable {
    enum Mode: String, Codable, Sendable {
        /// Codes normally.
        case normal
        /// `encode(to:)` throws.
        case failEncoding
        /// `encode(to:)` reads its own `rawValue`: the trap, while encoding.
        case reenterEncoding
        /// `init(from:)` calls `init?(rawValue:)`: the trap, while decoding.
        case reenterDecoding
    }

    var mode: Mode

    init(_ mode: Mode) { self.mode = mode }

    enum CodingKeys: String, CodingKey { case mode }

    static let normalText = #"{"mode":"normal"}"#
    static let reenteringText = #"{"mode":"reenterDecoding"}"#

    init(from decoder: any Decoder) throws {
        mode = try decoder.container(keyedBy: CodingKeys.self).decode(Mode.self, forKey: .mode)
        if mode == .reenterDecoding { _ = Self(rawValue: Self.reenteringText) }
    }

    func encode(to encoder: any Encoder) throws {
        switch mode {
        case .failEncoding:
            throw EncodingError.invalidValue(
                self, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "told to fail"))
        case .reenterEncoding:
            _ = rawValue
        case .normal, .reenterDecoding:
            break
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mode, forKey: .mode)
    }
}

/// One way out of the guard: what it does, and how many failures it reports to
/// `RawCodingDiagnostics` (the rest are thrown or are documented `nil`s).
struct GuardExitPath: CustomTestStringConvertible, Sendable {
    let name: String
    let reports: Int
    /// Takes the path; returns what went other than documented, or `nil`.
    let run: @Sendable () -> String?
    var testDescription: String { name }

    static func expecting(_ expected: String, from actual: String) -> String? {
        actual == expected ? nil : "got \(actual.debugDescription), expected \(expected.debugDescription)"
    }

    /// `nil` when `body` throws a `RawCodingError` of `kind`.
    static func throwing(_ kind: RawCodingError.Kind, _ body: () throws -> Void) -> String? {
        do {
            try body()
            return "no error"
        } catch let error as RawCodingError {
            return error.kind == kind ? nil : "\(error.kind): \(error)"
        } catch {
            return "not a RawCodingError: \(error)"
        }
    }

    static let all: [GuardExitPath] = [
        GuardExitPath(name: "rawValue encodes", reports: 0) {
            expecting(SteerableModel.normalText, from: SteerableModel(.normal).rawValue)
        },
        GuardExitPath(name: "rawValue whose encoding throws", reports: 1) {
            expecting("", from: SteerableModel(.failEncoding).rawValue)
        },
        GuardExitPath(name: "rawValue that re-enters itself", reports: 1) {
            expecting("", from: SteerableModel(.reenterEncoding).rawValue)
        },
        GuardExitPath(name: "init?(rawValue:) decodes", reports: 0) {
            SteerableModel(rawValue: SteerableModel.normalText) == SteerableModel(.normal) ? nil : "not decoded"
        },
        // Reported as storedValueDidNotDecode: the stored text is not dropped silently.
        GuardExitPath(name: "init?(rawValue:) of malformed text", reports: 1) {
            SteerableModel(rawValue: "{") == nil ? nil : "decoded"
        },
        // Inside init(from:) the failure is thrown by the codec call instead of reported.
        GuardExitPath(name: "codec decode of a raw-value string that does not decode", reports: 0) {
            throwing(.decodingFailed) { _ = try JSONCodec.json.decode([SteerableModel].self, from: #"["{"]"#) }
        },
        GuardExitPath(name: "init?(rawValue:) that re-enters itself", reports: 1) {
            SteerableModel(rawValue: SteerableModel.reenteringText) == nil ? nil : "decoded"
        },
        GuardExitPath(name: "codec encode that throws", reports: 0) {
            throwing(.encodingFailed) { _ = try JSONCodec.json.encode(SteerableModel(.failEncoding)) }
        },
        GuardExitPath(name: "codec encode that re-enters", reports: 0) {
            throwing(.recursionTrap) { _ = try JSONCodec.json.encode(SteerableModel(.reenterEncoding)) }
        },
        GuardExitPath(name: "codec decode that re-enters", reports: 0) {
            throwing(.recursionTrap) {
                _ = try JSONCodec.json.decode(SteerableModel.self, from: SteerableModel.reenteringText)
            }
        },
        GuardExitPath(name: "default encode(to:) trapped", reports: 0) {
            throwing(.recursionTrap) { _ = try JSONCodec.json.encode([TrappedModel()]) }
        },
        GuardExitPath(name: "default encode(to:) under Foundation's encoder", reports: 0) {
            do {
                _ = try JSONEncoder().encode([TrappedModel()])
                return "no error"
            } catch let error as RawCodingError {
                return error.kind == .recursionTrap ? nil : "\(error)"
            } catch {
                return "\(error)"
            }
        },
        GuardExitPath(name: "default init(from:) trapped", reports: 0) {
            throwing(.recursionTrap) {
                _ = try JSONCodec.json.decode(TrappedModel.self, from: TrapShape.stringInput { $0 })
            }
        },
        GuardExitPath(name: "default init(from:) of a non-string", reports: 0) {
            throwing(.decodingFailed) { _ = try JSONCodec.json.decode(TrappedModel.self, from: "[1]") }
        },
        GuardExitPath(name: "default init(from:) of a string that is no raw value", reports: 0) {
            throwing(.decodingFailed) { _ = try JSONCodec.json.decode(TrappedModel.self, from: #""not JSON""#) }
        },
        GuardExitPath(name: "RawCodable rawValue whose encoding throws", reports: 1) {
            expecting("", from: RawCodable(SteerableModel(.failEncoding)).rawValue)
        },
        GuardExitPath(name: "RawCodable init?(rawValue:) that re-enters", reports: 1) {
            RawCodable<TrappedModel>(rawValue: TrapShape.stringInput { $0 }) == nil ? nil : "decoded"
        },
    ]
}

@Suite("Recursion guard state")
struct RecursionGuardStateTests {
    /// After any exit path, on the same thread: the type codes normally in both directions
    /// (nothing left marked active), codec calls succeed (no failure left parked), and a trap
    /// outside any codec call is reported once (no throwing scope left open).
    @Test(arguments: GuardExitPath.all)
    func nothingIsLeftBehindAfter(_ path: GuardExitPath) throws {
        let reported = Collected<RawCodingError>()
        let problem = RawCodingDiagnostics.withHandler({ reported.append($0.error) }) { path.run() }
        #expect(problem == nil)
        #expect(reported.all.count == path.reports, "\(reported.all)")

        let afterwards = Collected<RawCodingError>()
        try RawCodingDiagnostics.withHandler({ afterwards.append($0.error) }) { () throws -> Void in
            let normal = SteerableModel(.normal)
            #expect(normal.rawValue == SteerableModel.normalText, "still marked as encoding")
            #expect(SteerableModel(rawValue: SteerableModel.normalText) == normal, "still marked as decoding")
            #expect(try JSONCodec.json.encodeToString(normal) == SteerableModel.normalText, "a failure left parked")
            #expect(
                try JSONCodec.json.decode(SteerableModel.self, from: SteerableModel.normalText) == normal,
                "a failure left parked")
            #expect(TrappedModel().rawValue == "")
        }
        #expect(afterwards.all.count == 1, "the trap outside a codec call is reported, not parked: \(afterwards.all)")
        #expect(afterwards.all.first?.kind == .recursionTrap)
    }
}
