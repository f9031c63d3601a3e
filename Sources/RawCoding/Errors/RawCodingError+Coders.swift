import Foundation

/// Turning the errors thrown by `Encoder`s and `Decoder`s into ``RawCodingError``s.
extension RawCodingError {
    /// Wraps an error thrown while encoding a value of `subject`, keeping its coding path: an
    /// `EncodingError`'s context, or a `RawCodingError` found inside it (returned as it is).
    /// - Parameters:
    ///   - error: The error an encoder or an `encode(to:)` threw.
    ///   - subject: The type being encoded.
    /// - Returns: The error, of kind ``Kind/encodingFailed`` unless it already was a
    ///   `RawCodingError`.
    public static func encoding(_ error: any Error, of subject: Any.Type) -> RawCodingError {
        if let own = error.rawCodingError { return own }
        if let failure = error as? FormatFailure { return RawCodingError(failure, subject: subject) }
        let typeName = String(reflecting: subject)
        guard let error = error as? EncodingError else {
            return RawCodingError(
                kind: .encodingFailed, typeName: typeName,
                reason: "the value's encode(to:) threw \(error)", underlyingError: error)
        }
        switch error {
        case let .invalidValue(_, context) where context.underlyingError is StackExhaustion:
            return RawCodingError(
                kind: .limitExceeded, typeName: typeName, codingPath: context.codingPath,
                reason: context.debugDescription + ": " + String(describing: context.underlyingError.unsafelyUnwrapped),
                underlyingError: error)
        case let .invalidValue(value, context):
            return RawCodingError(
                kind: .encodingFailed, typeName: typeName, codingPath: context.codingPath,
                reason: "invalid value \(describing(value)) (\(type(of: value))): \(context.debugDescription)",
                underlyingError: error)
        @unknown default:
            return RawCodingError(
                kind: .encodingFailed, typeName: typeName, reason: "\(error)", underlyingError: error)
        }
    }

    /// A refused value as text. A `Date` is given as its seconds from 2001: Foundation's own
    /// description of an infinite or NaN date stops the process.
    static func describing(_ value: Any) -> String {
        if let date = value as? Date { return "Date(\(date.timeIntervalSinceReferenceDate) s from 2001)" }
        return "\(value)"
    }

    /// Wraps an error thrown while decoding a value of `subject`, keeping its coding path: a
    /// `DecodingError`'s context (a missing key's path ends in the key), or a `RawCodingError`
    /// found inside it (returned as it is).
    /// - Parameters:
    ///   - error: The error a decoder or an `init(from:)` threw.
    ///   - subject: The type being decoded.
    /// - Returns: The error, of kind ``Kind/decodingFailed`` unless it already was a
    ///   `RawCodingError`.
    public static func decoding(_ error: any Error, of subject: Any.Type) -> RawCodingError {
        if let own = error.rawCodingError { return own }
        if let failure = error as? FormatFailure { return RawCodingError(failure, subject: subject) }
        let typeName = String(reflecting: subject)
        guard let error = error as? DecodingError else {
            return RawCodingError(
                kind: .decodingFailed, typeName: typeName,
                reason: "the type's init(from:) threw \(error)", underlyingError: error)
        }
        let path: [any CodingKey]
        let reason: String
        if case let .dataCorrupted(context) = error, let exhaustion = context.underlyingError as? StackExhaustion {
            return RawCodingError(
                kind: .limitExceeded, typeName: typeName, codingPath: context.codingPath,
                reason: context.debugDescription + ": " + exhaustion.reason, underlyingError: error)
        }
        switch error {
        case let .typeMismatch(expected, context):
            path = context.codingPath
            reason = "expected \(expected): \(context.detail)"
        case let .valueNotFound(expected, context):
            path = context.codingPath
            reason = "expected \(expected) but found no value (null or missing): \(context.detail)"
        case let .keyNotFound(key, context):
            path = context.codingPath + [key]
            reason = "required key \"\(key.stringValue)\" is missing"
        case let .dataCorrupted(context):
            path = context.codingPath
            reason = context.detail
        @unknown default:
            path = []
            reason = "\(error)"
        }
        return RawCodingError(
            kind: .decodingFailed, typeName: typeName, codingPath: path, reason: reason,
            underlyingError: error)
    }
}

extension DecodingError.Context {
    /// The context's description followed by its underlying error's, if any.
    fileprivate var detail: String {
        guard let underlyingError else { return debugDescription }
        return "\(debugDescription) (\(underlyingError))"
    }
}

extension Error {
    /// A ``RawCodingError`` thrown from inside a coder, found through `underlyingError` links.
    ///
    /// Foundation's coders sometimes wrap errors thrown by `encode(to:)`/`init(from:)`; the
    /// recursion trap must surface as itself, not as a generic coder error.
    var rawCodingError: RawCodingError? {
        var current: (any Error)? = self
        var hops = 0
        while let error = current, hops < 16 {
            if let own = error as? RawCodingError { return own }
            switch error {
            case let EncodingError.invalidValue(_, context): current = context.underlyingError
            case let DecodingError.typeMismatch(_, context),
                let DecodingError.valueNotFound(_, context),
                let DecodingError.keyNotFound(_, context),
                let DecodingError.dataCorrupted(context):
                current = context.underlyingError
            default: current = nil
            }
            hops += 1
        }
        return nil
    }
}
