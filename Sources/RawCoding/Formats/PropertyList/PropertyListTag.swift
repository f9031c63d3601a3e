import Foundation

/// The elements of Apple's property-list DTD, with their names: one table for the XML reader
/// (which recognises them) and the XML writer (which writes them).
enum PropertyListTag: Equatable {
    case plist, dict, key, array, string, integer, real, `true`, `false`, date, data
    /// An element the DTD does not have, by its name (the reader reports it).
    case other(String)

    /// The element's name as written between `<` and `>`; `nil` for ``other(_:)``.
    var staticName: StaticString? {
        switch self {
        case .plist: "plist"
        case .dict: "dict"
        case .key: "key"
        case .array: "array"
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .true: "true"
        case .false: "false"
        case .date: "date"
        case .data: "data"
        case .other: nil
        }
    }

    /// `<name>`, whole, for the writers: one copy instead of three.
    var openingText: StaticString {
        switch self {
        case .plist: "<plist>"
        case .dict: "<dict>"
        case .key: "<key>"
        case .array: "<array>"
        case .string: "<string>"
        case .integer: "<integer>"
        case .real: "<real>"
        case .true: "<true>"
        case .false: "<false>"
        case .date: "<date>"
        case .data: "<data>"
        case .other: "<>"
        }
    }

    /// `</name>` and a newline, whole, for the writers.
    var closingText: StaticString {
        switch self {
        case .plist: "</plist>\n"
        case .dict: "</dict>\n"
        case .key: "</key>\n"
        case .array: "</array>\n"
        case .string: "</string>\n"
        case .integer: "</integer>\n"
        case .real: "</real>\n"
        case .true: "</true>\n"
        case .false: "</false>\n"
        case .date: "</date>\n"
        case .data: "</data>\n"
        case .other: "</>\n"
        }
    }

    /// `<name/>` and a newline, whole, for the writers.
    var emptyText: StaticString {
        switch self {
        case .plist: "<plist/>\n"
        case .dict: "<dict/>\n"
        case .key: "<key/>\n"
        case .array: "<array/>\n"
        case .string: "<string/>\n"
        case .integer: "<integer/>\n"
        case .real: "<real/>\n"
        case .true: "<true/>\n"
        case .false: "<false/>\n"
        case .date: "<date/>\n"
        case .data: "<data/>\n"
        case .other: "</>\n"
        }
    }

    /// The element's name, for messages.
    var name: String {
        switch self {
        case .other(let name): name
        default: staticName.map { "\($0)" } ?? ""
        }
    }

    /// The element named by `name` (bytes of a tag name).
    static func named(_ name: UnsafeBufferPointer<UInt8>) -> PropertyListTag {
        @inline(__always)
        func equals(_ tag: PropertyListTag) -> Bool {
            guard let text = tag.staticName, text.utf8CodeUnitCount == name.count else { return false }
            return memcmp(name.baseAddress!, text.utf8Start, name.count) == 0
        }
        switch name.count {
        case 3 where equals(.key): return .key
        case 4 where equals(.dict): return .dict
        case 4 where equals(.real): return .real
        case 4 where equals(.true): return .true
        case 4 where equals(.date): return .date
        case 4 where equals(.data): return .data
        case 5 where equals(.array): return .array
        case 5 where equals(.false): return .false
        case 5 where equals(.plist): return .plist
        case 6 where equals(.string): return .string
        case 7 where equals(.integer): return .integer
        default: break
        }
        return .other(String(decoding: name, as: UTF8.self))
    }
}
