import Foundation
import Testing

/// Every public declaration follows the "API conventions" article. The declarations are read
/// from the committed baseline `.ci/api`, which `.ci/run` checks against the products' real
/// API, so a rename that breaks a rule fails here once the baseline is updated.
@Suite("API conventions")
struct APIConventionsTests {
    /// One line of the baseline: `Owner.member(labels:): declaration  @available(…)`.
    struct Declaration: CustomStringConvertible {
        var symbol: String
        var declaration: String

        /// The type the member belongs to (`FileStore` for `FileStore.read(forKey:)`).
        var owner: String {
            let path = symbol.prefix { $0 != "(" }
            return path.split(separator: ".").dropLast().joined(separator: ".")
        }

        /// The member's base name (`read` for `FileStore.read(forKey:)`).
        var member: String {
            let path = symbol.prefix { $0 != "(" }
            return String(path.split(separator: ".").last ?? "")
        }

        var description: String { "\(symbol): \(declaration)" }
    }

    static let declarations: [Declaration] = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".ci/api")
        var result: [Declaration] = []
        for product in ["RawCoding", "RawCodingStores", "RawCodingTesting"] {
            let url = folder.appendingPathComponent("\(product).txt")
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                Issue.record("no API baseline at \(url.path)")
                continue
            }
            for line in text.split(separator: "\n") where !line.contains(": conforms to ") {
                guard let colon = line.range(of: ": ") else { continue }
                var declaration = String(line[colon.upperBound...])
                if let availability = declaration.range(of: "  @available") {
                    declaration = String(declaration[..<availability.lowerBound])
                }
                result.append(Declaration(symbol: String(line[..<colon.lowerBound]), declaration: declaration))
            }
        }
        return result
    }()

    static let stores: Set<String> = [
        "KeyValueStore", "FileStore", "InMemoryStore", "UserDefaultsStore", "UserDefaults", "KeyValueStoreLimits",
        "StoreChangeBroadcaster",
    ]

    @Test func theBaselineIsRead() {
        // A baseline that failed to parse would pass every rule below.
        #expect(Self.declarations.count > 500)
        #expect(Self.declarations.contains { $0.symbol == "KeyValueStore.read(forKey:)" })
    }

    @Test func noCallTakesADefaultLabel() {
        let offenders = Self.declarations.filter { $0.symbol.contains("(default:") || $0.symbol.contains(":default:") }
        #expect(offenders.isEmpty, "defaultValue: is the one spelling: \(offenders)")
    }

    @Test func storeKeysAreLabelledForKey() {
        var offenders: [Declaration] = []
        for declaration in Self.declarations where Self.stores.contains(declaration.owner) {
            let parameters = declaration.declaration
            var searchStart = parameters.startIndex
            while let range = parameters.range(of: " key: String", range: searchStart..<parameters.endIndex) {
                let label = parameters[..<range.lowerBound].split(whereSeparator: { " (,".contains($0) }).last ?? ""
                if label != "forKey" && !(declaration.member == "moveKeys" && label == "into") {
                    offenders.append(declaration)
                }
                searchStart = range.upperBound
            }
        }
        #expect(offenders.isEmpty, "a store key is labelled forKey:: \(offenders)")
        // The exceptions the article names hold too: a property over one key takes it first.
        for owner in ["Stored", "StoredProperty"] {
            let inits = Self.declarations.filter { $0.owner == owner && $0.member == "init" }
            #expect(!inits.isEmpty)
            for initializer in inits {
                let declaration = initializer.declaration.replacingOccurrences(of: "convenience ", with: "")
                #expect(
                    declaration.hasPrefix("init(_ key: String") || declaration.hasPrefix("init(_ key: StoredKey<Value>")
                        || declaration.hasPrefix("init(wrappedValue: Value, _ key: String"),
                    "\(initializer)")
            }
        }
    }

    @Test func valuesInAStoreUseTheStoresCodec() {
        let typedCalls: Set<String> = ["value", "set", "update", "values"]
        let offenders = Self.declarations.filter { declaration in
            let owned =
                ["Stored", "StoredProperty"].contains(declaration.owner)
                || (declaration.owner == "KeyValueStore" && typedCalls.contains(declaration.member))
            return owned && declaration.symbol.contains("codec:")
        }
        #expect(offenders.isEmpty, "one codec per store: \(offenders)")
    }

    @Test func byteSizesEndInBytes() {
        let offenders = Self.declarations.filter { declaration in
            guard declaration.member.hasPrefix("maximum"), !declaration.symbol.contains("(") else { return false }
            return !["Bytes", "Count", "Depth", "Expansion"].contains { declaration.member.hasSuffix($0) }
        }
        #expect(offenders.isEmpty, "byte sizes end in Bytes, counts in Count: \(offenders)")
    }

    /// Where each untyped `throws` of a declaration stands: at the top level (the call's own)
    /// or inside the parameter list (a closure's).
    static func untypedThrows(in declaration: String) -> (own: Bool, closure: Bool) {
        var depth = 0
        var own = false
        var closure = false
        let characters = Array(declaration)
        var index = 0
        while index < characters.count {
            switch characters[index] {
            case "(": depth += 1
            case ")": depth -= 1
            default: break
            }
            if characters[index...].starts(with: "throws"),
                index == 0 || !characters[index - 1].isLetter,
                index + 6 == characters.count || characters[index + 6] != "("
            {
                if depth == 0 { own = true } else { closure = true }
            }
            index += 1
        }
        return (own, closure)
    }

    @Test func callsThrowRawCodingError() {
        // The article's exceptions: protocol requirements whose signature is fixed, the engine
        // (an Encoder/Decoder throwing Foundation's errors) and the contract's test runner.
        func mayThrowUntyped(_ declaration: Declaration) -> Bool {
            ["encode(to:)", "init(from:)"].contains(declaration.symbol.split(separator: ".").last.map(String.init))
                || declaration.symbol.hasPrefix("FixtureTrait.provideScope(")
                || declaration.symbol == "StoredValueEncoder.encode(_:)"
                || declaration.symbol == "StoredValueDecoder.decode(_:from:)"
                || declaration.symbol == "KeyValueStoreContract.run(_:)" || isCustomStrategy(declaration)
        }
        // A codec's custom strategy holds its closures, kept to be called later.
        func isCustomStrategy(_ declaration: Declaration) -> Bool {
            declaration.symbol.hasPrefix("JSONCodec.CustomCoding.")
        }
        // Closures kept to be called later throw any error; closures of a rethrowing call
        // pass their error through.
        func closureMayThrowUntyped(_ declaration: Declaration) -> Bool {
            declaration.owner == "StoredMigration" || declaration.member == "custom"
                || isCustomStrategy(declaration)
                || declaration.declaration.contains("rethrows") || mayThrowUntyped(declaration)
        }
        var offenders: [Declaration] = []
        for declaration in Self.declarations {
            let untyped = Self.untypedThrows(in: declaration.declaration)
            if untyped.own && !mayThrowUntyped(declaration) { offenders.append(declaration) }
            if untyped.closure && !closureMayThrowUntyped(declaration) { offenders.append(declaration) }
        }
        #expect(offenders.isEmpty, "throws(RawCodingError), or an exception the article names: \(offenders)")
        #expect(Self.untypedThrows(in: "func f() throws -> Int") == (true, false))
        #expect(Self.untypedThrows(in: "func f(_ g: () throws -> Void) throws(RawCodingError)") == (false, true))
    }

    @Test func optionsHaveOneNameAcrossCodecsAndTheEngine() {
        let foundationSpellings = ["EncodingStrategy", "DecodingStrategy", "convertTo", "convertFrom", "deferredTo"]
        let foundationStyle = Self.declarations.filter { declaration in
            foundationSpellings.contains { declaration.symbol.contains($0) }
        }
        #expect(foundationStyle.isEmpty, "the engine speaks the codecs' vocabulary: \(foundationStyle)")

        func members(of owner: String) -> Set<String> {
            Set(Self.declarations.filter { $0.owner == owner }.map(\.member))
        }
        let options: Set = ["dates", "data", "keys", "nonFiniteNumbers"]
        #expect(options.isSubset(of: members(of: "JSONCodec")))
        for engine in ["StoredValueEncoder", "StoredValueDecoder"] {
            let properties = Set(
                Self.declarations.filter { $0.owner == engine && $0.declaration.hasPrefix("var ") }.map(\.member))
            #expect(properties == options.union(["maximumDepth", "userInfo"]), "\(engine): \(properties.sorted())")
            // Each codec case has the same name in the engine.
            for strategy in ["DateStrategy", "DataStrategy", "KeyStrategy"] {
                let codecCases = members(of: "JSONCodec.\(strategy)")
                let engineCases = members(of: "\(engine).\(strategy)")
                #expect(!codecCases.isEmpty && codecCases.isSubset(of: engineCases), "\(engine).\(strategy)")
            }
        }
        #expect(
            members(of: "JSONCodec.NonFiniteStrategy").isSubset(of: members(of: "StoredValueEncoder.NonFiniteStrategy"))
        )
        #expect(
            members(of: "StoredValueDecoder.NonFiniteStrategy").isSubset(
                of: members(of: "StoredValueEncoder.NonFiniteStrategy")))
    }
}
