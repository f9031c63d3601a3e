import Foundation
import RawCoding
import RawCodingStores
import Testing

/// Defaults' files that run one matrix of key shapes over a type (a `Codable` struct, enums,
/// collections, set algebras, custom bridges, ranges, sets, arrays, dictionaries, `AnySerializable`):
/// each shape is one case, with Defaults' own steps: read the default, change the value in
/// place, read it back; here also through a new store instance, so the value was written.
enum TypeMatrixPort {
    /// Defaults' shapes, by their test names.
    enum Shape: String, CaseIterable {
        case key = "testKey"
        case optionalKey = "testOptionalKey"
        case arrayKey = "testArrayKey"
        case arrayOptionalKey = "testArrayOptionalKey"
        case nestedArrayKey = "testNestedArrayKey"
        case arrayDictionaryKey = "testArrayDictionaryKey"
        case dictionaryKey = "testDictionaryKey"
        case dictionaryOptionalKey = "testDictionaryOptionalKey"
        case dictionaryArrayKey = "testDictionaryArrayKey"
        case type = "testType"
        case arrayType = "testArrayType"
        case dictionaryType = "testDictionaryType"
        case observeKey = "testObserveKeyCombine"
        case observeOptionalKey = "testObserveOptionalKeyCombine"
    }

    static let twelve: [Shape] = [
        .key, .optionalKey, .arrayKey, .arrayOptionalKey, .nestedArrayKey, .arrayDictionaryKey, .dictionaryKey,
        .dictionaryOptionalKey, .dictionaryArrayKey, .type, .arrayType, .dictionaryType,
    ]

    static var cases: [DefaultsCase] {
        matrix("DefaultsCodableTests", twelve, Unicorn(isUnicorn: true), Unicorn(isUnicorn: false))
            + matrix("DefaultsCodableEnumTests", twelve, CodableEnum.tenMinutes, .halfHour)
            + matrix("DefaultsEnumTests", twelve, FixtureEnum.tenMinutes, .oneHour)
            + matrix("DefaultsCollectionTests", twelve, Bag(["Juice", "Apple", "Banana"]), Bag(["Pear"]))
            + matrix(
                "DefaultsCollectionCustomElementTests", twelve, Bag([Item(name: "Apple", count: 60)]),
                Bag([Item(name: "Banana", count: 20), Item(name: "Grape", count: 10)]))
            + matrix("DefaultsSetAlgebraTests", twelve, SetAlgebra([0, 1]), SetAlgebra([2]))
            + matrix(
                "DefaultsSetAlgebraCustomElementTests", twelve, SetAlgebra([Item(name: "Apple", count: 60)]),
                SetAlgebra([Item(name: "Grape", count: 10)]))
            + matrix(
                "DefaultsCustomBridgeTests", twelve, User(username: "hank121314", password: "123456"),
                User(username: "sindresorhus", password: "654321"))
            + setKey(
                "DefaultsCustomBridgeTests", User(username: "a", password: "1"), User(username: "b", password: "2"))
            + matrix("DefaultsRangeTests", [.key, .optionalKey, .arrayKey, .dictionaryKey], 0..<1, 1..<2)
            + matrix("DefaultsSetTests", [.key, .optionalKey, .arrayKey, .dictionaryKey], Set([0, 1]), Set([2]))
            + matrix(
                "DefaultsArrayTests", [.key, .optionalKey, .type, .observeKey, .observeOptionalKey], ["Hank", "Chen"],
                ["John", "Chen"])
            + renamed(
                "DefaultsArrayTests", [(.arrayKey, "testNestedKey"), (.dictionaryKey, "testDictionaryKey")],
                ["Hank", "Chen"], ["Sindre", "Sorhus"])
            + renamed(
                "DefaultsArrayTests", [(.arrayDictionaryKey, "testNestedDictionaryKey")], [["0": 0]], [["0": 1]])
            + matrix("DefaultsDictionaryTests", [.key, .optionalKey, .type], ["0": "Hank"], ["0": "Chen"])
            + renamed(
                "DefaultsDictionaryTests", [(.dictionaryKey, "testNestedKey"), (.arrayKey, "testArrayKey")],
                ["0": "Hank"], ["0": "Chen"])
            + renamed("DefaultsDictionaryTests", [(.key, "testIntKey")], [0: "Hank"], [1: "Chen"])
            + matrix(
                "DefaultsAnySeriliazableTests",
                [
                    .key, .optionalKey, .arrayKey, .arrayOptionalKey, .nestedArrayKey, .dictionaryKey,
                    .dictionaryOptionalKey, .dictionaryArrayKey, .type, .arrayType, .dictionaryType, .observeKey,
                    .observeOptionalKey,
                ], StoredValue.string("🦄"), StoredValue.int(123))
            + setKey("DefaultsAnySeriliazableTests", StoredValue.string("🦄"), StoredValue.double(1.5))
            + extras
    }

    /// The cases of a file outside the matrix.
    static let extras: [DefaultsCase] = [
        DefaultsCase(
            "DefaultsCodableTests", "testCodableAndRawRepresentable",
            .keptDifference(
                "a Codable RawRepresentable value is stored natively as its raw value (\"x\"), not as Defaults' "
                    + "JSON text (\"\\\"x\\\"\"), which .always(.jsonText) writes; a type that decodes from any "
                    + "string reads that text as itself, quotes and all (an enum of fixed cases reads it as JSON)")
        ) { (suite: PortSuite) throws in
            let key: StoredKey<RawStruct?> = suite.key("independentKey_codableAndRawRepresentable")
            key.value = RawStruct(rawValue: "x")
            #expect(key.value?.rawValue == "x")
            #expect(suite.defaults.string(forKey: key.name) == "x")
            try suite.store.set(RawStruct(rawValue: "x"), forKey: "defaultsForm", writing: .always(.jsonText))
            #expect(suite.defaults.string(forKey: "defaultsForm") == #""x""#)
            #expect(try suite.store.value(RawStruct.self, forKey: "defaultsForm") == RawStruct(rawValue: #""x""#))
        },
        DefaultsCase("DefaultsCodableEnumTests", "testFixtureCodableEnumPreferRawRepresentable") {
            (suite: PortSuite) throws in
            let key = suite.key("enumPreferRawRepresentable", default: CodableEnum.tenMinutes)
            key.value = .halfHour
            #expect(suite.defaults.string(forKey: key.name) == CodableEnum.halfHour.rawValue)
            #expect(try suite.persisted(key.name, default: CodableEnum.tenMinutes) == .halfHour)
        },
        DefaultsCase("DefaultsCustomBridgeTests", "testRecursiveKey") { (suite: PortSuite) throws in
            let start = PlainHourMinuteTime(1, 0)
            let end = PlainHourMinuteTime(2, 0)
            let range = PlainHourMinuteTimeRange(start, end)
            let key = suite.key("independentCustomBridgeRecursiveKey", default: range)
            #expect(key.value.first.first == range.first.first)
            key.value = PlainHourMinuteTimeRange(start, PlainHourMinuteTime(3, 30))
            #expect(key.value.second.second == 30)
            #expect(suite.defaults.array(forKey: key.name)?.count == 2)
            #expect(try suite.persisted(key.name, default: range).second.first == 3)
        },
        DefaultsCase("DefaultsAnySeriliazableTests", "testReadMeExample") { (suite: PortSuite) throws in
            let any = suite.key("anyKey", default: StoredValue.string("🦄"))
            let secondAny = suite.key("secondAnyKey", default: StoredValue.double(123.0))
            #expect(any.value.stringValue == "🦄")
            #expect(secondAny.value.doubleValue == 123.0)
            any.value = ["🦄": 1]
            #expect(any.value["🦄"]?.int64Value == 1)
            #expect(try suite.persisted("anyKey", default: StoredValue.null) == ["🦄": 1])
        },
        DefaultsCase("DefaultsAnySeriliazableTests", "testWrongCast") { (suite: PortSuite) throws in
            let any = suite.key("wrongCast", default: StoredValue.double(12.5))
            #expect(any.value.doubleValue == 12.5)
            #expect(any.value.stringValue == nil)
            #expect(any.value.int64Value == nil)
        },
    ]

    // MARK: The matrix

    static func matrix<T: Codable & Sendable & Equatable>(
        _ file: String, _ shapes: [Shape], _ first: T, _ second: T
    ) -> [DefaultsCase] {
        renamed(file, shapes.map { ($0, $0.rawValue) }, first, second)
    }

    static func renamed<T: Codable & Sendable & Equatable>(
        _ file: String, _ shapes: [(Shape, String)], _ first: T, _ second: T
    ) -> [DefaultsCase] {
        shapes.map { shape, name in
            DefaultsCase(file, name) { suite in try await run(shape, name, first, second, suite) }
        }
    }

    static func setKey<T: Codable & Sendable & Hashable>(_ file: String, _ first: T, _ second: T) -> [DefaultsCase] {
        [
            DefaultsCase(file, "testSetKey") { (suite: PortSuite) async throws in
                let key = suite.key("independentSetKey", default: Set([first]))
                #expect(key.value == [first])
                key.value.insert(second)
                #expect(key.value == [first, second])
                #expect(try suite.persisted(key.name, default: Set<T>()) == [first, second])
            }
        ]
    }

    private static func run<T: Codable & Sendable & Equatable>(
        _ shape: Shape, _ name: String, _ f0: T, _ f1: T, _ suite: PortSuite
    ) async throws {
        let keyName = "independent\(name)Key"
        switch shape {
        case .key, .type:
            let key = suite.key(keyName, default: f0)
            // `testType` reads through `@Stored(key)`, as Defaults' static keys are read.
            let property = shape == .type ? Stored(key).projectedValue : key.property
            #expect(property.value == f0)
            property.value = f1
            #expect(property.value == f1)
            #expect(try suite.persisted(keyName, default: f0) == f1)
        case .optionalKey:
            let key: StoredKey<T?> = suite.key(keyName)
            #expect(key.value == nil)
            key.value = f0
            #expect(key.value == f0)
            key.value = nil
            #expect(key.value == nil)
            #expect(suite.defaults.object(forKey: keyName) == nil)
            key.value = f1
            #expect(try suite.persisted(keyName, default: nil) == f1)
        case .arrayKey, .arrayType:
            let key = suite.key(keyName, default: [f0])
            let property = shape == .arrayType ? Stored(key).projectedValue : key.property
            #expect(property.value[0] == f0)
            property.value.append(f1)
            #expect(property.value == [f0, f1])
            #expect(try suite.persisted(keyName, default: [T]()) == [f0, f1])
        case .arrayOptionalKey:
            let key: StoredKey<[T]?> = suite.key(keyName)
            #expect(key.value == nil)
            key.value = [f0]
            key.value?.append(f1)
            #expect(key.value == [f0, f1])
            #expect(try suite.persisted(keyName, default: nil) == [f0, f1])
        case .nestedArrayKey:
            let key = suite.key(keyName, default: [[f0]])
            #expect(key.value[0][0] == f0)
            key.value.append([f0])
            key.value[0].append(f1)
            #expect(key.value == [[f0, f1], [f0]])
            #expect(try suite.persisted(keyName, default: [[T]]()) == [[f0, f1], [f0]])
        case .arrayDictionaryKey:
            let key = suite.key(keyName, default: [["0": f0]])
            #expect(key.value[0]["0"] == f0)
            key.value.append(["0": f0])
            key.value[0]["1"] = f1
            #expect(key.value == [["0": f0, "1": f1], ["0": f0]])
            #expect(try suite.persisted(keyName, default: [[String: T]]()) == [["0": f0, "1": f1], ["0": f0]])
        case .dictionaryKey, .dictionaryType:
            let key = suite.key(keyName, default: ["0": f0])
            let property = shape == .dictionaryType ? Stored(key).projectedValue : key.property
            #expect(property.value["0"] == f0)
            property.value["1"] = f1
            #expect(property.value == ["0": f0, "1": f1])
            #expect(try suite.persisted(keyName, default: [String: T]()) == ["0": f0, "1": f1])
        case .dictionaryOptionalKey:
            let key: StoredKey<[String: T]?> = suite.key(keyName)
            #expect(key.value == nil)
            key.value = ["0": f0]
            key.value?["1"] = f1
            #expect(key.value == ["0": f0, "1": f1])
            #expect(try suite.persisted(keyName, default: nil) == ["0": f0, "1": f1])
        case .dictionaryArrayKey:
            let key = suite.key(keyName, default: ["0": [f0]])
            #expect(key.value["0"]?[0] == f0)
            key.value["1"] = [f0]
            key.value["0"]?.append(f1)
            #expect(key.value == ["0": [f0, f1], "1": [f0]])
            #expect(try suite.persisted(keyName, default: [String: [T]]()) == ["0": [f0, f1], "1": [f0]])
        case .observeKey:
            // Defaults' publisher gives (old, new) pairs: (f0, f1), (f1, f0); the stream gives
            // the value now, then each new one.
            let key = suite.key(keyName, default: f0)
            var values = key.values().makeAsyncIterator()
            #expect(await values.next() == f0)
            key.value = f1
            #expect(await values.next() == f1)
            try key.reset()
            #expect(await values.next() == f0)
        case .observeOptionalKey:
            let key: StoredKey<T?> = suite.key(keyName)
            var values = key.values().makeAsyncIterator()
            #expect(await values.next() == .some(nil))
            key.value = f0
            #expect(await values.next() == f0)
            key.value = f1
            #expect(await values.next() == f1)
            try key.reset()
            #expect(await values.next() == .some(nil))
        }
    }
}

// MARK: Defaults' fixtures, as Codable types

struct Unicorn: Codable, Sendable, Equatable, Hashable {
    var isUnicorn: Bool
}

struct RawStruct: Codable, RawRepresentable, Sendable, Equatable {
    var rawValue: String
}

enum CodableEnum: String, Codable, Sendable, Equatable {
    case tenMinutes = "10 Minutes"
    case halfHour = "30 Minutes"
    case oneHour = "1 Hour"
}

/// Defaults' `FixtureEnum` is `RawRepresentable` only; a stored type here is `Codable`, which a
/// `String` raw value gives for free.
enum FixtureEnum: String, Codable, Sendable, Equatable {
    case tenMinutes = "10 Minutes"
    case halfHour = "30 Minutes"
    case oneHour = "1 Hour"
}

struct Item: Codable, Sendable, Hashable {
    var name: String
    var count: UInt
}

/// Defaults' `Bag`, a custom collection (`Defaults.CollectionSerializable`): here `Codable` as
/// its elements.
struct Bag<Element: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    var items: [Element]
    init(_ items: [Element]) { self.items = items }
    init(from decoder: any Decoder) throws { items = try [Element](from: decoder) }
    func encode(to encoder: any Encoder) throws { try items.encode(to: encoder) }
}

/// Defaults' `DefaultsSetAlgebra`, a custom `SetAlgebra` (`Defaults.SetAlgebraSerializable`).
struct SetAlgebra<Element: Codable & Sendable & Hashable>: Codable, Sendable, Equatable {
    var store: Set<Element>
    init(_ elements: [Element]) { store = Set(elements) }
    init(from decoder: any Decoder) throws { store = Set(try [Element](from: decoder)) }
    func encode(to encoder: any Encoder) throws { try Array(store).encode(to: encoder) }
}

/// Defaults' `User` with a custom bridge to `[String: String]`: here its own `Codable` form.
struct User: Codable, Sendable, Hashable {
    var username: String
    var password: String
}

/// Two values kept as a two-element array: Defaults' `PlainHourMinuteTime` (bridged to
/// `[Int]`) and `PlainHourMinuteTimeRange` (bridged recursively through its bounds' bridge).
struct Pair<Element: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    var first: Element
    var second: Element
    init(_ first: Element, _ second: Element) {
        self.first = first
        self.second = second
    }
    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        first = try container.decode(Element.self)
        second = try container.decode(Element.self)
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(first)
        try container.encode(second)
    }
}

/// An hour and a minute.
typealias PlainHourMinuteTime = Pair<Int>
/// A start and an end.
typealias PlainHourMinuteTimeRange = Pair<PlainHourMinuteTime>
