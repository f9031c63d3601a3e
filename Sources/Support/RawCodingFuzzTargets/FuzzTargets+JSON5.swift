import Foundation
import RawCoding

extension FuzzTargets {
    /// The JSON5 reader: never a crash, and a superset of JSON: what the strict reader reads,
    /// the JSON5 reader reads as the same tree (both with and without assumed braces), but for
    /// strings holding U+0000, which JSON5 refuses.
    static func json5(_ data: Data) throws(FuzzFailure) {
        for assumesTopLevelDictionary in [false, true] {
            let json5 = JSONCodec(syntax: .json5, assumesTopLevelDictionary: assumesTopLevelDictionary)
            let strict = JSONCodec(assumesTopLevelDictionary: assumesTopLevelDictionary)
            let read: Result<StoredValue, RawCodingError>
            do throws(RawCodingError) { read = .success(try json5.readTree(from: data)) } catch {
                read = .failure(error)
            }
            let strictTree: StoredValue
            do throws(RawCodingError) { strictTree = try strict.readTree(from: data) } catch { continue }
            switch read {
            case .success(let tree) where tree == strictTree: continue
            case .failure(let error) where error.reason.contains("needs more stack than this thread has"): continue
            // JSON5 strings may not hold U+0000 (as in JSONDecoder's JSON5); JSON's may.
            case .failure(let error) where error.reason.contains("U+0000"): continue
            default:
                throw FuzzFailure(
                    "JSON reads \(strictTree) (assumed braces: \(assumesTopLevelDictionary)); JSON5 \(read)")
            }
        }
    }
}
