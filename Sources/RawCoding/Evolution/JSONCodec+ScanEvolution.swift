import Foundation

extension JSONCodec {
    /// Whether a decode of a `Value` may be read from a flat scan of the bytes (by `decode` and
    /// ``decodeStoredFromScan(_:from:defaults:recordingUnknownKeys:)``): a type that is not
    /// ``StoredVersioned`` itself (its elements may be; they record no version of their own),
    /// from plain JSON, under the default keys, or keys converted from snake case where
    /// `convertingKeys` (a plain `decode`; stored decodes keep unknown keys as the payload
    /// spells them, which the tree path does).
    func scanTakes<Value>(_ type: Value.Type, traits: TypeTraits? = nil, convertingKeys: Bool = false) -> Bool {
        (keys == .useDefaultKeys || convertingKeys) && format.readsPlainJSON && Value.self != StoredValue.self
            && !(traits ?? TypeTraits.of(Value.self)).isStoredVersioned
    }

    /// ``Codec/decodeStored(_:from:defaultValue:)`` straight from a flat scan of the bytes,
    /// for a type ``scanTakes(_:)`` takes, filling from `defaults`: the value, with the keys
    /// it does not know and the key paths filled put in `unknownKeys` and `filledKeyPaths`.
    ///
    /// Filling from defaults and the ledger of known keys work on any decoder; the stored
    /// values of unknown keys are read from the scan only where there are some. It throws
    /// where the tree path must read the bytes: a document the scan leaves, and any failure,
    /// which the tree path decodes again to throw its own error (the tree path's errors are
    /// the reference, and they are the same error for the same bytes). Built so that one
    /// call looks up no generic type at run time (each costs about 330 instructions).
    func decodeStoredFromScan<Value: Decodable>(
        _ type: Value.Type, from bytes: UnsafeRawBufferPointer, defaults: DefaultNode?, recordingUnknownKeys: Bool,
        unknownKeys: inout StoredUnknownKeys, filledKeyPaths: inout [String]
    ) throws -> Value {
        var foundUnknownKeys = StoredUnknownKeys.none
        var filled: [String] = []
        let value = try RecursionGuard.codecScope(decoding: Value.self) { () throws -> Value in
            guard let context = ScanDecodingContext(bytes: bytes, codec: self) else {
                throw ScanLeavesDocument()
            }
            let root = ScanDecodingNode(context: context, parent: nil, step: nil, token: 0)
            guard defaults != nil || recordingUnknownKeys else { return try root.unbox(0, as: type, step: nil) }
            do {
                return try decodedWithNothingToFillOrKeep(type, root: root, keepingUnknownKeys: recordingUnknownKeys)
            } catch {
                // Not swallowed: the evolving decode that follows throws what applies.
            }
            let decoding = EvolvingDecoding(defaults: defaults, snakeCase: false, rootType: type)
            let value = try EvolvingDecoding.$current.withValue(decoding) {
                try root.unbox(0, as: EvolvingRoot<Value>.self, step: nil).value
            }
            if context.scan.hasUnknownKeys(at: 0, ledger: decoding.ledger) {
                foundUnknownKeys = .unknown(in: try context.scan.storedValue(at: 0), ledger: decoding.ledger)
            }
            filled = decoding.filledKeyPaths
            return value
        }
        unknownKeys = foundUnknownKeys
        filledKeyPaths = filled
        return value
    }

    /// ``Codec/decodeStoredValue(_:from:recordingUnknownKeys:unknownKeys:)`` from text, read
    /// from the string's own bytes: no `Data` is made unless the tree path must read them.
    /// `traits` are `Value`'s, when the caller has them.
    func decodeStoredValue<Value: Decodable>(
        _ type: Value.Type, fromText text: String, recordingUnknownKeys: Bool, unknownKeys: inout StoredUnknownKeys,
        traits: TypeTraits? = nil
    ) throws(RawCodingError) -> Value {
        let traits = traits ?? TypeTraits.of(Value.self)
        if scanTakes(Value.self, traits: traits) {
            // Without a default value, only a `StoredDefault` type has defaults.
            let defaults = traits.isStoredDefault ? try StoredEvolution.defaults(of: Value.self, given: nil) : nil
            var text = text
            var filledKeyPaths: [String] = []
            do {
                return try text.withUTF8 { bytes in
                    try decodeStoredFromScan(
                        type, from: UnsafeRawBufferPointer(bytes), defaults: defaults,
                        recordingUnknownKeys: recordingUnknownKeys, unknownKeys: &unknownKeys,
                        filledKeyPaths: &filledKeyPaths)
                }
            } catch {
                // Not swallowed: the tree path below reads the same bytes again and throws its
                // own error, the reference for these bytes (or reads what the scan leaves).
            }
        }
        return try decodeStoredValueFromTree(
            type, from: Data(utf8Of: text), recordingUnknownKeys: recordingUnknownKeys, unknownKeys: &unknownKeys)
    }

    /// The value decoded plainly, when that is what the evolving decode would return: when
    /// no keyed container was asked for a key it lacks, since filling happens only there, and
    /// when the model asked for every key of every object the evolving decode's ledger would
    /// look into (``ScanDecodingContext/askedForEveryKey(at:)``), so there is no unknown key to
    /// keep (for a caller that keeps unknown keys; for one that does not, a plain decode that
    /// missed nothing is enough). Throws otherwise: a key was missing (the evolving decode may
    /// fill it), a key was not asked for (it is kept), or the plain decode failed (it may have
    /// failed on such a key).
    private func decodedWithNothingToFillOrKeep<Value: Decodable>(
        _ type: Value.Type, root: ScanDecodingNode, keepingUnknownKeys: Bool
    ) throws -> Value {
        let context = root.context
        context.missedKeys = 0
        context.startMarking()
        let value = try root.unbox(0, as: type, step: nil)
        guard context.missedKeys == 0, !keepingUnknownKeys || context.askedForEveryKey(at: 0) else {
            throw ScanLeavesDocument()
        }
        return value
    }
}

/// Thrown inside a decode from the scan where another path must read the document: one
/// the scan does not take, or a stored decode the plain one does not settle. Never escapes
/// the codecs.
struct ScanLeavesDocument: Error {}

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
