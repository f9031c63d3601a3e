import Foundation

extension Data {
    /// The UTF-8 bytes of `string`, copied in one call: `Data(string.utf8)` goes through the
    /// generic sequence initializer and its dynamic casts (about 700 instructions for a short
    /// string, more than the copy).
    init(utf8Of string: String) {
        var string = string
        self = string.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return Data() }
            return Data(bytes: base, count: bytes.count)
        }
    }
}
