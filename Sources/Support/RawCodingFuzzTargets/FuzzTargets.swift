import Foundation
import RawCoding

/// A property a fuzz target checks did not hold: the fuzzer stops on it, a regression test fails.
package struct FuzzFailure: Error, CustomStringConvertible {
    package var description: String

    init(_ description: String) { self.description = description }
}

/// The fuzz targets: each takes arbitrary bytes and must neither crash, hang, leak nor break the
/// property it checks. `Scripts/fuzz.sh` runs them under libFuzzer and AddressSanitizer (compiled
/// into one binary with the library); `FuzzRegressionTests` replays the inputs kept in
/// `Fixtures/FuzzRegressions/<target>/` through the same functions.
package enum FuzzTargets {
    /// One fuzz target. An enum, not a table of `throws(FuzzFailure)` closures: a typed-throws
    /// function value needs runtime support that Apple systems only have from iOS 18 and
    /// macOS 15, and the package builds for older ones.
    package enum Target: String, CaseIterable, Sendable {
        case json, xml, binary, detect
        case treeDecode = "tree-decode"
        case rawCodable = "rawcodable"
        case evolving
        case readerRoundTrip = "reader-roundtrip"
        case codecRoundTrip = "codec-roundtrip"
        case jsonDecode = "json-decode"
        case jsonStreaming = "json-streaming"
        case openStep = "openstep"
        case containerShapes = "container-shapes"
        case json5

        /// Runs the target on `data`.
        package func run(_ data: Data) throws(FuzzFailure) {
            switch self {
            case .json: FuzzTargets.read(data, with: JSONCodec())
            case .xml: FuzzTargets.read(data, with: PropertyListCodec(format: .xml))
            case .binary: FuzzTargets.read(data, with: PropertyListCodec(format: .binary))
            case .detect: try FuzzTargets.detect(data)
            case .treeDecode: try FuzzTargets.treeDecode(data)
            case .rawCodable: try FuzzTargets.rawCodable(data)
            case .evolving: try FuzzTargets.evolving(data)
            case .readerRoundTrip: try FuzzTargets.readerRoundTrip(data)
            case .codecRoundTrip: try FuzzTargets.codecRoundTrip(data)
            case .jsonDecode: try FuzzTargets.jsonDecode(data)
            case .jsonStreaming: try FuzzTargets.jsonStreaming(data)
            case .openStep: try FuzzTargets.openStep(data)
            case .containerShapes: try FuzzTargets.containerShapes(data)
            case .json5: try FuzzTargets.json5(data)
            }
        }
    }

    /// Reading may fail (with a `RawCodingError`, the only error it can throw), never crash.
    static func read(_ data: Data, with codec: some Codec) {
        do {
            _ = try codec.readTree(from: data)
        } catch {
            _ = error.kind
        }
    }

    /// The format the bytes look like, and its reader.
    static func detect(_ data: Data) throws(FuzzFailure) {
        _ = tree(from: data)
    }

    /// The tree in whichever format the bytes look like, or `nil` if they do not read.
    static func tree(from data: Data) -> (tree: StoredValue, codec: any Codec)? {
        let codec = codec(for: data)
        do {
            return (try codec.readTree(from: data), codec)
        } catch {
            return nil
        }
    }

    static func codec(for data: Data, limits: Limits = .default) -> any Codec {
        switch TreeFormats.detect(data) {
        case is XMLPropertyListTreeFormat: PropertyListCodec(format: .xml, limits: limits)
        case is BinaryPropertyListTreeFormat: PropertyListCodec(format: .binary, limits: limits)
        default: JSONCodec(limits: limits)
        }
    }

    /// The OpenStep and `.strings` reader: an error, or a tree that the XML and binary writers
    /// write and their readers read back equal (what `rawcoding convert` does with it). An
    /// OpenStep string may hold U+0000 (raw, or `\0`, as in Core Foundation), which no XML can:
    /// the XML writer then refuses the tree, as it does whatever read it.
    static func openStep(_ data: Data) throws(FuzzFailure) {
        let tree: StoredValue
        do {
            tree = try OpenStepPropertyListTreeFormat().readTree(data, limits: .default)
        } catch {
            return
        }
        for format in [XMLPropertyListTreeFormat() as any TreeFormat, BinaryPropertyListTreeFormat()] {
            do {
                let written = try format.writeTree(tree, limits: .default, loss: .refuse)
                let back = try format.readTree(Data(written), limits: .default)
                guard back == tree else { throw FuzzFailure("\(format.formatName) read back \(back), not \(tree)") }
            } catch let failure as FuzzFailure {
                throw failure
            } catch {
                let refusal = RawCodingError.encoding(error, of: StoredValue.self)
                if format is XMLPropertyListTreeFormat, refusal.reason.contains("U+0000"), holdsNUL(tree) { continue }
                throw FuzzFailure("\(format.formatName) could not take what the OpenStep reader read: \(refusal)")
            }
        }
    }

    /// Whether a string or key anywhere in `tree` holds U+0000. Not recursive: the fuzzer's
    /// threads are small.
    static func holdsNUL(_ tree: StoredValue) -> Bool {
        var pending = [tree]
        while let value = pending.popLast() {
            switch value {
            case .string(let text): if text.utf8.contains(0) { return true }
            case .array(let elements): pending.append(contentsOf: elements)
            case .dictionary(let entries):
                for (key, value) in entries {
                    if key.utf8.contains(0) { return true }
                    pending.append(value)
                }
            default: continue
            }
        }
        return false
    }

    /// Any tree decoded into a recursive model: errors, never a crash or a runaway recursion.
    static func treeDecode(_ data: Data) throws(FuzzFailure) {
        guard let (tree, _) = tree(from: data) else { return }
        do {
            _ = try StoredValueDecoder().decode(FuzzNode.self, from: tree)
        } catch {
            _ = error
        }
    }

    /// `JSONCodec.decode`, which reads a model straight from a scan of the bytes, gives the
    /// value or the error that decoding the tree `readTree` reads gives.
    static func jsonDecode(_ data: Data) throws(FuzzFailure) {
        let codec = JSONCodec()
        let scanned = outcome { () throws(RawCodingError) in try codec.decode(FuzzDocument.self, from: data) }
        let fromTree = outcome { () throws(RawCodingError) in
            try codec.decode(FuzzDocument.self, fromTree: try codec.readTree(from: data))
        }
        switch (scanned, fromTree) {
        case (.success(let a), .success(let b)) where a == b || "\(a)" == "\(b)":  // NaN
            // And writing the document back: straight into each writer, as writing its tree.
            try sameEncoding(a)
        case (.failure(let a), .failure(let b)) where a == b: break
        default: throw FuzzFailure("decoding from the scan gave \(scanned), from the tree \(fromTree)")
        }
        // The evolving decode, which also reads from the scan: the same value, filled keys
        // and unknown keys, or the same error, as from the tree.
        try sameStoredDecoding(FuzzDocument.self, data, codec: codec)
        try sameStoredDecoding(FuzzDefaulted.self, data, codec: codec)
        try sameStoredDecoding([FuzzDefaulted].self, data, codec: codec)
    }

    static func sameStoredDecoding<Value: Decodable>(_ type: Value.Type, _ data: Data, codec: JSONCodec)
        throws(FuzzFailure)
    {
        func outcome(_ body: () throws(RawCodingError) -> StoredDecoding<Value>) -> String {
            do throws(RawCodingError) {
                let read = try body()
                return
                    "\(read.value) filled \(read.filledKeyPaths) unknown \(read.unknownKeys) \(read.unknownKeys.hashValue)"
            } catch {
                return
                    "\(error.kind) at \(error.codingPathDescription): \(error.reason) \(String(describing: error.position))"
            }
        }
        let scanned = outcome { () throws(RawCodingError) in try codec.decodeStored(type, from: data) }
        let fromTree = outcome { () throws(RawCodingError) in
            try codec.decodeStored(type, fromTree: try codec.readTree(from: data))
        }
        guard scanned == fromTree else {
            throw FuzzFailure("decodeStored(\(type)) from the scan gave \(scanned), from the tree \(fromTree)")
        }
    }

    /// Every codec's `encode`, which writes through the writer's sink, gives the bytes or the
    /// error that writing the tree `encodeTree` builds gives.
    static func sameEncoding<Value: Encodable>(_ value: Value) throws(FuzzFailure) {
        let codecs: [any Codec] = [
            JSONCodec(), JSONCodec(formatting: .pretty), JSONCodec(keys: .snakeCase), PropertyListCodec(format: .xml),
            PropertyListCodec(format: .binary),
        ]
        for codec in codecs {
            let direct: Result<Data, RawCodingError>
            let throughTree: Result<Data, RawCodingError>
            do throws(RawCodingError) { direct = .success(try codec.encode(value)) } catch { direct = .failure(error) }
            do throws(RawCodingError) {
                throughTree = .success(try codec.writeTree(codec.encodeTree(value)))
            } catch {
                throughTree = .failure(error)
            }
            switch (direct, throughTree) {
            case (.success(let a), .success(let b)) where a == b: continue
            case (.failure(let a), .failure(let b)) where a.kind == b.kind && a.reason == b.reason: continue
            default: throw FuzzFailure("\(codec) encoded \(value) as \(direct), through the tree as \(throughTree)")
            }
        }
    }

    /// A decode's value, or its error without the type it names (a read failure of `readTree`
    /// names `StoredValue`).
    private static func outcome(_ body: () throws(RawCodingError) -> FuzzDocument) -> Result<FuzzDocument, Mismatch> {
        do throws(RawCodingError) {
            return .success(try body())
        } catch {
            return .failure(
                Mismatch(
                    text:
                        "\(error.kind) at \(error.codingPathDescription): \(error.reason) \(String(describing: error.position))"
                ))
        }
    }

    private struct Mismatch: Error, Equatable { let text: String }

    /// `RawCodable(rawValue:)` on any text; what it accepts, it writes and reads back.
    static func rawCodable(_ data: Data) throws(FuzzFailure) {
        let text = String(decoding: data, as: UTF8.self)
        let failure: FuzzFailure? = RawCodingDiagnostics.withHandler({ _ in }) {
            guard let value = RawCodable<FuzzNode>(rawValue: text) else { return nil }
            let written: String
            do {
                written = try value.encodedRawValue()
            } catch {
                return FuzzFailure("RawCodable read \(text.debugDescription) but cannot write it back: \(error)")
            }
            guard RawCodable<FuzzNode>(rawValue: written) != nil else {
                return FuzzFailure("RawCodable wrote \(written.debugDescription), which it cannot read")
            }
            return nil
        }
        if let failure { throw failure }
    }
}
