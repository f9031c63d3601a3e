import Foundation
import RawCoding

/// What writing a value back needs to know of the payload it replaces: the keys to keep, and
/// whether the payload must be set aside first because it did not decode.
struct WriteBackBase: Sendable {
    var unknownKeys: StoredUnknownKeys
    var settingAside: Bool

    static let empty = WriteBackBase(unknownKeys: .none, settingAside: false)
}

extension RawCodingError {
    /// Whether reading failed in the storage itself (I/O), not because the payload does not
    /// decode: such a payload may be valid, so it is never set aside.
    var isStorageFailure: Bool { kind == .storageFailed }
}

extension KeyValueStore {
    /// The base for writing a `Value` back over what `key` holds: its unknown keys when it
    /// decodes (filled from `value`, which is written anyway), set-aside when it does not.
    /// - Throws: A storage failure of the read, before anything is written.
    func writeBackBase<Value: Codable>(
        of value: Value, forKey key: String, codec: any Codec
    ) throws(RawCodingError) -> WriteBackBase {
        let tree: StoredValue?
        do throws(RawCodingError) {
            tree = try read(forKey: key)
        } catch  where error.isStorageFailure {
            throw error
        } catch {
            return WriteBackBase(unknownKeys: .none, settingAside: true)
        }
        guard let tree else { return .empty }
        do throws(RawCodingError) {
            // Only the unknown keys are wanted; the new value fills what the payload lacks.
            let decoded = try codec.decodeStored(Value.self, fromTree: tree, defaultValue: value)
            return WriteBackBase(unknownKeys: decoded.unknownKeys, settingAside: false)
        } catch {
            return WriteBackBase(unknownKeys: .none, settingAside: true)
        }
    }

    /// The one write-back path of `set`, ``StoredProperty`` and its reset: encodes `value`
    /// first (`nil` removes the key), keeping `base`'s unknown keys, then replaces the payload
    /// in one step of the store, setting it aside first if `base` says so. An encoding failure
    /// leaves the store exactly as it was.
    /// - Returns: The tree written, or `nil` if the key was removed.
    @discardableResult
    func writeBack<Value: Encodable>(
        _ value: Value?, forKey key: String, codec: any Codec, base: WriteBackBase
    ) throws(RawCodingError) -> StoredValue? {
        var tree: StoredValue?
        if let value {
            do throws(RawCodingError) {
                let encoded = try codec.encodeStoredTree(value, keeping: base.unknownKeys)
                tree = encoded.isNull ? nil : encoded
            } catch {
                throw error.at(key: key)
            }
        }
        _ = try replace(tree, forKey: key, settingAside: base.settingAside)
        return tree
    }
}
