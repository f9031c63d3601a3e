import Foundation
import RawCoding

/// Set-aside payloads, in `.set-aside/` as `<escaped key>@<milliseconds>-<unique>.<extension>`.
extension FileStore {
    public func setAside(forKey key: String) throws(RawCodingError) -> SetAsidePayload? {
        let file = try filePath(key)
        return try mutate(forKey: key, file: file) {
            () throws(RawCodingError) -> (result: SetAsidePayload?, changed: Bool) in
            let payload = try setAsideLocked(key, file: file)
            if payload != nil { try POSIXFiles.flushDirectory(path, key: key) }
            return (payload, payload != nil)
        }
    }

    /// Moves `file` into `.set-aside/`, byte for byte; the caller holds the lock and flushes
    /// the store's directory.
    private func setAsideLocked(_ key: String, file: String) throws(RawCodingError) -> SetAsidePayload? {
        let date = Date()
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let id = try names.setAsideID(for: key, milliseconds: milliseconds)
        guard let data = try POSIXFiles.read(file, key: key, maximumBytes: .max) else { return nil }
        try POSIXFiles.makeDirectory(setAsidePath, permissions: permissions, key: key)
        guard try POSIXFiles.move(file, to: setAsidePath + "/" + id, key: key) else { return nil }
        try POSIXFiles.flushDirectory(setAsidePath, key: key)
        return SetAsidePayload(
            id: id, key: key, date: Date(timeIntervalSince1970: Double(milliseconds) / 1000), content: .bytes(data))
    }

    /// Moves a payload just set aside back to `file`; the caller holds the lock.
    private func restore(
        _ payload: SetAsidePayload, to file: String, key: String, after failure: RawCodingError
    ) throws(RawCodingError) {
        do throws(RawCodingError) {
            _ = try POSIXFiles.move(setAsidePath + "/" + payload.id, to: file, key: key)
            try POSIXFiles.flushDirectory(path, key: key)
        } catch {
            throw RawCodingError.storage(
                "the new value could not be written (\(failure.reason)), and the payload set aside as "
                    + "\(payload.id) could not be moved back (\(error.reason)); it is in .set-aside",
                in: FileStore.self, key: key, underlying: error)
        }
    }

    public func replace(_ value: StoredValue?, forKey key: String, settingAside: Bool) throws(RawCodingError)
        -> SetAsidePayload?
    {
        let file = try filePath(key)
        // Encoded before anything moves: a value that cannot be written leaves the old payload.
        let data = try value.map { value throws(RawCodingError) in try fileData(value, key: key) }
        return try mutate(forKey: key, file: file) {
            () throws(RawCodingError) -> (result: SetAsidePayload?, changed: Bool) in
            let payload = settingAside ? try setAsideLocked(key, file: file) : nil
            var changed = payload != nil
            do throws(RawCodingError) {
                if let data {
                    try writeLocked(data, key: key, file: file)
                    changed = true
                } else if try POSIXFiles.remove(file, key: key) {
                    changed = true
                }
            } catch {
                // The write failed: the payload goes back under its key, so neither step happened.
                if let payload { try restore(payload, to: file, key: key, after: error) }
                throw error
            }
            if changed { try POSIXFiles.flushDirectory(path, key: key) }
            return (payload, changed)
        }
    }

    public func setAsidePayloads() throws(RawCodingError) -> [SetAsidePayload] {
        var payloads: [SetAsidePayload] = []
        for id in try POSIXFiles.names(in: setAsidePath, key: nil).sorted() {
            // Payloads of stores with other codecs in the directory are theirs.
            guard let (key, milliseconds) = names.setAside(id: id),
                let data = try POSIXFiles.read(setAsidePath + "/" + id, key: key, maximumBytes: .max)
            else { continue }
            payloads.append(
                SetAsidePayload(
                    id: id, key: key, date: Date(timeIntervalSince1970: Double(milliseconds) / 1000),
                    content: .bytes(data)))
        }
        return payloads.sorted { ($0.date, $0.id) < ($1.date, $1.id) }
    }

    public func discardSetAside(_ id: String) throws(RawCodingError) {
        guard !id.contains("/"), names.setAside(id: id) != nil else {
            throw RawCodingError.storage("\"\(id)\" is not a set-aside payload's id", in: FileStore.self, key: nil)
        }
        try POSIXFiles.remove(setAsidePath + "/" + id, key: nil)
    }
}
