import Foundation
import RawCoding
import Testing

/// A model beside a backend that writes its keys in another convention.
private struct Account: Codable, Equatable {
    var userName: String
    var accountId: Int
}

/// The codecs, each with the key strategies it has.
enum LookalikeKeyCodec: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case json, jsonPretty, jsonSnakeCase, xmlPropertyList, binaryPropertyList

    var codec: any Codec {
        switch self {
        case .json: JSONCodec.json
        case .jsonPretty: JSONCodec.json(.pretty)
        case .jsonSnakeCase: JSONCodec(keys: .snakeCase)
        case .xmlPropertyList: PropertyListCodec.propertyList(.xml)
        case .binaryPropertyList: PropertyListCodec.propertyList(.binary)
        }
    }

    /// How the codec writes a model key.
    func stored(_ modelKey: String) -> String {
        guard self == .jsonSnakeCase else { return modelKey }
        return modelKey == "userName" ? "user_name" : modelKey == "accountId" ? "account_id" : modelKey
    }

    var testDescription: String { rawValue }
}

@Suite("Unknown keys that look like the model's keys")
struct LookalikeKeysTests {
    @Test(arguments: LookalikeKeyCodec.allCases)
    func aSnakeCaseKeyBesideTheModelsCamelCaseKeyIsKept(_ keyed: LookalikeKeyCodec) throws {
        let codec = keyed.codec
        let payload: StoredValue
        if keyed == .jsonSnakeCase {
            // The codec reads snake case; a key that converts to a model key in another way
            // (a trailing underscore) is a stranger. (A camel-case `userName` here would collide
            // with `user_name` when converted, and the first in the document wins, as in
            // JSONDecoder.)
            payload = ["user_name": "ada", "user_name_": "legacy", "account_id": 7]
        } else {
            payload = ["userName": "ada", "user_name": "legacy", "account_id": 7, "accountId": 7]
        }
        let stored = try codec.decodeStored(Account.self, from: codec.writeTree(payload))
        #expect(stored.value == Account(userName: "ada", accountId: 7))
        let written = try codec.readTree(from: codec.encodeStored(stored.value, keeping: stored.unknownKeys))
        #expect(written == payload)
    }

    @Test(arguments: LookalikeKeyCodec.allCases)
    func writeBackKeepsEveryKeyTheModelDoesNotRead(_ keyed: LookalikeKeyCodec) throws {
        let codec = keyed.codec
        var generator = SeededGenerator(state: 0x5EED_0000 + UInt64(keyed.rawValue.utf8.count))
        let parts = ["user", "name", "account", "id", "Name", "Id", "ID", "URL", "x"]
        let separators = ["", "_", "__", "-"]
        for _ in 0..<300 {
            var payload: StoredValue = [keyed.stored("userName"): "ada", keyed.stored("accountId"): 7]
            var extras: [String: StoredValue] = [:]
            for index in 0..<Int.random(in: 1...4, using: &generator) {
                var key = ""
                for position in 0..<Int.random(in: 1...3, using: &generator) {
                    if position > 0 || Bool.random(using: &generator) {
                        key += separators.randomElement(using: &generator)!
                    }
                    key += parts.randomElement(using: &generator)!
                }
                if Bool.random(using: &generator) { key = key.prefix(1).lowercased() + key.dropFirst() }
                // The keys the codec writes for the model are the model's, not extras.
                guard key != keyed.stored("userName"), key != keyed.stored("accountId"), payload[key] == nil else {
                    continue
                }
                payload[key] = .int(Int64(index))
                extras[key] = .int(Int64(index))
            }
            let stored = try codec.decodeStored(Account.self, from: codec.writeTree(payload))
            let written = try codec.readTree(from: codec.encodeStored(stored.value, keeping: stored.unknownKeys))
            for (key, value) in extras {
                #expect(written[key] == value, "\(keyed): \(key) lost from \(payload)")
            }
        }
    }
}
