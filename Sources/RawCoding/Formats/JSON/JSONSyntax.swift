/// How JSON text is read.
///
/// ```swift
/// let codec = JSONCodec(syntax: .json5)
/// let settings = try codec.decode(Settings.self, from: "{ theme: 'dark', size: 14, /* pt */ }")
/// ```
public enum JSONSyntax: Hashable, Sendable {
    /// RFC 8259, strictly: no comments, trailing commas, single quotes or `NaN`. The default.
    case strict
    /// JSON5 (json5.org), as `JSONDecoder` reads it with `allowsJSON5`: comments, trailing
    /// commas, single-quoted strings, unquoted keys, hexadecimal integers, `Infinity` and `NaN`,
    /// a leading `+`, leading or trailing `.`, escaped line breaks and `\x` escapes. Strings may
    /// not hold U+0000. What a codec writes is strict JSON, which JSON5 readers read.
    case json5
}
