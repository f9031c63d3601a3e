import Foundation

/// A flat scan of JSON text: one token per value and per key, in document order, with no heap
/// object per value. The Codable decoder reads a model straight from it; ``JSONParser`` stays
/// the reader of trees.
///
/// The scan accepts a subset of what ``JSONParser`` accepts, never more: whenever it meets
/// something it does not handle itself (any malformed input, a limit reached, a key with
/// escapes, a repeated key), it gives up and the caller reads the tree instead, so errors and
/// the meaning of every document stay those of ``JSONParser``.
struct JSONScan {
    /// What a token is. Containers are followed by their members' tokens (an object's as key,
    /// value, key, value...).
    enum Kind: UInt8 {
        case null, `false`, `true`
        /// A string without escapes: its UTF-8 bytes (validated) at `offset`, `length` long.
        case string
        /// A string with escapes, made as ``JSONParser`` makes it: `payload` indexes
        /// ``strings``.
        case escapedString
        /// An integer the tree holds as ``StoredValue/int(_:)``: `payload` is its bits.
        case integer
        /// A number with a fraction or exponent that converts by a fast exact path: `payload`
        /// is the nearest `Double`'s bits; its text is at `offset`, `length` long.
        case double
        /// Any other number, read by ``JSONParser``: `payload` indexes ``numbers``.
        case otherNumber
        /// `length` members (entries, for an object); `payload` is the index after the last
        /// member's tokens; `offset` is the opening bracket.
        case array, object
        /// An object's key without escapes: its UTF-8 bytes (validated) at `offset`; `payload`
        /// is their hash.
        case key
    }

    struct Token {
        /// The kind in the top byte, a length or member count below it.
        var header: UInt64
        var offset: Int
        var payload: UInt64

        @inline(__always) var kind: Kind { Kind(rawValue: UInt8(truncatingIfNeeded: header >> 56)).unsafelyUnwrapped }
        @inline(__always) var length: Int { Int(truncatingIfNeeded: header & 0x00FF_FFFF_FFFF_FFFF) }

        /// The index after this token's value (and after its members), the token being at `index`.
        @inline(__always)
        func end(at index: Int) -> Int {
            switch kind {
            case .array, .object: return Int(truncatingIfNeeded: payload)
            default: return index + 1
            }
        }

        @inline(__always)
        init(_ kind: Kind, offset: Int, length: Int = 0, payload: UInt64 = 0) {
            header = UInt64(kind.rawValue) << 56 | UInt64(truncatingIfNeeded: length)
            self.offset = offset
            self.payload = payload
        }
    }

    private(set) var bytes: UnsafeBufferPointer<UInt8>
    let limits: Limits
    private(set) var tokens: [Token] = []
    /// The strings with escapes, as ``JSONParser`` reads them.
    private(set) var strings: [String] = []
    /// The numbers no fast path reads, as ``JSONParser`` reads them.
    private(set) var numbers: [StoredValue] = []
    /// The key hashes of the object being checked for a repeated key.
    private var hashes: [UInt64] = []
    /// Whether the tokens of a closed container's members are kept (a scan to read from), or
    /// dropped once the container is checked (a scan that only says whether it takes the
    /// document, whose memory then stays within the open containers' members).
    private let keepsMembers: Bool

    private init(bytes: UnsafeBufferPointer<UInt8>, limits: Limits, keepsMembers: Bool = true) {
        self.bytes = bytes
        self.limits = limits
        self.keepsMembers = keepsMembers
    }

    /// Whether the scan takes `bytes`: `true` only for documents ``JSONParser`` reads (see the
    /// type's summary), without keeping the tokens.
    static func takes(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits) -> Bool {
        guard bytes.count <= limits.maximumInputBytes, bytes.count < 1 << 55 else { return false }
        var scan = JSONScan(bytes: bytes, limits: limits, keepsMembers: false)
        scan.tokens.reserveCapacity(1 << 12)
        return scan.run()
    }

    /// The scan of `bytes`, or `nil` when ``JSONParser`` is to decide (see the type's summary);
    /// its keys converted from snake case where `convertingKeys` says
    /// (``convertKeysFromSnakeCase()``).
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits, convertingKeys: Bool = false) -> JSONScan? {
        guard bytes.count <= limits.maximumInputBytes, bytes.count < 1 << 55 else { return nil }
        var scan = JSONScan(bytes: bytes, limits: limits)
        scan.tokens.reserveCapacity(bytes.count / 8 + 4)
        guard scan.run() else { return nil }
        if convertingKeys, !scan.convertKeysFromSnakeCase() { return nil }
        return scan
    }

    /// This scan over `copy`, a copy of the bytes it scanned: tokens hold offsets, not
    /// addresses, so the scan can be made on the caller's bytes and kept over a copy.
    func over(_ copy: UnsafeBufferPointer<UInt8>) -> JSONScan {
        precondition(copy.count == bytes.count, "a scan moves only to a copy of its bytes")
        var scan = self
        scan.bytes = copy
        return scan
    }

    // MARK: Scanning

    @inline(__always)
    private func skipWhitespace(_ index: inout Int) {
        guard index < bytes.count, bytes[index] <= 0x20 else { return }
        let base = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped)
        while index < bytes.count {
            // A run of spaces (indentation) measured eight bytes at a time.
            if bytes.count - index >= 8 {
                let others = base.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ 0x2020_2020_2020_2020
                let spaces = others.trailingZeroBitCount &>> 3
                index &+= spaces
                if spaces == 8 { continue }
            }
            guard index < bytes.count else { return }
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func run() -> Bool {
        var index = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        // The open containers are a chain through their own tokens, with no stack of their
        // own to allocate: `current` is the innermost one's token (-1 at the top level); while
        // a container is open, its `payload` is its parent's token + 1 and its length counts
        // the members read so far.
        var current = -1
        var depth = 0
        let maximumDepth = limits.effectiveDepth
        var valueCount = 0
        skipWhitespace(&index)
        while true {
            // A value starts at `index`.
            let start = index
            valueCount += 1
            guard valueCount <= limits.maximumValueCount, index < bytes.count else { return false }
            var completed = true
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[index] == UInt8(ascii: "{")
                depth += 1
                guard depth <= maximumDepth else { return false }
                let opened = tokens.count
                tokens.append(Token(isObject ? .object : .array, offset: index, payload: UInt64(current + 1)))
                index += 1
                skipWhitespace(&index)
                if index < bytes.count, bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    depth -= 1
                    tokens[opened].payload = UInt64(tokens.count)
                } else if isObject {
                    current = opened
                    guard scanKey(&index) else { return false }
                    completed = false
                } else {
                    current = opened
                    completed = false
                }
            case UInt8(ascii: "\""):
                guard scanString(&index) else { return false }
            case UInt8(ascii: "t"):
                guard literal("true", at: &index) else { return false }
                tokens.append(Token(.true, offset: start))
            case UInt8(ascii: "f"):
                guard literal("false", at: &index) else { return false }
                tokens.append(Token(.false, offset: start))
            case UInt8(ascii: "n"):
                guard literal("null", at: &index) else { return false }
                tokens.append(Token(.null, offset: start))
            default:
                guard scanNumber(&index) else { return false }
            }
            guard completed else { continue }
            // After a value: separators and closing brackets up to the next value.
            while true {
                skipWhitespace(&index)
                guard current >= 0 else { return index == bytes.count }
                guard index < bytes.count else { return false }
                tokens[current].header += 1
                let isObject = tokens[current].kind == .object
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: ",") {
                    skipWhitespace(&index)
                    if isObject {
                        guard scanKey(&index) else { return false }
                    }
                    break
                }
                guard byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
                let closed = current
                current = Int(truncatingIfNeeded: tokens[closed].payload) - 1
                depth -= 1
                tokens[closed].payload = UInt64(tokens.count)
                if isObject, tokens[closed].length > 1, hasRepeatedKey(closed) { return false }
                if !keepsMembers, current >= 0 {
                    tokens.removeLast(tokens.count - closed - 1)
                    tokens[closed].payload = UInt64(closed + 1)
                    strings.removeAll(keepingCapacity: true)
                    numbers.removeAll(keepingCapacity: true)
                }
            }
        }
    }

    private func literal(_ text: StaticString, at index: inout Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count,
            memcmp(bytes.baseAddress.unsafelyUnwrapped + index, text.utf8Start, count) == 0
        else { return false }
        index += count
        return true
    }

    /// The end (the closing quote) of a string without escapes whose text starts at `start`,
    /// and whether it is ASCII; `nil` at an escape, a control character or the end. Eight
    /// bytes at a time while none of them is a quote, a backslash or a control byte, non-ASCII
    /// text included (the high bits of the words passed are gathered to tell it).
    @inline(__always)
    private func plainString(from start: Int) -> (end: Int, ascii: Bool)? {
        var cursor = start
        var high: UInt64 = 0
        while true {
            skipPlainWords(&cursor, high: &high)
            guard cursor < bytes.count else { return nil }
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") { return (cursor, high & 0x8080_8080_8080_8080 == 0) }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            high |= UInt64(byte)
            cursor += 1
        }
    }

    /// Moves `cursor` over a string's plain bytes eight at a time, to the first quote,
    /// backslash or control byte, or to where fewer than eight bytes are left; gathers the
    /// bytes passed into `high`, whose high bits tell non-ASCII text.
    @inline(__always)
    private func skipPlainWords(_ cursor: inout Int, high: inout UInt64) {
        let base = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped)
        while bytes.count - cursor >= 8 {
            let word = base.loadUnaligned(fromByteOffset: cursor, as: UInt64.self)
            let specials = JSONStringBytes.specials(in: word)
            if specials != 0 {
                // The lowest flagged byte is the first special one (flags above it may be
                // false), so the run ends there without a byte loop.
                let run = specials.trailingZeroBitCount &>> 3
                high |= word & ((1 &<< UInt64(run &<< 3)) &- 1)
                cursor &+= run
                return
            }
            // A whole word of plain bytes.
            high |= word
            cursor += 8
        }
    }

    /// `"key":` and the whitespace after it; keys with escapes are left to the tree reader.
    private mutating func scanKey(_ index: inout Int) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let (end, ascii) = plainString(from: index + 1),
            ascii || UTF8Validation.firstInvalidByte(in: bytes, index + 1..<end) == nil
        else {
            return false
        }
        tokens.append(Token(.key, offset: index + 1, length: end - index - 1, payload: hash(index + 1..<end)))
        index = end + 1
        skipWhitespace(&index)
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
        index += 1
        skipWhitespace(&index)
        return true
    }

    private mutating func scanString(_ index: inout Int) -> Bool {
        if let (end, ascii) = plainString(from: index + 1) {
            // Non-ASCII text is validated here and made into a `String` only when it is read
            // (the tree reader refuses the same bytes, and makes the same `String` of them).
            guard ascii || UTF8Validation.firstInvalidByte(in: bytes, index + 1..<end) == nil else { return false }
            tokens.append(Token(.string, offset: index + 1, length: end - index - 1))
            index = end + 1
            return true
        }
        guard let (string, end) = escapedString(from: index + 1) else { return false }
        strings.append(string)
        tokens.append(Token(.escapedString, offset: index, length: end - index, payload: UInt64(strings.count - 1)))
        index = end
        return true
    }

    /// A string with escapes and the index after its closing quote, `nil` where the parser
    /// fails (the tree reader then reports why). Escapes of one character after the backslash
    /// (`\/`, `\"`, `\n`…, as `JSONEncoder` writes every URL) are unescaped here; at the first
    /// other one (`\u`) the parser reads on from the first escape.
    private func escapedString(from start: Int) -> (string: String, end: Int)? {
        var cursor = start
        var high: UInt64 = 0
        var escapes = 0
        var firstEscape: (at: Int, high: UInt64)?
        while true {
            skipPlainWords(&cursor, high: &high)
            guard cursor < bytes.count else { return nil }
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") { break }
            if byte != UInt8(ascii: "\\") {
                // A plain byte within the input's last eight, which the words above leave.
                guard byte >= 0x20 else { return nil }  // a control character
                high |= UInt64(byte)
                cursor += 1
                continue
            }
            if firstEscape == nil { firstEscape = (cursor, high) }
            guard cursor + 1 < bytes.count, JSONStringBytes.unescaped(bytes[cursor + 1]) != nil else {
                return parsedString(from: start, firstEscape: firstEscape.unsafelyUnwrapped)
            }
            escapes += 1
            cursor += 2
        }
        let end = cursor
        // Escapes make ASCII bytes only: the text is valid UTF-8 exactly when its raw bytes are.
        guard high & 0x8080_8080_8080_8080 == 0 || UTF8Validation.firstInvalidByte(in: bytes, start..<end) == nil else {
            return nil
        }
        let base = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped)
        let string = String(unsafeUninitializedCapacity: end - start - escapes) { output in
            // Runs between escapes copied whole; each escape's byte after its run.
            let target = UnsafeMutableRawPointer(output.baseAddress.unsafelyUnwrapped)
            var written = 0
            var position = start
            while position < end {
                let found = memchr(base + position, Int32(UInt8(ascii: "\\")), end - position)
                let runEnd = found.map { UnsafeRawPointer($0) - base } ?? end
                target.advanced(by: written).copyMemory(from: base + position, byteCount: runEnd - position)
                written += runEnd - position
                guard runEnd < end else { break }
                output[written] = JSONStringBytes.unescaped(bytes[runEnd + 1]).unsafelyUnwrapped
                written += 1
                position = runEnd + 2
            }
            return written
        }
        return (string, end + 1)
    }

    /// The string from `start` as ``JSONParser`` reads it, from its first escape on (the bytes
    /// before it are plain, ASCII when `firstEscape.high` says so).
    private func parsedString(from start: Int, firstEscape: (at: Int, high: UInt64)) -> (string: String, end: Int)? {
        var parser = JSONParser(bytes: bytes, limits: limits)
        do throws(FormatFailure) {
            let string = try parser.parseEscapedString(
                start: start, runStart: firstEscape.at, ascii: firstEscape.high & 0x8080_8080_8080_8080 == 0)
            return (string, parser.index)
        } catch {
            return nil
        }
    }

    /// The number ``JSONParser`` reads at `index` (exactly, as a `Double` or a `Decimal`);
    /// `nil` when it fails there (the tree reader then reports the failure).
    private func numberByParser(at index: Int) -> StoredValue? {
        var parser = JSONParser(bytes: bytes, limits: limits)
        parser.index = index
        do throws(FormatFailure) {
            return try parser.parseNumber()
        } catch {
            return nil
        }
    }

    private mutating func scanNumber(_ index: inout Int) -> Bool {
        let (literal, end, problem) = NumberLiteral.scan(bytes, from: index, strict: true)
        guard problem == nil else { return false }
        if literal.isInteger, !literal.overflow {
            let limit = literal.negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
            if literal.mantissa <= limit, !(literal.negative && literal.mantissa == 0) {
                let value =
                    literal.negative ? Int64(truncatingIfNeeded: 0 &- literal.mantissa) : Int64(literal.mantissa)
                tokens.append(Token(.integer, offset: index, length: end - index, payload: UInt64(bitPattern: value)))
                index = end
                return true
            }
        } else if !literal.isInteger, let value = literal.fastDouble {
            tokens.append(Token(.double, offset: index, length: end - index, payload: value.bitPattern))
            index = end
            return true
        }
        guard let value = numberByParser(at: index) else { return false }
        numbers.append(value)
        tokens.append(Token(.otherNumber, offset: index, length: end - index, payload: UInt64(numbers.count - 1)))
        index = end
        return true
    }

    /// Whether the object at `token` repeats a key (the tree keeps the last value in the first
    /// one's place; the scan leaves that to it). Keys whose hashes meet are compared byte for
    /// byte.
    private mutating func hasRepeatedKey(_ token: Int) -> Bool {
        // A repeated key, or two keys with one hash.
        keyHashesMeet(token) && hasRepeatedKeyBytes(token)
    }

    /// Whether two keys of the object at `token` have one hash (their tokens' payloads), or a
    /// larger object's key has the hash zero.
    private mutating func keyHashesMeet(_ token: Int) -> Bool {
        let count = tokens[token].length
        if count > 12 { return keyHashesMeetInTable(token, count: count) }
        // On the stack: a small object's check allocates nothing.
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 12) { hashes -> Bool in
            var position = token + 1
            for index in 0..<count {
                hashes[index] = tokens[position].payload
                position = after(position + 1)
            }
            for later in 1..<count {
                for earlier in 0..<later where hashes[earlier] == hashes[later] { return true }
            }
            return false
        }
    }

    /// ``keyHashesMeet(_:)`` for a larger object: its hashes go into an open-addressing table
    /// at least twice its size, cleared for each object (zero marks a free slot, so a key whose
    /// hash is zero counts as meeting another).
    private mutating func keyHashesMeetInTable(_ token: Int, count: Int) -> Bool {
        var capacity = 32
        while capacity < 2 * count { capacity <<= 1 }
        if hashes.count < capacity { hashes = Array(repeating: 0, count: capacity) }
        let mask = capacity - 1
        let tokens = self.tokens
        return hashes.withUnsafeMutableBufferPointer { table -> Bool in
            table.baseAddress.unsafelyUnwrapped.update(repeating: 0, count: capacity)
            var position = token + 1
            for _ in 0..<count {
                let hash = tokens[position].payload
                guard hash != 0 else { return true }
                var slot = Int(truncatingIfNeeded: hash) & mask
                while table[slot] != 0 {
                    if table[slot] == hash { return true }
                    slot = (slot + 1) & mask
                }
                table[slot] = hash
                position = tokens[position + 1].end(at: position + 1)
            }
            return false
        }
    }

    /// A hash of a key's length and of its first and last eight bytes: enough to tell keys
    /// apart quickly (keys that share it are compared byte for byte).
    @inline(__always)
    private func hash(_ range: Range<Int>) -> UInt64 {
        let base = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped)
        let count = range.count
        var first: UInt64 = 0
        var last: UInt64 = 0
        if count >= 8 {
            first = base.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self)
            last = base.loadUnaligned(fromByteOffset: range.upperBound - 8, as: UInt64.self)
        } else if range.upperBound >= 8 {
            // The eight bytes that end with the key, shifted so only the key's are left.
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: range.upperBound - 8, as: UInt64.self))
            first = word >> UInt64((8 - count) * 8)
        } else {
            // The same value, byte by byte, at a document's start.
            for index in range { first |= UInt64(bytes[index]) << UInt64((index - range.lowerBound) * 8) }
        }
        var hash = (first ^ UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15) &* 0xFF51_AFD7_ED55_8CCD
        hash = (hash ^ hash >> 29 ^ last) &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ hash >> 32
    }

    private func hasRepeatedKeyBytes(_ token: Int) -> Bool {
        let count = tokens[token].length
        var seen = Set<KeyBytes>(minimumCapacity: count)
        var position = token + 1
        for _ in 0..<count {
            let key = tokens[position]
            let bytes = UnsafeRawBufferPointer(
                rebasing: UnsafeRawBufferPointer(self.bytes)[key.offset..<(key.offset + key.length)])
            if !seen.insert(KeyBytes(bytes: bytes)).inserted { return true }
            position = after(position + 1)
        }
        return false
    }

    private struct KeyBytes: Hashable {
        let bytes: UnsafeRawBufferPointer

        static func == (lhs: KeyBytes, rhs: KeyBytes) -> Bool {
            lhs.bytes.count == rhs.bytes.count
                && (lhs.bytes.isEmpty
                    || memcmp(
                        lhs.bytes.baseAddress.unsafelyUnwrapped, rhs.bytes.baseAddress.unsafelyUnwrapped,
                        lhs.bytes.count) == 0)
        }

        func hash(into hasher: inout Hasher) { hasher.combine(bytes: bytes) }
    }

    // MARK: Reading tokens

    /// The index after the value whose token is at `index` (and after its members).
    @inline(__always)
    func after(_ index: Int) -> Int { tokens[index].end(at: index) }

    /// Whether the key token at `index` has exactly the UTF-8 bytes of `key`.
    @inline(__always)
    func key(at index: Int, equals key: UnsafeBufferPointer<UInt8>) -> Bool {
        let token = tokens[index]
        guard token.length == key.count else { return false }
        return key.isEmpty
            || memcmp(bytes.baseAddress.unsafelyUnwrapped + token.offset, key.baseAddress.unsafelyUnwrapped, key.count)
                == 0
    }

    // MARK: Keys converted from snake case

    /// Gives every key token, as its hash, the hash of its name converted from snake case
    /// (``KeyConversion/fromSnakeCase(_:into:)``, hashed as ``KeyIndex/hash(bytes:)`` hashes a
    /// name), for ``convertedKey(at:equals:hash:)``. `false` where the tree decoder is to
    /// decide: a key the byte-wise conversion leaves to Foundation's, or two keys of one
    /// object with one converted hash (two keys converting to one name, whose first the tree
    /// takes; or, rarely, two names sharing a hash).
    mutating func convertKeysFromSnakeCase() -> Bool {
        for token in tokens.indices where tokens[token].kind == .object {
            var position = token + 1
            for _ in 0..<tokens[token].length {
                guard let hash = convertedKeyBytes(at: position, Self.convertedKeyHash(of:)) else { return false }
                tokens[position].payload = hash
                position = after(position + 1)
            }
            if tokens[token].length > 1, keyHashesMeet(token) { return false }
        }
        return true
    }

    /// The hash ``convertKeysFromSnakeCase()`` gives a key converting to `name`.
    static func convertedKeyHash(of name: UnsafeBufferPointer<UInt8>) -> UInt64 {
        UInt64(bitPattern: Int64(KeyIndex.hash(bytes: name)))
    }

    /// Whether the key token at `index`, converted from snake case, is `name`, whose
    /// ``convertedKeyHash(of:)`` is `hash` (after ``convertKeysFromSnakeCase()``).
    @inline(__always)
    func convertedKey(at index: Int, equals name: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Bool {
        let token = tokens[index]
        guard token.payload == hash else { return false }
        return withConvertedKey(at: index) { converted in
            converted.count == name.count
                && (name.isEmpty || memcmp(converted.baseAddress!, name.baseAddress!, name.count) == 0)
        }
    }

    /// The key token at `index` converted from snake case (after ``convertKeysFromSnakeCase()``,
    /// which made sure the byte-wise conversion decides).
    func convertedKeyString(at index: Int) -> String {
        withConvertedKey(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    private func withConvertedKey<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        guard let result = convertedKeyBytes(at: index, body) else {
            preconditionFailure("convertKeysFromSnakeCase() checked that every key converts byte-wise")
        }
        return result
    }

    /// `body` of the key token at `index` converted from snake case; `nil` where the byte-wise
    /// conversion does not decide.
    private func convertedKeyBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        let token = tokens[index]
        let source = UnsafeBufferPointer(rebasing: bytes[token.offset..<(token.offset + token.length)])
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(token.length, 1)) { output in
            KeyConversion.fromSnakeCase(source, into: output).map { body(UnsafeBufferPointer(rebasing: output[..<$0])) }
        }
    }

    /// The text of the key token at `index`.
    func keyString(at index: Int) -> String {
        let token = tokens[index]
        return String(
            decoding: UnsafeBufferPointer(rebasing: bytes[token.offset..<(token.offset + token.length)]), as: UTF8.self)
    }

    /// The text of the string token at `index`, if it is one.
    @inline(__always)
    func string(at index: Int) -> String? {
        let token = tokens[index]
        switch token.kind {
        case .string:
            return String(
                decoding: UnsafeBufferPointer(rebasing: bytes[token.offset..<(token.offset + token.length)]),
                as: UTF8.self)
        case .escapedString: return strings[Int(truncatingIfNeeded: token.payload)]
        default: return nil
        }
    }

    /// The UTF-8 of the string token at `index` when it holds no escape (its bytes in the
    /// document are its text); `nil` for anything else.
    @inline(__always)
    func plainStringBytes(at index: Int) -> UnsafeBufferPointer<UInt8>? {
        let token = tokens[index]
        guard token.kind == .string else { return nil }
        return UnsafeBufferPointer(rebasing: bytes[token.offset..<(token.offset + token.length)])
    }

    /// The value at `index` as ``JSONParser`` reads it.
    func storedValue(at index: Int) throws(FormatFailure) -> StoredValue {
        let token = tokens[index]
        switch token.kind {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .string, .escapedString, .key: return .string(string(at: index) ?? keyString(at: index))
        case .integer: return .int(Int64(bitPattern: token.payload))
        case .otherNumber: return numbers[Int(truncatingIfNeeded: token.payload)]
        case .double, .array, .object:
            // Exactness (a Double or a Decimal) and containers: the parser, on the same bytes.
            var parser = JSONParser(bytes: bytes, limits: limits)
            parser.index = token.offset
            return try parser.parseValue()
        }
    }
}

/// JSON string text eight bytes at a time, for the scan and the writer.
enum JSONStringBytes {
    /// The byte a one-character escape stands for (`n` for `\n`), `nil` for `u` and bytes
    /// that are no escape: the parser's table and the scan's.
    @inline(__always)
    static func unescaped(_ escape: UInt8) -> UInt8? {
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escape
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// The high bit of each byte of `word` that ends a string's plain run (a quote, a
    /// backslash, a control character), and possibly of bytes after such a byte; zero when
    /// none of the eight does.
    @inline(__always)
    static func specials(in word: UInt64) -> UInt64 {
        let quote = word ^ 0x2222_2222_2222_2222
        let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
        let found =
            ((quote &- 0x0101_0101_0101_0101) & ~quote) | ((backslash &- 0x0101_0101_0101_0101) & ~backslash)
            | ((word &- 0x2020_2020_2020_2020) & ~word)
        return found & 0x8080_8080_8080_8080
    }
}
