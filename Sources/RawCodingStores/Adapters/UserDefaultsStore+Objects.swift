import Foundation
import RawCoding

extension UserDefaultsStore {
    /// The property-list object `tree` is kept as under `key`.
    static func object(from tree: StoredValue, key: String) throws(RawCodingError) -> Any {
        do throws(RawCodingError) {
            return try DefaultsDates.keepingFractions(tree).propertyListObject()
        } catch {
            throw error.at(key: key)
        }
    }

    /// The tree kept as `object` under `key`.
    static func tree(from object: Any, key: String) throws(RawCodingError) -> StoredValue {
        do throws(RawCodingError) {
            return DefaultsDates.restoringFractions(try StoredValue(propertyList: object))
        } catch {
            throw error.at(key: key)
        }
    }
}

/// Dates with a fraction of a second, kept exactly where `UserDefaults` would round them.
///
/// Outside Apple systems `UserDefaults` writes its file as an XML property list, whose dates
/// hold whole seconds: a `Date` read back after the file was loaded again (by another
/// process, or by this one when Foundation reloads it, which depends on timing) had lost its
/// fraction. There such a date is kept as a one-entry dictionary, `{"RawCoding.date": seconds
/// since 2001}`, a real that holds it exactly, and read back as the date. Apple systems keep
/// dates exactly, as they are.
enum DefaultsDates {
    static let key = "RawCoding.date"

    static func keepingFractions(_ tree: StoredValue) -> StoredValue {
        #if canImport(Darwin)
            return tree
        #else
            switch tree {
            case .date(let date):
                let seconds = date.timeIntervalSinceReferenceDate
                return seconds.rounded() == seconds ? tree : .dictionary([key: .double(seconds)])
            case .array(let elements):
                return .array(elements.map(keepingFractions))
            case .dictionary(let dictionary):
                return .dictionary(StoredDictionary(dictionary.map { ($0.key, keepingFractions($0.value)) }))
            default:
                return tree
            }
        #endif
    }

    static func restoringFractions(_ tree: StoredValue) -> StoredValue {
        #if canImport(Darwin)
            return tree
        #else
            switch tree {
            case .array(let elements):
                return .array(elements.map(restoringFractions))
            case .dictionary(let dictionary):
                if dictionary.count == 1, case .double(let seconds)? = dictionary[key] {
                    return .date(Date(timeIntervalSinceReferenceDate: seconds))
                }
                return .dictionary(StoredDictionary(dictionary.map { ($0.key, restoringFractions($0.value)) }))
            default:
                return tree
            }
        #endif
    }
}
