import RawCoding

/// The tool's bounds: files are not `RawCodable` strings, so the defaults suit files of
/// hundreds of megabytes (bounded by memory), and `--max-bytes`, `--max-depth`,
/// `--max-values` and `--max-expansion` change them for every command.
enum ToolLimits {
    static let options: Set<String> = ["--max-bytes", "--max-depth", "--max-values", "--max-expansion"]

    /// 4 GiB of input, nesting 512 deep (the library's default: readers recurse once per
    /// level), 134,217,728 values: more than a 1 GB JSON document of numbers holds, and few
    /// enough that a binary property list whose shared references expand past it is refused
    /// instead of filling memory. A binary property list may expand to one value per byte of
    /// input beyond the first 65,536 (the library's default), so no file makes the tool use
    /// memory out of proportion to its size unless `--max-expansion` says so.
    static let `default` = Limits(maximumInputBytes: 4 << 30, maximumDepth: 512, maximumValueCount: 1 << 27)

    static func read(_ arguments: Arguments) throws(ToolFailure) -> Limits {
        try read(values: arguments.values)
    }

    /// The limits the options among `values` (option → its text) give.
    static func read(values: [String: String]) throws(ToolFailure) -> Limits {
        var limits = Self.default
        if let text = values["--max-bytes"] { limits.maximumInputBytes = try size(text, "--max-bytes") }
        if let text = values["--max-depth"] {
            limits.maximumDepth = try number(text, "--max-depth", within: 1...Limits.depthCeiling)
        }
        if let text = values["--max-values"] {
            limits.maximumValueCount = try number(text, "--max-values", within: 1...Int.max)
        }
        if let text = values["--max-expansion"] {
            limits.maximumExpansion = try number(text, "--max-expansion", within: 1...Int.max)
        }
        return limits
    }

    /// A byte count, with an optional K, M or G suffix (powers of 1024).
    static func size(_ text: String, _ option: String) throws(ToolFailure) -> Int {
        let multipliers: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(text)
        var multiplier = 1
        if let last = text.last?.uppercased().first, let scale = multipliers[last] {
            multiplier = scale
            digits = digits.dropLast()
        }
        guard let value = Int(digits), value > 0, value <= Int.max / multiplier else {
            throw .usage("\(option) takes a positive number of bytes, such as 64M, not \(text)")
        }
        return value * multiplier
    }

    /// `bytes` as `size(_:_:)` reads it: `4G`, `64M`, `512K`, or plain bytes.
    static func sizeText(_ bytes: Int) -> String {
        for (suffix, scale) in [("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)]
        where bytes % scale == 0 && bytes >= scale {
            return "\(bytes / scale)\(suffix)"
        }
        return "\(bytes)"
    }

    static func number(_ text: String, _ option: String, within range: ClosedRange<Int>) throws(ToolFailure) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw .usage("\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound), not \(text)")
        }
        return value
    }
}
