import Foundation
import RawCoding

/// What writing a value back needs to know of the payload it replaces: the keys to keep, and
/// whether the payload must be set aside first because it did not decode.
struct WriteBackBase: Sendable {
    var unknownKeys: StoredUnknownKeys
    var settingAside: Bool
    /// The form the payload decoded in; `nil` when the key holds nothing or the payload does
    /// not decode.
    var form: StoredForm?

    static let empty = WriteBackBase(unknownKeys: .none, settingAside: false, form: nil)

    /// Whether the write sets the payload aside first: it does not decode, or it is in
    /// another form than `written`.
    func setsAside(writing written: StoredForm) -> Bool {
        settingAside || (form.map { $0 != written } ?? false)
    }
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
            return WriteBackBase(unknownKeys: .none, settingAside: true, form: nil)
        }
        guard let tree else { return .empty }
        if let known = WriteBackMemo.base(of: tree, as: Value.self, forKey: key, in: self) { return known }
        do throws(RawCodingError) {
            // Only the unknown keys are wanted; the new value fills what the payload lacks.
            let found = try StoredForm.decode(Value.self, fromTree: tree, codec: codec, defaultValue: value)
            return WriteBackBase(unknownKeys: found.decoded.unknownKeys, settingAside: false, form: found.form)
        } catch {
            return WriteBackBase(unknownKeys: .none, settingAside: true, form: nil)
        }
    }

    /// The one write-back path of `set`, ``StoredProperty`` and its reset: encodes `value`
    /// first (`nil` removes the key) in the form `writing` chooses, keeping `base`'s unknown
    /// keys, then replaces the payload in one step of the store, setting it aside first if it
    /// does not decode or is in another form. An encoding failure leaves the store exactly as
    /// it was.
    /// - Returns: The tree written, or `nil` if the key was removed.
    @discardableResult
    func writeBack<Value: Encodable>(
        _ value: Value?, forKey key: String, codec: any Codec, base: WriteBackBase, writing: StoredWriting
    ) throws(RawCodingError) -> StoredValue? {
        var tree: StoredValue?
        let form = writing.form(over: base.form)
        if let value {
            do throws(RawCodingError) {
                let encoded = try form.encode(value, keeping: base.unknownKeys, codec: codec)
                tree = encoded.isNull ? nil : encoded
            } catch {
                throw error.at(key: key)
            }
        }
        // A removal sets aside only what does not decode: a value in another form is gone by
        // the caller's choice, as in the native form.
        _ = try replace(
            tree, forKey: key, settingAside: tree == nil ? base.settingAside : base.setsAside(writing: form))
        WriteBackMemo.remember(
            tree, as: Value.self, keeping: base.unknownKeys, form: form, forKey: key, in: self)
        return tree
    }
}

/// The payloads the write-backs wrote, by store, key and type, so that the next `set` of a
/// value does not decode what the last one wrote: a payload equal to one written from a
/// `Value` is taken to decode as `Value`, its unknown keys being those the write kept, as
/// ``StoredProperty`` takes its own writes. Any other payload (another writer's, a
/// migration's, one set aside) differs and is decoded. For an ``InMemoryStore`` the payload
/// read is the one written, and the comparison ends at the first container; for a byte
/// store it is a comparison of two trees, still far less than a decode.
///
/// Shared by every thread (a task may resume on another), behind one lock held only to look
/// up or replace an entry; at most ``capacity`` entries, found by a scan (cheaper than hashing
/// the key), the oldest replaced first, so a process holds at most that many trees beyond
/// what its stores hold.
enum WriteBackMemo {
    private struct Entry {
        var store: ObjectIdentifier
        var type: ObjectIdentifier
        var key: String
        var tree: StoredValue
        var unknownKeys: StoredUnknownKeys
        var form: StoredForm

        func isFor(_ store: ObjectIdentifier, _ type: ObjectIdentifier, _ key: String) -> Bool {
            self.store == store && self.type == type && self.key == key
        }
    }

    private struct Entries {
        var all: [Entry] = []
        /// Where the next entry goes once ``capacity`` are held.
        var next = 0
    }

    static let capacity = 32

    private static let entries = Locked(Entries())

    /// The base of writing a `Value` over `tree`, if `tree` is what the last write-back of a
    /// `Value` under `key` in `store` wrote.
    static func base<Value>(
        of tree: StoredValue, as type: Value.Type, forKey key: String, in store: some KeyValueStore
    ) -> WriteBackBase? {
        let store = ObjectIdentifier(store)
        let type = ObjectIdentifier(type)
        let entry = entries.withLock { entries in entries.all.first { $0.isFor(store, type, key) } }
        guard let entry, entry.tree == tree else { return nil }
        return WriteBackBase(unknownKeys: entry.unknownKeys, settingAside: false, form: entry.form)
    }

    /// Records what a write-back of a `Value` wrote under `key` in `store` (`nil`: it removed
    /// the key).
    static func remember<Value>(
        _ tree: StoredValue?, as type: Value.Type, keeping unknownKeys: StoredUnknownKeys, form: StoredForm,
        forKey key: String, in store: some KeyValueStore
    ) {
        let store = ObjectIdentifier(store)
        let type = ObjectIdentifier(type)
        // The entry it replaces is released after the lock, with whatever tree it held.
        var replaced: Entry?
        entries.withLock { entries in
            let position = entries.all.firstIndex { $0.isFor(store, type, key) }
            guard let tree else {
                if let position { replaced = entries.all.remove(at: position) }
                return
            }
            let entry = Entry(store: store, type: type, key: key, tree: tree, unknownKeys: unknownKeys, form: form)
            if let position {
                replaced = entries.all[position]
                entries.all[position] = entry
            } else if entries.all.count < capacity {
                entries.all.append(entry)
            } else {
                replaced = entries.all[entries.next]
                entries.all[entries.next] = entry
                entries.next = (entries.next + 1) % capacity
            }
        }
        _ = replaced
    }
}
