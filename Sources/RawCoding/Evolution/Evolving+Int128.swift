// 128-bit integers pass through the evolving containers to the base coder's own support, and
// are recorded as they are in a default (the protocols' default implementations throw).

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension DefaultCaptureKeyedContainer {
    mutating func encode(_ value: Int128, forKey key: Key) {
        node.children?[key.stringValue] = DefaultNode(value: value)
    }
    mutating func encode(_ value: UInt128, forKey key: Key) {
        node.children?[key.stringValue] = DefaultNode(value: value)
    }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension DefaultCaptureUnkeyedContainer {
    mutating func encode(_ value: Int128) { count += 1 }
    mutating func encode(_ value: UInt128) { count += 1 }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension DefaultCaptureSingleValueContainer {
    mutating func encode(_ value: Int128) {}
    mutating func encode(_ value: UInt128) {}
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension EvolvingKeyedContainer {
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
        try filled(type, key) ?? base.decode(type, forKey: key)
    }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
        try filled(type, key) ?? base.decode(type, forKey: key)
    }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension EvolvingUnkeyedContainer {
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try base.decode(type) }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try base.decode(type) }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension EvolvingSingleValueContainer {
    func decode(_ type: Int128.Type) throws -> Int128 { try base.decode(type) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try base.decode(type) }
}
