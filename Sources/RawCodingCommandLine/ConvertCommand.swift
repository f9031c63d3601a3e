import Foundation
import RawCoding

/// `rawcoding convert INPUT --to FORMAT [--from FORMAT] [-o OUTPUT] [--restore dates,data]`.
enum ConvertCommand {
    static var help: String { ConvertOptions.help }

    static func run(_ arguments: [String], io: ToolIO) throws(ToolFailure) -> Int32 {
        try run(ConvertOptions(parsing: arguments), io: io)
        return 0
    }

    /// Converts as `options` say; `quiet` leaves out the notes (plutil's `-s`).
    static func run(_ options: ConvertOptions, io: ToolIO, quiet: Bool = false) throws(ToolFailure) {
        let data = try Document.bytes(of: options.input, io: io)
        var conversion = Conversion(options: options)
        // Large JSON inputs go value by value, written as they are made.
        var streamed = try conversion.streamToText(data, io: io)
        if !streamed { streamed = try conversion.streamToBinary(data, io: io) }
        if !streamed {
            var bytes = try conversion.convert(data)
            if options.target == .jsonPretty { bytes.append(UInt8(ascii: "\n")) }
            try Document.write(bytes, to: options.output, io: io)
        }
        if !quiet {
            for note in conversion.mapping.notes { io.message("rawcoding: \(note)") }
        }
    }

    /// `tree` in `format`; what the format cannot hold is an input error naming its path.
    /// `under` is where `tree` sits in its document, for the paths in messages.
    static func write(
        _ tree: StoredValue, as format: OutputFormat, limits: Limits, name: String, under: [any CodingKey] = []
    ) throws(ToolFailure) -> [UInt8] {
        do throws(ConvertFailure) {
            return try Conversion.write(tree, as: format, limits: limits)
        } catch {
            throw error.toolFailure(for: name, under: under)
        }
    }
}

/// The progress line: inputs over about 50 MB get one on standard error when it is a terminal.
package enum LargeInputNotice {
    package static let threshold = 50_000_000

    package static func announce(bytes: Int, path: String, io: ToolIO) {
        guard bytes > threshold, io.messagesGoToTerminal else { return }
        io.message("rawcoding: reading \(Document.display(path)) (\(bytes / 1_000_000) MB)…")
    }
}
