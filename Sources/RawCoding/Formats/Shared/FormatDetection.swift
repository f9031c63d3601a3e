import Foundation

/// Format detection, in one place and one order.
package enum TreeFormats {
    /// The format `data` is in: a binary property list by its signature, an XML property list
    /// when its first visible character is `<`, JSON otherwise.
    package static func detect(_ data: Data) -> any TreeFormat {
        if BinaryPropertyListTreeFormat.hasSignature(data) { return BinaryPropertyListTreeFormat() }
        if XMLPropertyListTreeFormat.hasSignature(data) { return XMLPropertyListTreeFormat() }
        return JSONTreeFormat()
    }
}
