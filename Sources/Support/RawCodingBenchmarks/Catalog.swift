import Foundation
import RawCoding

/// The benchmark model: a product catalog of the kind apps cache, with ints, doubles, strings,
/// arrays, optionals, dates and bools.
struct Catalog: Codable, Equatable {
    struct Record: Codable, Equatable {
        struct Dimensions: Codable, Equatable {
            var width: Double
            var height: Double
            var depth: Double?
        }

        var id: Int
        var sku: String
        var name: String
        var price: Double
        var discount: Double?
        var tags: [String]
        var ratings: [Int]
        var inStock: Bool
        var stock: Int
        var created: Date
        var updated: Date?
        var dimensions: Dimensions
        var note: String?
    }

    var title: String
    var generated: Date
    var records: [Record]

    /// A deterministic catalog of `count` records.
    static func make(count: Int) -> Catalog {
        Catalog(
            title: "Catalog",
            generated: Date(timeIntervalSinceReferenceDate: 800_000_000),
            records: (0..<count).map(record))
    }

    private static func record(_ index: Int) -> Record {
        let created = Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(index) * 3_600)
        let updated: Date? = index % 3 == 0 ? created.addingTimeInterval(86_400) : nil
        let dimensions = Record.Dimensions(
            width: Double(index % 100) / 4, height: 12.5, depth: index % 2 == 0 ? Double(index % 7) : nil)
        return Record(
            id: index,
            sku: "SKU-\(100_000 + index)",
            name: "Item \(index) — café édition",
            price: Double(index) * 1.25 + 0.99,
            discount: index % 4 == 0 ? 0.15 : nil,
            tags: ["tag\(index % 7)", "sale", "group\(index % 3)"],
            ratings: [index % 5, (index + 1) % 5, (index + 2) % 5],
            inStock: index % 3 != 0,
            stock: index * 7 % 1_000,
            created: created,
            updated: updated,
            dimensions: dimensions,
            note: index % 5 == 0 ? "Limited run \(index)" : nil)
    }
}

/// A record as an evolving app stores it: with a default that fills keys older data lacks, and
/// a version.
struct EvolvingRecord: Codable, Equatable, StoredDefault, StoredVersioned {
    var record: Catalog.Record
    var starred = false

    static let defaultValue = EvolvingRecord(record: Catalog.make(count: 1).records[0])
    static var storedVersion: Int { 2 }
    static var migrations: [StoredMigration] { [.tree(from: 1) { tree in tree["starred"] = false }] }
}
