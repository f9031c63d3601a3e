import Foundation
import RawCoding

/// A recursive model with a field of every kind, for decoding arbitrary trees.
final class FuzzNode: Codable {
    enum Choice: Codable {
        case number(Int)
        case named(name: String, FuzzNode?)
        case empty
    }

    var name: String?
    var value: Double?
    var small: Int8?
    var big: UInt64?
    var exact: Decimal?
    var flag: Bool?
    var date: Date?
    var bytes: Data?
    var children: [FuzzNode]?
    var map: [String: FuzzNode]?
    var next: FuzzNode?
    var tags: Set<String>?
    var choice: Choice?
}

/// Settings with a history: release 1 had `name` and `volume` as text, release 2 renamed
/// `name`, release 3 made `volume` a number and added `account`.
struct FuzzSettings: Codable, Equatable, StoredDefault, StoredVersioned {
    struct Account: Codable, Equatable {
        var plan = "free"
        var seats: Int16 = 1
    }

    var username = ""
    var volume = 0.5
    var tags: [String] = []
    var account = Account()
    var lastSeen: Date?

    static let defaultValue = FuzzSettings()
    static let storedVersion = 3
    static let migrations: [StoredMigration] = [
        .tree(from: 1) { tree in tree.renameKey("name", to: "username") },
        .tree(from: 2) { tree in
            if let text = tree["volume"]?.stringValue {
                guard let number = Double(text) else {
                    throw RawCodingError(
                        kind: .migrationFailed, typeName: "FuzzSettings", reason: "volume \(text) is not a number")
                }
                tree = tree.merging(["volume": .double(number)])
            }
        },
    ]
}

/// A recursive model that compares equal, with the kinds the JSON scan decodes on its own
/// (strings, numbers, Booleans, arrays of them) and those it hands to the tree decoder.
struct FuzzDocument: Codable, Equatable {
    var name: String?
    var value: Double?
    var small: Int8?
    var big: UInt64?
    var exact: Decimal?
    var flag: Bool?
    var date: Date?
    var bytes: Data?
    var numbers: [Double]?
    var floats: [Float]?
    var words: [String]?
    var counts: [Int]?
    var any: StoredValue?
    var children: [FuzzDocument]?
    var map: [String: FuzzDocument]?
}

/// A record with a default and no version: `JSONCodec.decodeStored` reads it from the scan,
/// where the fuzz target checks it gives what reading the tree gives.
struct FuzzDefaulted: Codable, Equatable, StoredDefault {
    var name: String
    var count: Int
    var child: FuzzDocument?
    static let defaultValue = FuzzDefaulted(name: "default", count: 7, child: FuzzDocument(name: "inner"))
}
