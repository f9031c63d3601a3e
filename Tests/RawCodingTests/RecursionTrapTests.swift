import Foundation
import RawCoding
import Testing

/// The snippet's model, made safe: no coding of its own, so it relies on the defaults.
struct TrappedModel: RawStringCodable, Equatable {
    var theme = "dark"
    var fontSize = 14
}

/// The remedy: its own memberwise coding, so rawValue never re-enters.
struct MemberwiseModel: RawStringCodable, Equatable {
    var theme: String
    var fontSize: Int

    init(theme: String = "dark", fontSize: Int = 14) {
        self.theme = theme
        self.fontSize = fontSize
    }

    enum CodingKeys: String, CodingKey { case theme, fontSize }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        theme = try container.decode(String.self, forKey: .theme)
        fontSize = try container.decode(Int.self, forKey: .fontSize)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(theme, forKey: .theme)
        try container.encode(fontSize, forKey: .fontSize)
    }
}

/// A hand-written coding that copies the standard library's: it goes through rawValue and
/// init?(rawValue:), so only the guard inside those stops the recursion.
struct HandRolledTrapModel: RawStringCodable {
    var value = 1

    init() {}

    init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        guard let decoded = Self(rawValue: raw) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "bad raw value"))
        }
        self = decoded
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// One way of hitting the trap: a shape, a direction and the call that does it.
struct TrapShape: CustomTestStringConvertible, Sendable {
    let name: String
    let run: @Sendable () throws -> Void
    var testDescription: String { name }

    static let rawModelText = #"{"fontSize":14,"theme":"dark"}"#

    /// JSON text whose string at `path` holds a model's raw value.
    static func stringInput(_ wrap: (String) -> String) -> String {
        wrap(try! JSONCodec.json.encodeToString(rawModelText))
    }

    static let all: [TrapShape] = [
        TrapShape(name: "encode top level") { _ = try JSONCodec.json.encode(TrappedModel()) },
        TrapShape(name: "encode nested") {
            struct Holder: Codable { var model = TrappedModel() }
            _ = try JSONCodec.json.encode(Holder())
        },
        TrapShape(name: "encode array") { _ = try JSONCodec.json.encode([TrappedModel(), TrappedModel()]) },
        TrapShape(name: "encode dictionary") { _ = try JSONCodec.json.encode(["a": TrappedModel()]) },
        TrapShape(name: "encode optional") { _ = try JSONCodec.json.encode(Optional(TrappedModel())) },
        TrapShape(name: "encode through XML property list") {
            _ = try PropertyListCodec.propertyList(.xml).encode([TrappedModel()])
        },
        TrapShape(name: "encode through binary property list") {
            _ = try PropertyListCodec.propertyList(.binary).encode(TrappedModel())
        },
        TrapShape(name: "encode hand-rolled") { _ = try JSONCodec.json.encode(HandRolledTrapModel()) },
        TrapShape(name: "decode top level") {
            _ = try JSONCodec.json.decode(TrappedModel.self, from: stringInput { $0 })
        },
        TrapShape(name: "decode nested") {
            struct Holder: Codable { var model: TrappedModel }
            _ = try JSONCodec.json.decode(Holder.self, from: stringInput { "{\"model\":\($0)}" })
        },
        TrapShape(name: "decode array") {
            _ = try JSONCodec.json.decode([TrappedModel].self, from: stringInput { "[\($0)]" })
        },
        TrapShape(name: "decode dictionary") {
            _ = try JSONCodec.json.decode([String: TrappedModel].self, from: stringInput { "{\"a\":\($0)}" })
        },
        TrapShape(name: "decode optional") {
            _ = try JSONCodec.json.decode(TrappedModel?.self, from: stringInput { $0 })
        },
        // Hand-rolled decoding recurses only while the raw value is itself a JSON string.
        TrapShape(name: "decode hand-rolled") {
            _ = try JSONCodec.json.decode(
                HandRolledTrapModel.self, from: stringInput { try! JSONCodec.json.encodeToString($0) })
        },
    ]
}

@Suite("Recursion trap")
struct RecursionTrapTests {
    @Test(arguments: TrapShape.all)
    func endsInTheTypedError(_ shape: TrapShape) {
        let error = #expect(throws: RawCodingError.self) { try shape.run() }
        #expect(error?.kind == .recursionTrap)
        #expect(error?.typeName.hasSuffix("Model") == true)
        #expect(error?.description.contains("RawCodable<") == true)
        #expect(error?.description.contains("init(from:)") == true)
    }

    @Test func namesWhereInTheValueTheTrapWasMet() {
        struct Holder: Codable { var items: [TrappedModel] }
        let error = #expect(throws: RawCodingError.self) { try JSONCodec.json.encode(Holder(items: [TrappedModel()])) }
        #expect(error?.codingPathDescription == "items[0]")
    }

    @Test func foundationsOwnEncoderSeesTheTypedErrorToo() {
        #expect {
            try JSONEncoder().encode([TrappedModel()])
        } throws: { error in
            (error as? RawCodingError)?.kind == .recursionTrap
        }
        #expect {
            try JSONDecoder().decode(TrappedModel.self, from: Data(TrapShape.stringInput { $0 }.utf8))
        } throws: { error in
            (error as? RawCodingError)?.kind == .recursionTrap
        }
    }

    @Test func rawValueReportsTheTrapAndReturnsEmpty() throws {
        let reported = Collected<RawCodingError>()
        RawCodingDiagnostics.withHandler({ reported.append($0.error) }) {
            #expect(TrappedModel().rawValue == "")
            #expect(TrappedModel(rawValue: TrapShape.rawModelText) == nil)
            #expect(HandRolledTrapModel().rawValue == "")
        }
        #expect(reported.all.count == 3)
        #expect(reported.all.allSatisfy { $0.kind == .recursionTrap })
    }

    @Test func nonStringInputExplainsTheDefaultDecoding() {
        let error = #expect(throws: RawCodingError.self) {
            try JSONCodec.json.decode(TrappedModel.self, from: TrapShape.rawModelText)
        }
        #expect(error?.kind == .decodingFailed)
        #expect(error?.description.contains("has no init(from:) of its own") == true)
    }

    @Test func aStringEnumConformedByMistakeGetsAnErrorThatSaysSo() {
        enum Color: String, RawStringCodable { case red }
        let error = #expect(throws: RawCodingError.self) { try JSONCodec.json.encode([Color.red]) }
        #expect(error?.kind == .recursionTrap)
        #expect(error?.description.contains("remove its RawStringCodable conformance") == true)
    }

    @Test func aModelWithItsOwnCodingRoundTrips() throws {
        let model = MemberwiseModel(theme: "light", fontSize: 9)
        #expect(model.rawValue == #"{"fontSize":9,"theme":"light"}"#)
        #expect(MemberwiseModel(rawValue: model.rawValue) == model)
        struct Holder: Codable, Equatable {
            var models: [MemberwiseModel]
            var one: MemberwiseModel?
        }
        let holder = Holder(models: [model, MemberwiseModel()], one: model)
        for codec in CodecCase.allCases {
            #expect(try roundTrip(holder, codec.codec).0 == holder, "\(codec)")
        }
    }

    @Test func aModelWithItsOwnCodingCanChooseAnotherCodec() throws {
        struct XMLModel: RawStringCodable, Equatable {
            var name: String
            init(name: String) { self.name = name }
            init(from decoder: any Decoder) throws { name = try decoder.singleValueContainer().decode(String.self) }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(name)
            }
            static var rawValueCodec: some StringCodec { .propertyList(.xml) }
        }
        let model = XMLModel(name: "a & b")
        #expect(model.rawValue.contains("<string>a &amp; b</string>"))
        #expect(XMLModel(rawValue: model.rawValue) == model)
        #expect(RawCodable(model).rawValue == model.rawValue)
    }

    @Test func eightThreadsTrapAThousandTimesEach() throws {
        let outcomes = Collected<String>()
        let group = DispatchGroup()
        for thread in 0..<8 {
            group.enter()
            let worker = Thread {
                var wrong: [String] = []
                for iteration in 0..<1_000 {
                    let shape = TrapShape.all[(thread + iteration) % TrapShape.all.count]
                    do {
                        try shape.run()
                        wrong.append("\(shape.name): no error")
                    } catch let error as RawCodingError where error.kind == .recursionTrap {
                        continue
                    } catch {
                        wrong.append("\(shape.name): \(error)")
                    }
                }
                outcomes.append(wrong.isEmpty ? "ok" : wrong.prefix(3).joined(separator: "; "))
                group.leave()
            }
            worker.stackSize = 1 << 20
            worker.start()
        }
        #expect(group.wait(timeout: .now() + 120) == .success)
        #expect(outcomes.all == Array(repeating: "ok", count: 8))
    }
}
