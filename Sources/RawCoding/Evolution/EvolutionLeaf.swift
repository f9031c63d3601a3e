import Foundation

/// A type the evolving decoder reads as it is: it has no keys of its own, or its coders treat
/// it specially (a date strategy, `[String: Value]` keys that a key strategy leaves alone).
protocol EvolutionLeaf {}

extension String: EvolutionLeaf {}
extension Bool: EvolutionLeaf {}
extension Double: EvolutionLeaf {}
extension Float: EvolutionLeaf {}
extension Int: EvolutionLeaf {}
extension Int8: EvolutionLeaf {}
extension Int16: EvolutionLeaf {}
extension Int32: EvolutionLeaf {}
extension Int64: EvolutionLeaf {}
extension UInt: EvolutionLeaf {}
extension UInt8: EvolutionLeaf {}
extension UInt16: EvolutionLeaf {}
extension UInt32: EvolutionLeaf {}
extension UInt64: EvolutionLeaf {}
extension Date: EvolutionLeaf {}
extension Data: EvolutionLeaf {}
extension URL: EvolutionLeaf {}
extension Decimal: EvolutionLeaf {}
extension StoredValue: EvolutionLeaf {}
extension StoredDictionary: EvolutionLeaf {}
extension Dictionary: EvolutionLeaf where Key == String, Value: Decodable {}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension Int128: EvolutionLeaf {}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension UInt128: EvolutionLeaf {}
