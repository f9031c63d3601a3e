import Foundation
import RawCoding
import RawCodingStores
import Testing

struct CodableStruct: Codable, Sendable, Equatable {
    var name: String
    var value: Int
}

enum TestEnum: String, Codable, Sendable {
    case first = "first_value"
    case second = "second_value"
}

/// `DefaultsBridgeTests.swift`: Defaults' bridges are how a value becomes property-list
/// objects; here that is the native form, and Defaults' own forms are `StoredForm`s, read always
/// and written on request.
enum BridgePort {
    static let file = "DefaultsBridgeTests"
    static let jsonKept =
        "stored natively (a dictionary), not as Defaults' JSON text; .always(.jsonText) writes that, and both are read"

    static func roundTrip<T: Codable & Sendable & Equatable>(
        _ suite: PortSuite, _ name: String, _ defaultValue: T, _ newValue: T
    ) throws {
        let key = suite.key(name, default: defaultValue)
        #expect(key.value == defaultValue)
        key.value = newValue
        #expect(key.value == newValue)
        #expect(try suite.persisted(name, default: defaultValue) == newValue)
    }

    static let cases: [DefaultsCase] = [
        DefaultsCase(file, "testCodableBridge", .keptDifference(jsonKept)) { (suite: PortSuite) throws in
            try roundTrip(
                suite, "codableStruct", CodableStruct(name: "default", value: 0), CodableStruct(name: "test", value: 42)
            )
            #expect(suite.defaults.dictionary(forKey: "codableStruct")?["name"] as? String == "test")
            try suite.store.set(CodableStruct(name: "json", value: 1), forKey: "json", writing: .always(.jsonText))
            #expect(suite.defaults.string(forKey: "json") == #"{"name":"json","value":1}"#)
            #expect(try suite.store.value(CodableStruct.self, forKey: "json") == CodableStruct(name: "json", value: 1))
        },
        DefaultsCase(file, "testCustomBridge") { (suite: PortSuite) throws in
            try roundTrip(suite, "customBridge", RawStruct(rawValue: "default"), RawStruct(rawValue: "custom"))
            #expect(suite.defaults.string(forKey: "customBridge") == "custom")
        },
        DefaultsCase(file, "testRawRepresentablePreference") { (suite: PortSuite) throws in
            try roundTrip(suite, "rawRepresentable", TestEnum.first, .second)
            #expect(suite.defaults.string(forKey: "rawRepresentable") == "second_value")
        },
        DefaultsCase(file, "testCodableEnum") { (suite: PortSuite) throws in
            // Defaults writes `"\"beta_value\""`; the native form is the raw value, and Defaults' is read.
            suite.defaults.set(#""beta_value""#, forKey: "codableEnum")
            #expect(suite.key("codableEnum", default: CodableEnumAlpha.alpha).value == .beta)
            let read = try suite.store.value(CodableEnumAlpha.self, forKey: "codableEnum")
            #expect(read == .beta)
        },
        DefaultsCase(file, "testOptionalBridge") { (suite: PortSuite) throws in
            try expectAnOptionalStringRoundTrips(suite, "optionalBridge", "value")
        },
        DefaultsCase(file, "testArrayBridge") { (suite: PortSuite) throws in
            try roundTrip(
                suite, "arrayBridge", [CodableStruct(name: "a", value: 1)], [CodableStruct(name: "b", value: 2)])
            // Defaults' form: each element JSON text.
            suite.defaults.set([#"{"name":"c","value":3}"#], forKey: "defaultsArray")
            #expect(
                try suite.store.value([CodableStruct].self, forKey: "defaultsArray") == [
                    CodableStruct(name: "c", value: 3)
                ])
        },
        DefaultsCase(file, "testDictionaryBridge") { (suite: PortSuite) throws in
            try roundTrip(
                suite, "dictionaryBridge", ["a": CodableStruct(name: "a", value: 1)],
                ["b": CodableStruct(name: "b", value: 2)])
            suite.defaults.set(["k": #"{"name":"c","value":3}"#], forKey: "defaultsDictionary")
            #expect(
                try suite.store.value([String: CodableStruct].self, forKey: "defaultsDictionary")
                    == ["k": CodableStruct(name: "c", value: 3)])
        },
        DefaultsCase(file, "testSetBridge") { (suite: PortSuite) throws in
            try roundTrip(suite, "setBridge", Set(["a"]), Set(["b", "c"]))
        },
        DefaultsCase(
            file, "testURLBridge",
            .keptDifference("a URL is stored as its absolute string, not Defaults' JSON text of it; both are read")
        ) { (suite: PortSuite) throws in
            try roundTrip(suite, "urlBridge", fixtureURL, fixtureURL2)
            #expect(suite.defaults.string(forKey: "urlBridge") == fixtureURL2.absoluteString)
            suite.defaults.set(#""https:\/\/example.com\/x""#, forKey: "defaultsURL")
            #expect(try suite.store.value(URL.self, forKey: "defaultsURL") == URL(string: "https://example.com/x"))
        },
        DefaultsCase(file, "testUUIDBridge") { (suite: PortSuite) throws in
            let uuid = UUID()
            try roundTrip(suite, "uuidBridge", UUID(uuidString: "00000000-0000-0000-0000-000000000000")!, uuid)
            #expect(suite.defaults.string(forKey: "uuidBridge") == uuid.uuidString)
        },
        DefaultsCase(file, "testRangeBridge") { (suite: PortSuite) throws in
            try roundTrip(suite, "rangeBridge", 0..<1, 5..<10)
            #expect(suite.defaults.array(forKey: "rangeBridge") as? [Int] == [5, 10])
        },
        DefaultsCase(file, "testClosedRangeBridge") { (suite: PortSuite) throws in
            try roundTrip(suite, "closedRangeBridge", 0...1, 5...10)
            #expect(suite.defaults.array(forKey: "closedRangeBridge") as? [Int] == [5, 10])
        },
        DefaultsCase(file, "testSerializableTypeConversions") { (suite: PortSuite) throws in
            try roundTrip(suite, "int", 0, 42)
            try roundTrip(suite, "double", 0.0, 3.25)
            try roundTrip(suite, "bool", false, true)
            try roundTrip(suite, "string", "", "text")
            try roundTrip(suite, "data", Data(), Data([1, 2]))
            try roundTrip(suite, "date", Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_000))
        },
        DefaultsCase(file, "testNativeTypeSupportFlags") { (suite: PortSuite) throws in
            // Native types are stored as themselves, readable by plain UserDefaults.
            suite.key("n", default: 0).value = 7
            #expect(suite.defaults.integer(forKey: "n") == 7)
            suite.key("s", default: "").value = "x"
            #expect(suite.defaults.string(forKey: "s") == "x")
        },
        DefaultsCase(
            file, "testInvalidSerializationHandling",
            .keptDifference(
                "a payload that does not decode reads as the default, with the error kept and reported, and is set aside, not lost, by the next write"
            )
        ) { (suite: PortSuite) throws in
            suite.defaults.set("not json", forKey: "invalid")
            let key = suite.key("invalid", default: CodableStruct(name: "default", value: 0))
            #expect(key.value == CodableStruct(name: "default", value: 0))
            #expect(key.property.error != nil)
            key.value = CodableStruct(name: "new", value: 1)
            let aside = try key.property.setAsidePayloads()
            #expect(aside.map(\.content) == [.tree("not json")])
        },
    ]
}

enum CodableEnumAlpha: String, Codable, Sendable {
    case alpha = "alpha_value"
    case beta = "beta_value"
}

/// `DefaultsStressTests.swift`, at sizes a test run affords.
enum StressPort {
    static let file = "DefaultsStressTests"

    static let cases: [DefaultsCase] = [
        DefaultsCase(file, "testConcurrentReadWrite") { (suite: PortSuite) async throws in
            let key = suite.key("concurrentTest", default: 0)
            await withTaskGroup(of: Void.self) { group in
                for index in 1...200 {
                    group.addTask {
                        key.value = index
                        _ = key.value
                    }
                }
            }
            #expect((1...200).contains(key.value))
            #expect(try suite.persisted("concurrentTest", default: 0) == key.value)
        },
        DefaultsCase(file, "testConcurrentDifferentKeys") { (suite: PortSuite) async throws in
            let keys = (0..<50).map { suite.key("concurrent_\($0)", default: $0) }
            await withTaskGroup(of: Void.self) { group in
                for (index, key) in keys.enumerated() { group.addTask { key.value = index * 2 } }
            }
            for (index, key) in keys.enumerated() { #expect(key.value == index * 2) }
        },
        DefaultsCase(file, "testRapidKeyUpdates") { (suite: PortSuite) throws in
            let key = suite.key("rapidUpdate", default: 0)
            for index in 1...100 { key.value = index }
            #expect(key.value == 100)
            #expect(try suite.persisted("rapidUpdate", default: 0) == 100)
        },
        DefaultsCase(file, "testLargeDataStorage") { (suite: PortSuite) throws in
            let large = String(repeating: "A", count: 100_000)
            try BridgePort.roundTrip(suite, "largeString", "", large)
            try BridgePort.roundTrip(suite, "largeData", Data(), Data(repeating: 0xFF, count: 100_000))
        },
        DefaultsCase(file, "testLargeArrayStorage") { (suite: PortSuite) throws in
            try BridgePort.roundTrip(suite, "largeArray", [Int](), Array(0..<10_000))
        },
        DefaultsCase(file, "testLargeDictionaryStorage") { (suite: PortSuite) throws in
            try BridgePort.roundTrip(
                suite, "largeDictionary", [String: Int](),
                Dictionary(uniqueKeysWithValues: (0..<1000).map { ("key_\($0)", $0) }))
        },
        DefaultsCase(file, "testDeepNesting") { (suite: PortSuite) throws in
            let deep: [String: [String: [String: Int]]] = ["level1": ["level2": ["level3": 42]]]
            try BridgePort.roundTrip(suite, "deepNesting", [:], deep)
        },
        DefaultsCase(file, "testManyKeys") { (suite: PortSuite) throws in
            let keys = (0..<100).map { suite.key("manyKeys_\($0)", default: "default_\($0)") }
            for (index, key) in keys.enumerated() { key.value = "value_\(index)" }
            for (index, key) in keys.enumerated() { #expect(key.value == "value_\(index)") }
            #expect(try suite.store.keys().count == 100)
        },
        DefaultsCase(file, "testConcurrentObservations") { (suite: PortSuite) throws in
            let key = suite.key("observationStress", default: 0)
            let count = Box(0)
            let observations = (0..<10).map { _ in
                suite.store.observe { if $0.affects(key.name) { count.value += 1 } }
            }
            for index in 1...10 { key.value = index }
            #expect(count.value == 100)
            for observation in observations { observation.cancel() }
        },
        DefaultsCase(file, "testMemoryPressure") { (suite: PortSuite) throws in
            for iteration in 0..<3 {
                let keys = (0..<30).map {
                    suite.key("memoryTest_\(iteration)_\($0)", default: Data(repeating: 0, count: 1000))
                }
                for key in keys { key.value = Data(repeating: 1, count: 1000) }
                for key in keys { try key.reset() }
            }
            #expect(try suite.store.keys().isEmpty)
        },
        DefaultsCase(file, "testEdgeCaseEmptyValues") { (suite: PortSuite) throws in
            try BridgePort.roundTrip(suite, "emptyString", "default", "")
            try BridgePort.roundTrip(suite, "emptyArray", [1], [Int]())
            try BridgePort.roundTrip(suite, "emptyDictionary", ["a": 1], [String: Int]())
            try BridgePort.roundTrip(suite, "emptyData", Data([1]), Data())
        },
        DefaultsCase(file, "testUnicodeAndSpecialCharacters") { (suite: PortSuite) throws in
            let key = suite.key("unicodeTest", default: "")
            for text in ["Hello 世界 🌍", "Emoji: 😀😃😄😁😆", "Special: !@#$%^&*()", "Newlines\nand\ttabs", "\u{0301}e"] {
                key.value = text
                #expect(key.value == text)
                #expect(try suite.persisted("unicodeTest", default: "") == text)
            }
        },
        DefaultsCase(file, "testNumericEdgeCases") { (suite: PortSuite) throws in
            try BridgePort.roundTrip(suite, "intMax", 0, Int.max)
            try BridgePort.roundTrip(suite, "intMin", 0, Int.min)
            try BridgePort.roundTrip(suite, "doubleMax", 0.0, Double.greatestFiniteMagnitude)
            try BridgePort.roundTrip(suite, "doubleTiny", 0.0, Double.leastNonzeroMagnitude)
            try BridgePort.roundTrip(suite, "infinity", 0.0, Double.infinity)
        },
        DefaultsCase(file, "testRapidResetCycle") { (suite: PortSuite) throws in
            let key = suite.key("rapidReset", default: 42)
            for index in 0..<50 {
                key.value = index * 100
                #expect(key.value == index * 100)
                try key.reset()
                #expect(key.value == 42)
            }
        },
        DefaultsCase(file, "testSuiteInterference") { (suite: PortSuite) throws in
            let other = PortSuite()
            let key1 = suite.key("interference", default: "default")
            let key2 = other.key("interference", default: "default")
            key1.value = "suite1"
            key2.value = "suite2"
            #expect(key1.value == "suite1")
            #expect(key2.value == "suite2")
            #expect(key1 != key2)
        },
    ]
}
