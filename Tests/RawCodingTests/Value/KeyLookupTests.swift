import Foundation
import Testing

@testable import RawCoding

/// Key lookups in a tree's dictionaries read each key in place, without copying its entry:
/// the same answers as a plain search, from every starting point, with and without the index
/// of large dictionaries, for keys held in the string itself and keys on the heap.
@Suite("Key lookups in stored dictionaries")
struct KeyLookupTests {
    @Test func anEntrysKeyIsWhereTheEntryIs() {
        #expect(MemoryLayout<StoredDictionary.Element>.offset(of: \StoredDictionary.Element.key) == 0)
    }

    @Test func everyStartingPointFindsWhatASearchFinds() {
        for count in [0, 1, 2, 5, StoredDictionary.indexThreshold, StoredDictionary.indexThreshold + 1, 40] {
            for long in [false, true] {
                let keys = (0..<count).map { long ? "a key long enough for the heap \($0)" : "k\($0)" }
                let dictionary = StoredDictionary(readEntries: keys.enumerated().map { ($1, .int(Int64($0))) })
                let asked = keys + ["absent", long ? "a key long enough for the heap \(count)" : "k\(count)", ""]
                for key in asked {
                    let expected = keys.firstIndex(of: key)
                    #expect(dictionary.position(of: key) == expected, "\(key)")
                    for hint in 0...(count + 1) {
                        #expect(dictionary.position(of: key, startingAt: hint) == expected, "\(key) from \(hint)")
                    }
                }
            }
        }
    }

    @Test func repeatedKeysKeepTheLastValueInTheFirstPlace() {
        for count in [3, StoredDictionary.indexThreshold + 3] {
            var entries: [StoredDictionary.Element] = (0..<count).map {
                ("key \($0) on the heap, long enough", .int(Int64($0)))
            }
            entries.append((entries[1].key, .string("later")))
            let dictionary = StoredDictionary(readEntries: entries)
            #expect(dictionary.count == count)
            #expect(dictionary.position(of: entries[1].key) == 1)
            #expect(dictionary[entries[1].key] == .string("later"))
        }
    }
}
