import Foundation
import RawCoding
import Testing

extension JSONEncoderPort {
    /// Key conversion on synthesized keys and its paths, lone surrogates, and the encoder's
    /// state after a value's error was caught.
    static let keyConversionAndState: [PortedCase] = [
        PortedCase(.json, "issue106506794") { () throws in
            try Port.roundTrip(Level1(level2: .init(name: "level2")), expected: #"{"level2":[{"name":"level2"}]}"#)
        },
        PortedCase(.json, "jsonBadUnicodeEscapes") { () throws in
            let escapes = [#"\uD834"#, #"\uD834hello"#, #"hello\uD834"#, #"\uD834\u1221"#, #"\uD8"#, #"\uD834x\uDD1E"#]
            for escape in escapes {
                // As the suite writes them (not JSON at all), and as the strings they stand for.
                #expect(fails(String.self, escape), "\(escape)")
                #expect(fails(String.self, "\"\(escape)\""), "\"\(escape)\"")
            }
        },
        PortedCase(.json, "keyStrategySnakeGeneratedAndCustom") { () throws in
            let snake = JSONCodec(keys: .snakeCase)
            let decoded = try snake.decode(
                RenamedKeys.self, from: #"{"foo_bar":"test","this_is_camel_case_too":"test2"}"#)
            #expect(decoded == RenamedKeys(thisIsCamelCase: "test", thisIsCamelCaseToo: "test2"))
            let text = try snake.encodeToString(RenamedKeys(thisIsCamelCase: "test", thisIsCamelCaseToo: "test2"))
            #expect(text == #"{"foo_bar":"test","this_is_camel_case_too":"test2"}"#)
        },
        PortedCase(.json, "decodingDictionaryFailureKeyPathNested") { () throws in
            struct DecodeFailure: Decodable { var intValue: Int }
            struct DecodeFailureNested: Decodable { var nestedValue: DecodeFailure }
            let text = #"{"top_level": {"sub_level": {"nested_value": {"int_value": "not_an_int"}}}}"#
            let error = #expect(throws: RawCodingError.self) {
                try JSONCodec(keys: .snakeCase).decode([String: [String: DecodeFailureNested]].self, from: text)
            }
            // Dictionary keys are data, never converted; the model's keys are its own names.
            #expect(error?.codingPath.map(\.stringValue) == ["top_level", "sub_level", "nestedValue", "intValue"])
            guard case .typeMismatch = error?.underlyingError as? DecodingError else {
                Issue.record("not a type mismatch: \(String(describing: error))")
                return
            }
        },
        PortedCase(.json, "decodingKeyStrategyCamelGenerated") { () throws in
            #expect(
                try JSONCodec(keys: .snakeCase).encodeToString(CamelCased(thisIsCamelCase: "test"))
                    == #"{"this_is_camel_case":"test"}"#)
        },
        PortedCase(.json, "encodingKeyStrategySnakeGenerated") { () throws in
            let decoded = try JSONCodec(keys: .snakeCase).decode(
                CamelCased.self, from: #"{"this_is_camel_case":"test"}"#)
            #expect(decoded.thisIsCamelCase == "test")
        },
        PortedCase(.json, "encodingDictionaryFailureKeyPathNested") { () throws in
            struct EncodeFailure: Encodable { var someValue: Double }
            struct EncodeFailureNested: Encodable { var nestedValue: EncodeFailure }
            let value = ["key": ["sub_key": EncodeFailureNested(nestedValue: EncodeFailure(someValue: .nan))]]
            let error = #expect(throws: RawCodingError.self) {
                try JSONCodec(keys: .snakeCase, nonFiniteNumbers: .throw).encode(value)
            }
            #expect(error?.codingPath.map(\.stringValue) == ["key", "sub_key", "nestedValue", "someValue"])
        },
        PortedCase(.json, "sharedSubEncoderStaleStateCrash") { () throws in
            // The JSONEncoder on this machine stops the program here; a value that threw is not
            // stored at all, and the nils after it are nulls.
            #expect(
                try JSONCodec().encodeToString(StaleState(secondNil: true)) == #"{"nilField1":null,"nilField2":null}"#)
            #expect(
                try JSONCodec(keys: .snakeCase).encodeToString(StaleState(secondNil: true))
                    == #"{"nil_field1":null,"nil_field2":null}"#)
        },
        PortedCase(.json, "sharedSubEncoderStaleStateDataCorrectness") { () throws in
            #expect(try JSONCodec().encodeToString(StaleState(secondNil: false)) == #"{"nilField1":null}"#)
            let binary = PropertyListCodec(format: .binary)
            #expect(try binary.readTree(from: binary.encode(StaleState(secondNil: false))) == ["nilField1": "$null"])
        },
    ]

    struct Level1: Codable, Equatable {
        struct Level2: Codable, Equatable { let name: String }
        enum CodingKeys: String, CodingKey { case level2 }
        let level2: Level2

        init(level2: Level2) { self.level2 = level2 }

        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: CodingKeys.self)
            var nested = keyed.nestedUnkeyedContainer(forKey: .level2)
            try nested.encode(level2)
        }

        init(from decoder: any Decoder) throws {
            let keyed = try decoder.container(keyedBy: CodingKeys.self)
            var nested = try keyed.nestedUnkeyedContainer(forKey: .level2)
            level2 = try nested.decode(Level2.self)
        }
    }

    /// One key renamed, one synthesized.
    struct RenamedKeys: Codable, Equatable {
        var thisIsCamelCase: String
        var thisIsCamelCaseToo: String
        private enum CodingKeys: String, CodingKey {
            case thisIsCamelCase = "fooBar"
            case thisIsCamelCaseToo
        }
    }

    struct CamelCased: Codable { var thisIsCamelCase: String }

    /// Catches the error of a dictionary holding a value that throws, then encodes nils.
    struct StaleState: Encodable {
        struct AlwaysFailing: Encodable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(
                    0, .init(codingPath: encoder.codingPath, debugDescription: "Value cannot be encoded"))
            }
        }
        enum CodingKeys: String, CodingKey { case dict, nilField1, nilField2 }
        let secondNil: Bool

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try? container.encode(["key": AlwaysFailing()], forKey: .dict)
            try? container.encode(nil as Int?, forKey: .nilField1)
            if secondNil { try? container.encode(nil as Int?, forKey: .nilField2) }
        }
    }
}
