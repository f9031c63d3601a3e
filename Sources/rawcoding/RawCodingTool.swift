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
            throw Failure(
                description: arguments.isEmpty
                    ? "missing command\n\(usage)" : "unknown command '\(arguments[0])'\n\(usage)", exitCode: 64)
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
        let source = TreeFormats.detect(input)
        let value: StoredValue
        do {
            value = try source.readTree(input, limits: .default)
        } catch {
            throw Failure(description: "\(name): \(RawCodingError(error, subject: StoredValue.self))")
        }
        if target != .json, let path = firstNullPath(in: value) {
            throw Failure(
                description: "\(name): null at \(path) cannot be written to a property list, which has no null value")
        }
        let format: any TreeFormat =
            switch target {
            case .json: JSONTreeFormat(formatting: .pretty)
            case .xml: XMLPropertyListTreeFormat()
            case .binary: BinaryPropertyListTreeFormat()
            }
        do {
            var output = try format.writeTree(value, limits: .default, allowingLoss: true)
            if target == .json { output.append(UInt8(ascii: "\n")) }
            return Data(output)
        } catch {
            throw Failure(description: "\(name): \(RawCodingError(error, subject: StoredValue.self))")
        }
    }

    /// The key path of the first null in `value`, such as `a.b[1]`.
    static func firstNullPath(in value: StoredValue, _ prefix: String = "") -> String? {
        switch value {
        case .null:
            return prefix.isEmpty ? "<top level>" : prefix
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let path = firstNullPath(in: element, "\(prefix)[\(index)]") { return path }
            }
        case .dictionary(let dictionary):
            for (key, element) in dictionary {
                if let path = firstNullPath(in: element, prefix.isEmpty ? key : "\(prefix).\(key)") { return path }
            }
        default:
            break
        }
        return nil
    }
}
