import Foundation
import RawCoding

/// `rawcoding`: converts between JSON and property lists.
@main
struct RawCodingTool {
    static let usage = """
        usage: rawcoding convert FILE --to json|xml|binary

          convert   Read FILE (JSON, XML property list or binary property list, detected from
                    its bytes) and write it to standard output in the target format.
                    json: pretty-printed, keys sorted. xml, binary: Apple property lists.
        """

    enum Target: String {
        case json, xml, binary
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        var exitCode: Int32 = 1
    }

    static func main() {
        do {
            let output = try run(Array(CommandLine.arguments.dropFirst()))
            FileHandle.standardOutput.write(output)
        } catch let failure as Failure {
            FileHandle.standardError.write(Data("rawcoding: \(failure)\n".utf8))
            exit(failure.exitCode)
        } catch {
            FileHandle.standardError.write(Data("rawcoding: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(_ arguments: [String]) throws -> Data {
        guard arguments.first == "convert" else {
            throw Failure(description: arguments.isEmpty ? "missing command\n\(usage)" : "unknown command '\(arguments[0])'\n\(usage)", exitCode: 64)
        }
        var path: String?
        var target: Target?
        var rest = arguments.dropFirst()[...]
        while let argument = rest.popFirst() {
            if argument == "--to" {
                guard let name = rest.popFirst(), let chosen = Target(rawValue: name) else {
                    throw Failure(description: "--to takes json, xml or binary\n\(usage)", exitCode: 64)
                }
                target = chosen
            } else if path == nil, !argument.hasPrefix("--") {
                path = argument
            } else {
                throw Failure(description: "unexpected argument '\(argument)'\n\(usage)", exitCode: 64)
            }
        }
        guard let path, let target else {
            throw Failure(description: "convert needs a FILE and --to\n\(usage)", exitCode: 64)
        }
        let input: Data
        do {
            input = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Failure(description: "cannot read \(path): \(error.localizedDescription)")
        }
        return try convert(input, named: path, to: target)
    }

    static func convert(_ input: Data, named name: String, to target: Target) throws -> Data {
        let value: DynamicValue
        do {
            value = try decode(input)
        } catch {
            throw Failure(description: "\(name): \(error)")
        }
        if target != .json, let path = value.firstNullPath() {
            throw Failure(description: "\(name): null at \(path) cannot be written to a property list, which has no null value")
        }
        switch target {
        case .json:
            var text = try JSONCodec.json(.pretty).encode(value)
            text.append(UInt8(ascii: "\n"))
            return text
        case .xml: return try PropertyListCodec.propertyList(.xml).encode(value)
        case .binary: return try PropertyListCodec.propertyList(.binary).encode(value)
        }
    }

    /// Detects the format from the first bytes: `bplist`, `<` (XML), anything else JSON.
    static func decode(_ input: Data) throws -> DynamicValue {
        let bytes = input.prefix(64)
        if bytes.starts(with: Array("bplist".utf8)) {
            return try PropertyListCodec.propertyList(.binary).decode(DynamicValue.self, from: input)
        }
        let firstVisible = bytes.drop(while: { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }).first
        if firstVisible == UInt8(ascii: "<") {
            return try PropertyListCodec.propertyList(.xml).decode(DynamicValue.self, from: input)
        }
        return try JSONCodec.json.decode(DynamicValue.self, from: input)
    }
}
