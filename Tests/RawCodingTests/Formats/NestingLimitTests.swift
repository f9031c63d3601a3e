import Foundation
import RawCoding
import RawCodingFuzzTargets
import Testing

/// `Limits.maximumDepth` holds for every container kind in every format, at its exact boundary
/// and against hostile depth: each reader's array and dictionary branches are separate code,
/// so each is tested on its own and mixed.
@Suite("Nesting limits")
struct NestingLimitTests {
    enum Format: String, CaseIterable, Sendable {
        case json, xml, binary
    }

    enum Shape: String, CaseIterable, Sendable {
        /// Arrays only.
        case arrays
        /// Dictionaries only, each holding the next under the key `a`.
        case dictionaries
        /// Arrays and dictionaries alternating, starting with a dictionary.
        case mixed

        /// Whether level `level` (0 is the outermost) is a dictionary.
        func isDictionary(_ level: Int) -> Bool {
            switch self {
            case .arrays: false
            case .dictionaries: true
            case .mixed: level % 2 == 0
            }
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var format: Format
        var shape: Shape
        var testDescription: String { "\(format.rawValue) \(shape.rawValue)" }

        static let all = Format.allCases.flatMap { format in Shape.allCases.map { Case(format: format, shape: $0) } }
    }

    /// `depth` containers nested in `shape`, the innermost empty, as a `format` document.
    static func document(_ format: Format, _ shape: Shape, depth: Int) -> Data {
        switch format {
        case .json, .xml:
            // The text that opens a dictionary holding the next level, the innermost (empty)
            // dictionary and an array, and the text that closes each.
            let (dictionary, innermost, endDictionary, array, endArray) =
                format == .json
                ? (#"{"a":"#, "{", "}", "[", "]")
                : ("<dict><key>a</key>", "<dict>", "</dict>", "<array>", "</array>")
            var opening = ""
            var closings: [String] = []
            for level in 0..<depth {
                if shape.isDictionary(level) {
                    opening += level == depth - 1 ? innermost : dictionary
                    closings.append(endDictionary)
                } else {
                    opening += array
                    closings.append(endArray)
                }
            }
            let body = opening + closings.reversed().joined()
            return Data(
                (format == .json
                    ? body : "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\">" + body + "</plist>")
                    .utf8)
        case .binary:
            // Object `level` holds object `level + 1`; the key string is the last object.
            var builder = BinaryPropertyListBuilder()
            builder.referenceSize = 4
            builder.offsetSize = 4
            let key = UInt64(depth)
            for level in 0..<depth {
                let last = level == depth - 1
                let next = BinaryPropertyListBuilder.bigEndian(UInt64(level + 1), size: 4)
                if shape.isDictionary(level) {
                    builder.add(last ? [0xD0] : [0xD1] + BinaryPropertyListBuilder.bigEndian(key, size: 4) + next)
                } else {
                    builder.add(last ? [0xA0] : [0xA1] + next)
                }
            }
            builder.add([0x51, 0x61])  // "a"
            return builder.build()
        }
    }

    static func read(_ data: Data, _ format: Format, limits: Limits = .default) throws(RawCodingError) -> StoredValue {
        switch format {
        case .json: try JSONReader(limits: limits).read(data)
        case .xml: try XMLPropertyListReader(limits: limits).read(data)
        case .binary: try BinaryPropertyListReader(limits: limits).read(data)
        }
    }

    /// How deeply `value`'s containers nest, following the only child of each, and whether
    /// each level has the kind `shape` puts there.
    static func depth(of value: StoredValue, _ shape: Shape) -> (depth: Int, shapeHolds: Bool) {
        var depth = 0
        var shapeHolds = true
        var current: StoredValue? = value
        while let value = current {
            switch value {
            case .array(let elements):
                shapeHolds = shapeHolds && !shape.isDictionary(depth)
                current = elements.first
            case .dictionary(let entries):
                shapeHolds = shapeHolds && shape.isDictionary(depth)
                current = entries["a"]
            default:
                return (depth, false)
            }
            depth += 1
        }
        return (depth, shapeHolds)
    }

    func expectDepthError(
        _ error: RawCodingError?, limit: Int, _ testCase: Case, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            error?.kind == .limitExceeded, "\(testCase.testDescription): \(String(describing: error))",
            sourceLocation: sourceLocation)
        #expect(
            error?.reason.contains("deeper than \(limit) levels (Limits.maximumDepth)") == true,
            "\(testCase.testDescription): \(error?.reason ?? "no error")", sourceLocation: sourceLocation)
        #expect(
            error?.position != nil, "\(testCase.testDescription): the error says where", sourceLocation: sourceLocation)
    }

    @Test(arguments: Case.all)
    func acceptsTheDefaultDepthAndRejectsOneMore(_ testCase: Case) throws {
        let deepest = try Self.read(Self.document(testCase.format, testCase.shape, depth: 512), testCase.format)
        let measured = Self.depth(of: deepest, testCase.shape)
        #expect(measured.depth == 512 && measured.shapeHolds, "\(measured)")

        let error = #expect(throws: RawCodingError.self) {
            _ = try Self.read(Self.document(testCase.format, testCase.shape, depth: 513), testCase.format)
        }
        expectDepthError(error, limit: 512, testCase)
    }

    @Test(arguments: Case.all)
    func aLowerLimitHoldsAtItsBoundary(_ testCase: Case) throws {
        let limits = Limits(maximumDepth: 7)
        let deepest = try Self.read(
            Self.document(testCase.format, testCase.shape, depth: 7), testCase.format, limits: limits)
        #expect(Self.depth(of: deepest, testCase.shape).depth == 7)
        let error = #expect(throws: RawCodingError.self) {
            _ = try Self.read(Self.document(testCase.format, testCase.shape, depth: 8), testCase.format, limits: limits)
        }
        expectDepthError(error, limit: 7, testCase)
    }

    /// The ceiling holds whatever `maximumDepth` asks for.
    @Test(arguments: Case.all)
    func theCeilingHoldsAboveAnyLimit(_ testCase: Case) throws {
        let limits = Limits(maximumDepth: .max)
        let ceiling = Limits.depthCeiling
        // Both reads on a 64 MiB thread: 1,024 levels need more than a test thread's stack
        // under AddressSanitizer, whose frames are larger (there the stack check refuses them
        // before the depth check is reached).
        final class Outcome: @unchecked Sendable {
            var atCeiling: (any Error)?
            var aboveCeiling: (any Error)?
        }
        let outcome = Outcome()
        let atCeiling = Self.document(testCase.format, testCase.shape, depth: ceiling)
        let aboveCeiling = Self.document(testCase.format, testCase.shape, depth: ceiling + 1)
        SmallStackThread.run(stackSize: 64 << 20) {
            do {
                _ = try Self.read(atCeiling, testCase.format, limits: limits)
            } catch {
                outcome.atCeiling = error
            }
            do {
                _ = try Self.read(aboveCeiling, testCase.format, limits: limits)
            } catch {
                outcome.aboveCeiling = error
            }
        }
        if let error = outcome.atCeiling { throw error }
        let error = try #require(
            outcome.aboveCeiling as? RawCodingError, "\(testCase): \(String(describing: outcome.aboveCeiling))")
        expectDepthError(error, limit: ceiling, testCase)
    }

    /// 100,000 levels, which overflow the stack of any reader that lost its depth check
    /// (Foundation's decoders included), end in the limit error through every codec.
    @Test(arguments: Case.all)
    func hostileDepthIsRejectedByTheCodecs(_ testCase: Case) {
        let data = Self.document(testCase.format, testCase.shape, depth: 100_000)
        let codec: any Codec =
            switch testCase.format {
            case .json: JSONCodec.json
            case .xml: PropertyListCodec.propertyList(.xml)
            case .binary: PropertyListCodec.propertyList(.binary)
            }
        let error = #expect(throws: RawCodingError.self) { try codec.decode(AnyNested.self, from: data) }
        expectDepthError(error, limit: 512, testCase)
    }
}
