import Foundation
import RawCoding
import RawCodingCommandLine
import RawCodingFuzzTargets
import RawCodingStores

// Runs every recursive path of the library on threads with small stacks, at nesting depths
// up to the default `Limits.maximumDepth`, and prints one line per case:
//
//     case <stack KiB> <path> <shape> <depth> ok
//     case <stack KiB> <path> <shape> <depth> refused <reason>
//     case <stack KiB> <path> <shape> <depth> failed <what went wrong>
//
// A crash ends the output after "start …" for the case that crashed. The first line says
// whether this is an optimized build and whether a sanitizer is linked in.
// `StackProbe [KiB …] [--depths D,D…]` limits the run to those stacks and depths.

/// A recursive model, as apps write them.
final class Node: Codable, @unchecked Sendable {
    var name: String
    var child: Node?

    init(name: String, child: Node?) {
        self.name = name
        self.child = child
    }
}

/// A recursive enum: each case is two levels of the document (`{"link":{"_0":…}}`).
indirect enum Chain: Codable, Sendable {
    case end
    case link(Chain)
}

enum Shape: String, CaseIterable {
    case recursiveClass = "class"
    case recursiveEnum = "enum"
    case nested = "nested"

    /// JSON text nested `depth` levels deep.
    func json(depth: Int) -> String {
        switch self {
        case .recursiveClass:
            String(repeating: #"{"name":"n","child":"#, count: depth - 1) + #"{"name":"leaf"}"#
                + String(repeating: "}", count: depth - 1)
        case .recursiveEnum:
            String(repeating: #"{"link":{"_0":"#, count: (depth - 1) / 2) + #"{"end":{}}"#
                + String(repeating: "}}", count: (depth - 1) / 2)
        case .nested:
            (0..<depth).map { $0 % 2 == 0 ? "[" : #"{"a":"# }.joined() + "1"
                + (0..<depth).reversed().map { $0 % 2 == 0 ? "]" : "}" }.joined()
        }
    }
}

/// One value of a shape, decoded or encoded through the paths below.
enum Model {
    static func decode(_ shape: Shape, _ codec: some Codec, _ data: Data) throws(RawCodingError) {
        switch shape {
        case .recursiveClass: _ = try codec.decode(Node.self, from: data)
        case .recursiveEnum: _ = try codec.decode(Chain.self, from: data)
        case .nested: _ = try codec.decode(StoredValue.self, from: data)
        }
    }

    static func decodeStored(_ shape: Shape, _ codec: some Codec, _ data: Data) throws(RawCodingError) {
        switch shape {
        case .recursiveClass: _ = try codec.decodeStored(Node.self, from: data)
        case .recursiveEnum: _ = try codec.decodeStored(Chain.self, from: data)
        case .nested: _ = try codec.decodeStored(StoredValue.self, from: data)
        }
    }

    static func rawCodable(_ shape: Shape, _ text: String) throws(RawCodingError) {
        switch shape {
        case .recursiveClass: _ = try RawCodable<Node>(decoding: text)
        case .recursiveEnum: _ = try RawCodable<Chain>(decoding: text)
        case .nested: _ = try RawCodable<StoredValue>(decoding: text)
        }
    }

    static func storeRead(_ shape: Shape, _ store: FileStore) throws(RawCodingError) {
        switch shape {
        case .recursiveClass: _ = try store.value(Node.self, forKey: "deep")
        case .recursiveEnum: _ = try store.value(Chain.self, forKey: "deep")
        case .nested: _ = try store.value(StoredValue.self, forKey: "deep")
        }
    }

    /// The value itself, decoded on the main thread (whose stack is large), to encode.
    static func value(_ shape: Shape, json: Data) throws -> any Encodable & Sendable {
        switch shape {
        case .recursiveClass: try JSONCodec().decode(Node.self, from: json)
        case .recursiveEnum: try JSONCodec().decode(Chain.self, from: json)
        case .nested: try JSONCodec().decode(StoredValue.self, from: json)
        }
    }
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let codecs: [(name: String, codec: any Codec)] = [
    ("json", JSONCodec()), ("json-pretty", JSONCodec(formatting: .pretty)),
    ("xml", PropertyListCodec(format: .xml)), ("binary", PropertyListCodec(format: .binary)),
]
let arguments = Array(CommandLine.arguments.dropFirst())
let depthsGiven = arguments.firstIndex(of: "--depths").flatMap { arguments.indices.contains($0 + 1) ? $0 + 1 : nil }
let depths =
    depthsGiven.map { arguments[$0].split(separator: ",").compactMap { Int($0) } } ?? [100, 200, 300, 400, 512]
let requested = arguments.enumerated().filter { $0.offset != depthsGiven }.compactMap { Int($0.element) }
let stacks = requested.isEmpty ? [128, 256, 512] : requested
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("StackProbe-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

/// Whether a sanitizer is linked in: it makes frames larger and reports overflows itself, so
/// the stack a release build promises (and `tree-release`) is for unsanitized builds only.
let sanitized = dlsym(nil, "__asan_init") != nil || dlsym(nil, "__tsan_init") != nil
let optimized = !_isDebugAssertConfiguration()
say("optimized \(optimized) sanitized \(sanitized)")
for shape in Shape.allCases {
    for depth in depths {
        let json = Data(shape.json(depth: depth).utf8)
        let tree = try JSONCodec().readTree(from: json)
        let value = try Model.value(shape, json: json)
        let store = try FileStore(directory: directory.appendingPathComponent("\(shape)-\(depth)"))
        try store.write(tree, forKey: "deep")
        let file = directory.appendingPathComponent("\(shape)-\(depth).json")
        try json.write(to: file)
        var paths: [(String, @Sendable () throws -> Void)] = []
        for (name, codec) in codecs {
            let data = try codec.writeTree(tree)
            paths.append(("decode-\(name)", { try Model.decode(shape, codec, data) }))
            paths.append(("encode-\(name)", { _ = try codec.encode(value) }))
            paths.append(("readTree-\(name)", { _ = try codec.readTree(from: data) }))
            paths.append(("writeTree-\(name)", { _ = try codec.writeTree(tree) }))
            paths.append(("decodeStored-\(name)", { try Model.decodeStored(shape, codec, data) }))
        }
        let openStep = Data(openStepText(tree).utf8)
        paths.append(
            (
                "readTree-openstep",
                {
                    do throws(FormatFailure) {
                        _ = try OpenStepPropertyListTreeFormat().readTree(openStep, limits: .default)
                    } catch {
                        throw RawCodingError(error, subject: StoredValue.self)
                    }
                }
            ))
        let copy = try JSONCodec().readTree(from: json)
        paths.append(
            ("tree-equal", { guard tree == copy else { throw ProbeFailure(text: "a tree differs from its copy") } }))
        paths.append(
            ("tree-hash", { guard tree.hashValue == copy.hashValue else { throw ProbeFailure(text: "hashes differ") } })
        )
        paths.append(("tree-description", { _ = tree.description }))
        let merged = Parked(.null)
        paths.append(
            (
                "tree-merge",
                {
                    // Kept for the main thread to release: a release of its own is "tree-release".
                    merged.value = tree.merging(copy)
                    guard merged.value == copy else { throw ProbeFailure(text: "the merge differs from its overlay") }
                }
            ))
        // The only reference to a tree read on the main thread, dropped on the small one.
        let parked = Parked(try JSONCodec().readTree(from: json))
        #if !DEBUG
            // In a debug or sanitized build, releasing takes more stack per level in the value
            // witnesses (about 300 bytes unoptimized), which no code of the library can check.
            if !sanitized { paths.append(("tree-release", { parked.value = nil })) }
        #endif
        let text = shape.json(depth: depth)
        paths.append(("rawCodable", { try Model.rawCodable(shape, text) }))
        paths.append(("storeRead", { try Model.storeRead(shape, store) }))
        paths.append(
            (
                "convert",
                {
                    var messages: [String] = []
                    let io = ToolIO(
                        read: { try Data(contentsOf: URL(fileURLWithPath: $0)) }, write: { _, _ in },
                        message: { messages.append($0) }, messagesGoToTerminal: false)
                    let status = Tool.run(["convert", file.path, "--to", "binary"], io: io)
                    guard status == 0 else { throw ProbeFailure(text: messages.joined(separator: " ")) }
                }
            ))
        for stack in stacks {
            for (path, run) in paths {
                let label = "\(stack) \(path) \(shape.rawValue) \(depth)"
                say("start \(label)")
                SmallStackThread.run(stackSize: stack << 10) {
                    do {
                        try run()
                        say("case \(label) ok")
                    } catch let error as RawCodingError where error.kind == .limitExceeded {
                        say("case \(label) refused \(error.reason)")
                    } catch let error as ProbeFailure where error.text.contains("stack") {
                        say("case \(label) refused \(error.text)")
                    } catch {
                        say("case \(label) failed \(error)")
                    }
                }
            }
        }
    }
}
say("done")

/// `tree` as an OpenStep property list (every scalar a quoted string).
func openStepText(_ tree: StoredValue) -> String {
    switch tree {
    case .array(let elements): "(" + elements.map(openStepText).joined(separator: ",") + ")"
    case .dictionary(let dictionary):
        "{" + dictionary.map { "\"\($0.key)\"=\(openStepText($0.value));" }.joined() + "}"
    default: "\"1\""
    }
}

struct ProbeFailure: Error {
    var text: String
}

final class Parked: @unchecked Sendable {
    var value: StoredValue?
    init(_ value: StoredValue) { self.value = value }
}
