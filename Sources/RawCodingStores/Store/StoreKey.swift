import Foundation
import RawCoding

/// Keys as stores that compare bytes keep them.
package enum StoreKey {
    /// `key` in its composed Unicode form (NFC), so that keys Swift finds equal (an "é" typed as
    /// e + U+0301, and the precomposed one) are one key. ASCII text is its own composed form and
    /// skips the normalization, the costly part of a short read.
    package static func composed(_ key: String) -> String {
        key.utf8.allSatisfy { $0 < 0x80 } ? key : key.precomposedStringWithCanonicalMapping
    }
}

/// Tables of the database stores.
package enum StoreTable {
    /// `name` as SQL quotes an identifier: in double quotes, each inner one doubled.
    package static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Refuses a table name no database takes: empty, or holding NUL.
    package static func check(_ name: String, in store: Any.Type) throws(RawCodingError) {
        guard name.isEmpty || name.contains("\u{0}") else { return }
        throw .storage("a table name must be non-empty text without NUL, not \"\(name)\"", in: store, key: nil)
    }
}

extension Codec {
    /// The bytes a byte store keeps for `value` under `key`: `null` at the top level is refused,
    /// and an encoding error names the key first.
    package func payload(of value: StoredValue, forKey key: String, in store: Any.Type) throws(RawCodingError)
        -> Data
    {
        if value.isNull { throw .nullAtTopLevel(in: store, key: key) }
        do throws(RawCodingError) {
            return try writeTree(value)
        } catch {
            throw error.at(key: key)
        }
    }

    /// The tree a byte store's payload under `key` holds; a decoding error names the key first.
    package func tree(ofPayload data: Data, forKey key: String) throws(RawCodingError) -> StoredValue {
        do throws(RawCodingError) {
            return try readTree(from: data)
        } catch {
            throw error.at(key: key)
        }
    }
}

extension SetAsidePayload {
    /// A new payload's identifier and time: the milliseconds since 1970, a dash and a random
    /// number in hexadecimal, so identifiers sort by time and never repeat.
    package static func newIdentifier() -> (id: String, milliseconds: Int64) {
        let milliseconds = Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down))
        return ("\(milliseconds)-\(String(UInt64.random(in: .min ... .max), radix: 16))", milliseconds)
    }

    /// The date of a payload set aside `milliseconds` after 1970.
    package static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
    }
}
