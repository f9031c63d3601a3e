import Foundation

/// Encoding and decoding types that take a configuration (`EncodableWithConfiguration`,
/// `DecodableWithConfiguration`), as `JSONEncoder.encode(_:configuration:)` and
/// `JSONDecoder.decode(_:from:configuration:)` do, with every codec.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Codec {
    /// Encodes a value that needs a configuration to encode itself.
    ///
    /// ```swift
    /// let data = try JSONCodec().encode(document, configuration: .init(includesHistory: false))
    /// ```
    /// - Parameters:
    ///   - value: The value; its `encode(to:configuration:)` is called with `configuration`.
    ///   - configuration: What the value's encoding is given.
    /// - Returns: The encoded bytes.
    /// - Throws: ``RawCodingError``, as ``Codec/encode(_:)``.
    public func encode<Value: EncodableWithConfiguration>(
        _ value: Value, configuration: Value.EncodingConfiguration
    ) throws(RawCodingError) -> Data {
        do {
            return try encode(ConfiguredEncoding(value: value, configuration: configuration))
        } catch {
            throw error.about(Value.self)
        }
    }

    /// Encodes a value with the configuration a provider type gives.
    /// - Parameters:
    ///   - value: The value; its `encode(to:configuration:)` is called with the provider's.
    ///   - configuration: The type whose `encodingConfiguration` is used.
    /// - Returns: The encoded bytes.
    /// - Throws: ``RawCodingError``, as ``Codec/encode(_:)``.
    public func encode<Value: EncodableWithConfiguration, Provider: EncodingConfigurationProviding>(
        _ value: Value, configuration: Provider.Type
    ) throws(RawCodingError) -> Data where Provider.EncodingConfiguration == Value.EncodingConfiguration {
        try encode(value, configuration: Provider.encodingConfiguration)
    }

    /// Decodes a value that needs a configuration to decode itself.
    ///
    /// ```swift
    /// let document = try JSONCodec().decode(Document.self, from: data, configuration: .init(includesHistory: false))
    /// ```
    /// - Parameters:
    ///   - type: The type; its `init(from:configuration:)` is called with `configuration`.
    ///   - data: The encoded bytes.
    ///   - configuration: What the type's decoding is given.
    /// - Returns: The value.
    /// - Throws: ``RawCodingError``, as ``Codec/decode(_:from:)``.
    public func decode<Value: DecodableWithConfiguration>(
        _ type: Value.Type, from data: Data, configuration: Value.DecodingConfiguration
    ) throws(RawCodingError) -> Value {
        do {
            return try ConfigurationBox.$current.withValue(ConfigurationBox(configuration, type: type)) {
                try decode(ConfiguredDecoding<Value>.self, from: data).value
            }
        } catch let error as RawCodingError {
            throw error.about(Value.self)
        } catch {
            throw RawCodingError.decoding(error, of: Value.self)
        }
    }

    /// Decodes a value with the configuration a provider type gives.
    /// - Parameters:
    ///   - type: The type; its `init(from:configuration:)` is called with the provider's.
    ///   - data: The encoded bytes.
    ///   - configuration: The type whose `decodingConfiguration` is used.
    /// - Returns: The value.
    /// - Throws: ``RawCodingError``, as ``Codec/decode(_:from:)``.
    public func decode<Value: DecodableWithConfiguration, Provider: DecodingConfigurationProviding>(
        _ type: Value.Type, from data: Data, configuration: Provider.Type
    ) throws(RawCodingError) -> Value where Provider.DecodingConfiguration == Value.DecodingConfiguration {
        try decode(type, from: data, configuration: Provider.decodingConfiguration)
    }
}

/// A value and its configuration, encoding as the value does.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct ConfiguredEncoding<Value: EncodableWithConfiguration>: Encodable {
    let value: Value
    let configuration: Value.EncodingConfiguration

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder, configuration: configuration)
    }
}

/// A configuration handed to ``ConfiguredDecoding`` through a task-local value, since a
/// codec decodes a type, not a type plus arguments (as ``EvolvingDecoding`` is handed on).
final class ConfigurationBox: @unchecked Sendable {
    @TaskLocal static var current: ConfigurationBox?

    let configuration: Any
    /// The metatype the caller passed, which may be a subclass of the static type.
    let type: Any.Type

    init(_ configuration: Any, type: Any.Type) {
        self.configuration = configuration
        self.type = type
    }
}

/// Decodes `Value` with the configuration of the innermost configured decode on this task.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct ConfiguredDecoding<Value: DecodableWithConfiguration>: Decodable {
    let value: Value

    init(from decoder: any Decoder) throws {
        guard let box = ConfigurationBox.current, let configuration = box.configuration as? Value.DecodingConfiguration
        else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "the codec decoded \(Value.self) on another task than the one that called it, so its configuration was not available"
                ))
        }
        let type = box.type as? Value.Type ?? Value.self
        value = try type.init(from: decoder, configuration: configuration)
    }
}
