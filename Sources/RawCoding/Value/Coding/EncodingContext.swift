import Foundation

/// What every node of one `StoredValueEncoder.encode` call shares: the options, caches and the
/// first misuse of the `Encoder` API (reported when the call ends instead of trapping).
final class EncodingContext {
    let options: StoredValueEncoder
    let userInfo: [CodingUserInfoKey: Any]
    let usesDefaultKeys: Bool
    var failure: EncodingError?
    /// Nodes holding pending children, which point back at them: the cycles are broken when
    /// the encode call ends, whether it succeeded or threw.
    var nodesWithPending: [EncodingNode] = []
    var stack = StackCheck()
    private var snakeCaseKeys: [String: String] = [:]

    init(options: StoredValueEncoder) {
        self.options = options
        userInfo = options.userInfo
        if case .useDefaultKeys = options.keys {
            usesDefaultKeys = true
        } else {
            usesDefaultKeys = false
        }
    }

    /// Breaks the parent ⇄ pending-child reference cycles.
    func releasePendingNodes() {
        for node in nodesWithPending { node.pending = [] }
        nodesWithPending = []
    }

    /// Records the first misuse of the Encoder API by an `encode(to:)`.
    func misuse(_ description: String, at node: EncodingNode) {
        guard failure == nil else { return }
        failure = EncodingError.invalidValue(
            description, EncodingError.Context(codingPath: node.codingPath, debugDescription: description))
    }

    /// The dictionary key for `key` under `node`, after the key strategy.
    func dictionaryKey(_ key: some CodingKey, in node: EncodingNode) -> String {
        switch options.keys {
        case .useDefaultKeys:
            return key.stringValue
        case .snakeCase:
            let original = key.stringValue
            if let converted = snakeCaseKeys[original] { return converted }
            let converted = KeyConversion.toSnakeCase(original)
            snakeCaseKeys[original] = converted
            return converted
        case .custom(let convert):
            return convert(node.codingPath + [key]).stringValue
        }
    }

    /// A finite or non-finite double under the non-conforming float strategy.
    func double(_ value: Double, original: Any, in node: EncodingNode, step: CodingPathStep?) throws -> StoredValue {
        if value.isFinite { return .double(value) }
        switch options.nonFiniteNumbers {
        case .allow:
            return .double(value)
        case .throw:
            var path = node.codingPath
            if let step { path.append(step.codingKey) }
            throw EncodingError.invalidValue(
                original,
                EncodingError.Context(
                    codingPath: path,
                    debugDescription:
                        "Unable to encode \(type(of: original)).\(value.isNaN ? "nan" : value > 0 ? "infinity" : "-infinity") directly. Use a nonFiniteNumbers that allows or converts it."
                ))
        case .strings(let positiveInfinity, let negativeInfinity, let nan):
            return .string(value.isNaN ? nan : value > 0 ? positiveInfinity : negativeInfinity)
        }
    }

    /// A `Float` as the `Double` its shortest decimal text denotes (3.14, not
    /// 3.140000104904175), as JSON text would carry it, or exactly (``StoredValueEncoder/floatsAsTheirText``).
    func float(_ value: Float, in node: EncodingNode, step: CodingPathStep?) throws -> StoredValue {
        guard value.isFinite else { return try double(Double(value), original: value, in: node, step: step) }
        return .double(Self.double(of: value, asText: options.floatsAsTheirText))
    }

    /// The `Double` a finite `Float`'s shortest text denotes (or its exact value, when not
    /// `asText`); a non-finite one as it is.
    static func double(of value: Float, asText: Bool = true) -> Double {
        guard value.isFinite, asText else { return Double(value) }
        // The shortest text of a finite Float always reads back as a Double.
        return Double(value.description) ?? Double(value)
    }
}
