import Foundation

/// Scalar elements: strings, integers, reals, booleans, dates and data.
extension XMLPropertyListParser {
    @inline(never)
    mutating func parseScalar(tag: Tag, selfClosing: Bool, at start: Int) throws(FormatFailure) -> StoredValue {
        switch tag {
        case .dict, .array: throw malformed("<\(tag.name)> where a scalar was expected", at: start)
        case .string: return .string(try text(of: .string, selfClosing: selfClosing, at: start))
        case .true, .false:
            if !selfClosing {
                try skipMisc(prolog: false)
                try endTag(tag, openedAt: start)
            }
            return .bool(tag == .true)
        case .integer:
            let contentStart = index
            let reader = self  // the closure reads the same bytes while this parser moves on
            return try withContent(of: .integer, selfClosing: selfClosing, at: start) { content throws(FormatFailure) in
                try reader.integer(content, at: contentStart)
            }
        case .real:
            let contentStart = index
            let reader = self
            return try withContent(of: .real, selfClosing: selfClosing, at: start) { content throws(FormatFailure) in
                try reader.real(content, at: contentStart)
            }
        case .date:
            let contentStart = index
            let reader = self
            return try withContent(of: .date, selfClosing: selfClosing, at: start) { content throws(FormatFailure) in
                guard let date = DateText.date(from: reader.trimmed(content)) else {
                    throw reader.malformed(
                        "invalid date \"\(reader.shown(content))\"; expected YYYY-MM-DDTHH:MM:SSZ", at: contentStart)
                }
                return .date(date)
            }
        case .data:
            let contentStart = index
            let reader = self
            return try withContent(of: .data, selfClosing: selfClosing, at: start) { content throws(FormatFailure) in
                guard let data = Data(base64Encoded: Data(content.filter { !reader.isWhitespace($0) })) else {
                    throw reader.malformed("invalid Base64 in <data>", at: contentStart)
                }
                return .data(data)
            }
        case .key:
            throw malformed("<key> outside a <dict>", at: start)
        case .plist:
            throw malformed("<plist> inside a property list", at: start)
        case .other(let name):
            throw malformed(
                "unknown element <\(name)>; property lists hold dict, array, string, integer, real, true, false, date and data",
                at: start)
        }
    }

    /// `content` without leading and trailing XML whitespace.
    func trimmed(_ content: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = content.count
        while start < end, isWhitespace(content[start]) { start += 1 }
        while end > start, isWhitespace(content[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: content[start..<end])
    }

    /// `content` after the spaces Core Foundation skips before a number: ASCII controls,
    /// space and DEL before an integer (and again after its sign), XML whitespace before a real.
    /// Nothing is skipped after a number: `"42 "` is not an integer, as in Core Foundation.
    func skippingLeadingSpace(
        _ content: UnsafeBufferPointer<UInt8>, isSpace: (UInt8) -> Bool
    ) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: content.drop(while: isSpace))
    }

    static func isIntegerSpace(_ byte: UInt8) -> Bool { byte <= 0x20 || byte == 0x7F }

    func shown(_ content: UnsafeBufferPointer<UInt8>) -> String {
        shown(String(decoding: content, as: UTF8.self))
    }

    func integer(_ content: UnsafeBufferPointer<UInt8>, at offset: Int) throws(FormatFailure) -> StoredValue {
        // S*(-|+)?S*[0-9]+ or the same with 0x and hexadecimal digits, as Core Foundation reads it.
        var text = skippingLeadingSpace(content, isSpace: Self.isIntegerSpace)
        var negative = false
        if let sign = text.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            text = skippingLeadingSpace(UnsafeBufferPointer(rebasing: text.dropFirst()), isSpace: Self.isIntegerSpace)
        }
        var radix: UInt64 = 10
        if text.count > 2, text[0] == UInt8(ascii: "0"), text[1] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            text = UnsafeBufferPointer(rebasing: text.dropFirst(2))
        }
        guard !text.isEmpty else { throw malformed("invalid integer \"\(shown(content))\"", at: offset) }
        var magnitude: UInt64 = 0
        for byte in text {
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt64(byte - UInt8(ascii: "A") + 10)
            default: throw malformed("invalid integer \"\(shown(content))\"", at: offset)
            }
            let (times, overflow1) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, overflow2) = times.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else {
                throw malformed(NumberParsing.outside64Bits(shown(content)), at: offset)
            }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else {
                throw malformed(NumberParsing.outside64Bits(shown(content)), at: offset)
            }
            return .int(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
        }
        return magnitude <= UInt64(Int64.max) ? .int(Int64(magnitude)) : .uint(magnitude)
    }

    func real(_ content: UnsafeBufferPointer<UInt8>, at offset: Int) throws(FormatFailure) -> StoredValue {
        // As strtod reads it: spaces before the number, none after.
        let text = skippingLeadingSpace(content, isSpace: isWhitespace)
        if let first = text.first,
            first | 0x20 == UInt8(ascii: "n") || first | 0x20 == UInt8(ascii: "i")
                || ((first == UInt8(ascii: "+") || first == UInt8(ascii: "-")) && text.count > 1
                    && text[1] | 0x20 == UInt8(ascii: "i"))
        {
            switch String(decoding: text, as: UTF8.self).lowercased() {
            case "nan": return .double(.nan)
            case "inf", "+inf", "infinity", "+infinity": return .double(.infinity)
            case "-inf", "-infinity": return .double(-.infinity)
            default: throw malformed("invalid real \"\(shown(content))\"", at: offset)
            }
        }
        guard let (value, isNonzero) = NumberParsing.double(text) else {
            throw malformed("invalid real \"\(shown(content))\"", at: offset)
        }
        guard value.isFinite else {
            throw malformed(
                "real \(shown(content)) is too large for a Double; write +infinity if that is meant", at: offset)
        }
        guard value != 0 || !isNonzero else { throw malformed(NumberParsing.underflows(shown(content)), at: offset) }
        return .double(value)
    }
}
