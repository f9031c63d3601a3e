import Foundation
import RawCoding

extension FuzzTargets {
    /// Container shapes: the bytes are a script of `Encoder` calls (containers asked for twice,
    /// nested containers and super encoders for one key, values over containers, single values
    /// beside containers). Every codec must give the same bytes or the same error on its sink
    /// path and through the tree, and a value written must read back as the tree it encoded.
    static func containerShapes(_ data: Data) throws(FuzzFailure) {
        let script = ScriptedValue(script: Array(data.prefix(96)))
        do {
            try sameEncoding(script)
        } catch  where error.description.contains("needs more stack than this thread has") {
            // The tree path is recursive and refuses a value the thread's stack may not hold
            // (the fuzzer's small thread, with AddressSanitizer's large frames); the sink path
            // is not. That refusal is about the thread, not the shape: nothing to compare.
            return
        }
        for codec in [JSONCodec(), PropertyListCodec(format: .binary)] as [any Codec] {
            let tree: StoredValue
            let written: Data
            do throws(RawCodingError) {
                tree = try codec.encodeTree(script)
                written = try codec.writeTree(tree)
            } catch {
                continue  // a refusal is allowed (a conflict, a value the format cannot hold)
            }
            let read: StoredValue
            do throws(RawCodingError) {
                read = try codec.readTree(from: written)
            } catch {
                throw FuzzFailure("\(codec) wrote \(tree) but cannot read it back: \(error)")
            }
            guard read == tree else { throw FuzzFailure("\(codec) wrote \(tree), read back \(read)") }
        }
    }
}

/// Writes part of itself, then throws.
struct PartlyWritten: Encodable {
    struct Refusal: Error {}
    let value: Int

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ScriptedValue.Key.self)
        try container.encode(value, forKey: ScriptedValue.Key(UInt8(truncatingIfNeeded: value)))
        throw Refusal()
    }
}

/// An `Encodable` whose `encode(to:)` runs a script of encoder calls, one per byte: the low
/// three bits pick the call, the rest the key (one of four) or the value.
struct ScriptedValue: Encodable, CustomStringConvertible {
    let script: [UInt8]

    var description: String { "ScriptedValue(\(script))" }

    /// One of four keys: in snake case, `bC` is written `b_c`, and `cURL` (which would read
    /// back as `cUrl`) sends the value to the tree path, which refuses it.
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ index: UInt8) { stringValue = ["a", "bC", "cURL", "d"][Int(index % 4)] }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// What the script is writing into.
    enum Frame {
        case encoder(any Encoder)
        case keyed(KeyedEncodingContainer<Key>)
        case unkeyed(any UnkeyedEncodingContainer)
    }

    func encode(to encoder: any Encoder) throws {
        var frames: [Frame] = [.encoder(encoder)]
        for byte in script {
            let argument = byte >> 3
            guard var frame = frames.popLast() else { return }
            switch (byte & 7, frame) {
            case (0, .encoder(let current)):
                frames.append(frame)
                frames.append(.keyed(current.container(keyedBy: Key.self)))
                continue
            case (1, .encoder(let current)):
                frames.append(frame)
                frames.append(.unkeyed(current.unkeyedContainer()))
                continue
            case (2, .encoder(let current)):
                var single = current.singleValueContainer()
                try single.encode(Int(argument))
            case (2, .keyed(var keyed)):
                try keyed.encode(Int(argument), forKey: Key(argument))
                frame = .keyed(keyed)
            case (2, .unkeyed(var unkeyed)):
                try unkeyed.encode(Int(argument))
                frame = .unkeyed(unkeyed)
            case (3, .keyed(var keyed)):
                let nested = keyed.nestedContainer(keyedBy: Key.self, forKey: Key(argument))
                frames.append(.keyed(keyed))
                frames.append(.keyed(nested))
                continue
            case (3, .unkeyed(var unkeyed)):
                let nested = unkeyed.nestedContainer(keyedBy: Key.self)
                frames.append(.unkeyed(unkeyed))
                frames.append(.keyed(nested))
                continue
            case (4, .keyed(var keyed)):
                let nested = keyed.nestedUnkeyedContainer(forKey: Key(argument))
                frames.append(.keyed(keyed))
                frames.append(.unkeyed(nested))
                continue
            case (4, .unkeyed(var unkeyed)):
                let nested = unkeyed.nestedUnkeyedContainer()
                frames.append(.unkeyed(unkeyed))
                frames.append(.unkeyed(nested))
                continue
            case (5, .keyed(var keyed)):
                let nested = keyed.superEncoder(forKey: Key(argument))
                frames.append(.keyed(keyed))
                frames.append(.encoder(nested))
                continue
            case (5, .unkeyed(var unkeyed)):
                let nested = unkeyed.superEncoder()
                frames.append(.unkeyed(unkeyed))
                frames.append(.encoder(nested))
                continue
            case (6, _):
                // Back to the enclosing frame (the root is never left).
                if frames.isEmpty { frames.append(frame) }
                continue
            case (7, .keyed(var keyed)):
                try keyed.encode(["x": Int(argument)], forKey: Key(argument))
                frame = .keyed(keyed)
            case (7, .encoder(let current)):
                var single = current.singleValueContainer()
                try single.encode(["x": Int(argument)])
            case (7, .unkeyed(var unkeyed)):
                // A value that writes part of itself and throws, its error caught by the model.
                try? unkeyed.encode(PartlyWritten(value: Int(argument)))
                frame = .unkeyed(unkeyed)
            case (4, .encoder(let current)):
                var keyed = current.container(keyedBy: Key.self)
                try? keyed.encode(PartlyWritten(value: Int(argument)), forKey: Key(argument))
            default:
                break
            }
            frames.append(frame)
        }
    }
}
