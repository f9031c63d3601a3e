import Foundation
import RawCoding

/// `rawcoding print FILE`: an indented view of any supported file, with types.
enum PrintCommand {
    static let help = """
        usage: rawcoding print FILE [--from FORMAT] [limits]

        Prints FILE (or - for standard input), a JSON document or an XML or binary property
        list, as an indented tree with each value's type, in the file's order:

        A dictionary whose one key is CF$UID, holding an integer (how a binary property list's
        UID, from NSKeyedArchiver, is read, and how XML writes one), is shown as uid N.

          {
            "name" => string "Ada"
            "size" => integer 14
            "tags" => array (1) [
              0 => string "math"
            ]
          }

        options:
          --from FORMAT      auto (the default, from the bytes), json, xml, binary or openstep
          --max-bytes N, --max-depth N, --max-values N, --max-expansion N   as for convert
        """

    static func run(_ arguments: [String], io: ToolIO) throws(ToolFailure) -> Int32 {
        let parsed = try Arguments(
            arguments, valued: Set(["--from"]).union(ToolLimits.options), flags: [], command: "print")
        guard parsed.positional.count == 1 else {
            throw .usage("print takes one FILE (or - for standard input); see rawcoding print --help")
        }
        let path = parsed.positional[0]
        let data = try Document.bytes(of: path, io: io)
        let read = try Document.tree(
            data, path: path, from: try InputFormat.read(parsed.values["--from"]), limits: try ToolLimits.read(parsed))
        var text = ""
        TreeView.write(read.tree, indent: 0, into: &text)
        text += "\n"
        do {
            try io.write(Array(text.utf8), "-")
        } catch {
            throw .input("cannot write: \(error)")
        }
        return 0
    }
}

/// The indented view `print` shows.
enum TreeView {
    static func write(_ value: StoredValue, indent: Int, into text: inout String) {
        let pad = String(repeating: "  ", count: indent + 1)
        switch value {
        case .array(let elements):
            guard !elements.isEmpty else {
                text += "array (0) []"
                return
            }
            text += "array (\(elements.count)) [\n"
            for (index, element) in elements.enumerated() {
                text += "\(pad)\(index) => "
                write(element, indent: indent + 1, into: &text)
                text += "\n"
            }
            text += String(repeating: "  ", count: indent) + "]"
        case .dictionary(let dictionary):
            if let uid = value.keyedArchiverUID {
                // What a binary property list's UID object reads as (CF$UID, as in XML).
                text += "uid \(uid)"
                return
            }
            guard !dictionary.isEmpty else {
                text += "dictionary (0) {}"
                return
            }
            text += indent == 0 && text.isEmpty ? "{\n" : "dictionary (\(dictionary.count)) {\n"
            for (key, element) in dictionary {
                text += "\(pad)\(quoted(key)) => "
                write(element, indent: indent + 1, into: &text)
                text += "\n"
            }
            text += String(repeating: "  ", count: indent) + "}"
        default:
            text += scalar(value)
        }
    }

    static func scalar(_ value: StoredValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let bool): return "bool \(bool)"
        case .int(let int): return "integer \(int)"
        case .uint(let uint): return "integer \(uint)"
        case .double(let double): return "real \(double)"
        case .decimal(let decimal): return "decimal \(decimal)"
        case .string(let string): return "string \(quoted(string))"
        case .date(let date):
            return "date \(DateText.exactISO8601(of: date) ?? "\(date.timeIntervalSinceReferenceDate) s from 2001")"
        case .data(let data):
            let shown = data.prefix(32).map { byte in
                let hex = String(byte, radix: 16)
                return byte < 16 ? "0" + hex : hex
            }.joined()
            return "data (\(data.count) bytes) \(shown)\(data.count > 32 ? "…" : "")"
        case .array, .dictionary: return ""
        }
    }

    /// `text` quoted as the value tree's description quotes it.
    static func quoted(_ text: String) -> String { StoredValue.quoted(text) }
}
