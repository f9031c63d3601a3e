import Foundation

extension JSONCodec {
    /// ``Codec/decodeStored(_:from:defaultValue:)`` straight from a flat scan of the bytes, or
    /// `nil` where the tree path must read it.
    ///
    /// It takes what needs no tree: a type that is not ``StoredVersioned`` itself (its elements
    /// may be; they record no version of their own), under the default keys, in a document the
    /// scan takes. Filling from defaults and the ledger of known keys work on any decoder; the
    /// stored values of unknown keys are read from the scan only where there are some. Any
    /// failure is left to the tree path, which decodes again and throws its own error: the
    /// tree path's errors are the reference, and they are the same error for the same bytes.
    func decodeStoredFromScan<Value: Decodable>(
        _ type: Value.Type, from data: Data, defaultValue: Value?, recordingUnknownKeys: Bool
    ) throws(RawCodingError) -> StoredDecoding<Value>? {
        guard keys == .useDefaultKeys, format.readsPlainJSON, Value.self != StoredValue.self,
            !TypeTraits.of(Value.self).isStoredVersioned
        else { return nil }
        let defaults = try StoredEvolution.defaults(of: Value.self, given: defaultValue)
        let options = decoder
        let limits = limits
        do {
            return try RecursionGuard.codecScope(decoding: Value.self) { () throws -> StoredDecoding<Value>? in
                guard let context = ScanDecodingContext(data: data, limits: limits, options: options) else {
                    return nil
                }
                let root = ScanDecodingNode(context: context, parent: nil, step: nil, token: 0)
                guard defaults != nil || recordingUnknownKeys else {
                    return StoredDecoding(
                        value: try root.unbox(0, as: type, step: nil), unknownKeys: .none, storedVersion: nil,
                        filledKeyPaths: [])
                }
                if let value = decodedWithNothingToFillOrKeep(type, root: root) {
                    return StoredDecoding(value: value, unknownKeys: .none, storedVersion: nil, filledKeyPaths: [])
                }
                let decoding = EvolvingDecoding(defaults: defaults, snakeCase: false, rootType: type)
                let value = try EvolvingDecoding.$current.withValue(decoding) {
                    try root.unbox(0, as: EvolvingRoot<Value>.self, step: nil).value
                }
                var unknownKeys = StoredUnknownKeys.none
                if context.scan.hasUnknownKeys(at: 0, ledger: decoding.ledger) {
                    unknownKeys = .unknown(in: try context.scan.storedValue(at: 0), ledger: decoding.ledger)
                }
                return StoredDecoding(
                    value: value, unknownKeys: unknownKeys, storedVersion: nil,
                    filledKeyPaths: decoding.filledKeyPaths)
            }
        } catch {
            // Not swallowed: the caller's tree path decodes the same bytes again and throws.
            return nil
        }
    }

    /// The value decoded plainly, when that is what the evolving decode would return: when
    /// no keyed container was asked for a key it lacks, since filling happens only there, and
    /// when the model asked for every key of every object the evolving decode's ledger would
    /// look into (``ScanDecodingContext/askedForEveryKey(at:)``), so there is no unknown key to
    /// keep. `nil` otherwise: a key was missing (the evolving decode may fill it), a key was not
    /// asked for (it is kept), or the plain decode failed (it may have failed on such a key).
    private func decodedWithNothingToFillOrKeep<Value: Decodable>(_ type: Value.Type, root: ScanDecodingNode) -> Value?
    {
        let context = root.context
        context.missedKeys = 0
        context.startMarking()
        do {
            let value = try root.unbox(0, as: type, step: nil)
            return context.missedKeys == 0 && context.askedForEveryKey(at: 0) ? value : nil
        } catch {
            // Not swallowed: the evolving decode that follows throws what applies.
            return nil
        }
    }
}

extension JSONScan {
    /// Whether the object at `token` has a key `ledger` does not know, here or in an object
    /// under a known key: what ``StoredUnknownKeys/unknown(in:ledger:)`` would find non-empty.
    func hasUnknownKeys(at token: Int, ledger: KeyLedger) -> Bool {
        guard tokens[token].kind == .object, !ledger.knowsAll else { return false }
        var position = token + 1
        for _ in 0..<tokens[token].length {
            switch ledger.match(keyString(at: position)) {
            case .unknown:
                return true
            case .known(inner: let child?):
                if hasUnknownKeys(at: position + 1, ledger: child) { return true }
            case .known(inner: nil):
                break
            }
            position = after(position + 1)
        }
        return false
    }
}
