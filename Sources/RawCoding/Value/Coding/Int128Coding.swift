import Foundation

// 128-bit integers (Swift 6): integers when they fit in 64 bits, exact decimals beyond that
// when a Decimal holds them (38 significant digits, 39 below 2^128; the JSON codec writes
// every digit); larger values are an encoding error naming the path.

extension EncodingNode {
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func stored<Integer: BinaryInteger>(wide value: Integer, step: CodingPathStep?) throws -> StoredValue {
        if let int = Int64(exactly: value) { return .int(int) }
        if let uint = UInt64(exactly: value) { return .uint(uint) }
        if let decimal = NumberParsing.exactDecimal(String(value)) { return .decimal(decimal) }
        var path = codingPath
        if let step { path.append(step.codingKey) }
        throw EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: path,
                debugDescription:
                    "\(value) has more significant digits than a Decimal holds; StoredValue holds integers exactly up to 38 digits (39 below 2^128)."
            ))
    }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension StoredKeyedEncodingContainer {
    mutating func encode(_ value: Int128, forKey key: Key) throws {
        node.set(try node.stored(wide: value, step: .key(key)), forKey: self.key(key))
    }

    mutating func encode(_ value: UInt128, forKey key: Key) throws {
        node.set(try node.stored(wide: value, step: .key(key)), forKey: self.key(key))
    }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension StoredUnkeyedEncodingContainer {
    mutating func encode(_ value: Int128) throws {
        node.elements.append(try node.stored(wide: value, step: .index(count)))
    }
    mutating func encode(_ value: UInt128) throws {
        node.elements.append(try node.stored(wide: value, step: .index(count)))
    }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension EncodingNode {
    func encode(_ value: Int128) throws { store(try stored(wide: value, step: nil)) }
    func encode(_ value: UInt128) throws { store(try stored(wide: value, step: nil)) }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension StoredKeyedDecodingContainer {
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
        try node.unboxInteger(entry(key), as: type, step: .key(key))
    }

    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
        try node.unboxInteger(entry(key), as: type, step: .key(key))
    }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension StoredUnkeyedDecodingContainer {
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try decode(wide: type) }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try decode(wide: type) }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension DecodingNode {
    func decode(_ type: Int128.Type) throws -> Int128 { try unboxInteger(value, as: type, step: nil) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try unboxInteger(value, as: type, step: nil) }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension ScanKeyedDecodingContainer {
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
        try node.unboxInteger(entry(key), as: type, step: .key(key))
    }

    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
        try node.unboxInteger(entry(key), as: type, step: .key(key))
    }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension ScanUnkeyedDecodingContainer {
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try decode(wide: type) }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try decode(wide: type) }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension ScanDecodingNode {
    func decode(_ type: Int128.Type) throws -> Int128 { try unboxInteger(token, as: type, step: nil) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try unboxInteger(token, as: type, step: nil) }
}
