import Foundation

/// Keys as stores that compare bytes keep them.
package enum StoreKey {
    /// `key` in its composed Unicode form (NFC), so that keys Swift finds equal (an "é" typed as
    /// e + U+0301, and the precomposed one) are one key. ASCII text is its own composed form and
    /// skips the normalization, the costly part of a short read.
    package static func composed(_ key: String) -> String {
        key.utf8.allSatisfy { $0 < 0x80 } ? key : key.precomposedStringWithCanonicalMapping
    }
}
