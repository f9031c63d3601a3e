import Foundation
import RawCoding

extension FuzzTargets {
    /// The default-filling, migrating decode on any payload; what it reads, it writes back and
    /// reads again as the same value at the current version.
    static func evolving(_ data: Data) throws(FuzzFailure) {
        let codec = codec(for: data)
        let stored: StoredDecoding<FuzzSettings>
        do {
            stored = try codec.decodeStored(FuzzSettings.self, from: data)
        } catch {
            return
        }
        let written: Data
        do {
            written = try codec.encodeStored(stored.value, keeping: stored.unknownKeys)
        } catch {
            throw FuzzFailure("read \(stored.value) but cannot write it back: \(error)")
        }
        let again: StoredDecoding<FuzzSettings>
        do {
            again = try codec.decodeStored(FuzzSettings.self, from: written)
        } catch {
            throw FuzzFailure("wrote \(stored.value), which does not read back: \(error)")
        }
        guard same(again.value, stored.value), again.storedVersion == FuzzSettings.storedVersion else {
            throw FuzzFailure(
                "wrote \(stored.value), read back \(again.value) at version \(String(describing: again.storedVersion))")
        }
    }

    /// Small limits for the round trip: the property holds under any `Limits`, and at the
    /// defaults a 163-byte file may rightly expand to a million values, which written back and
    /// compared under AddressSanitizer outlasts the 2-second timeout.
    static let roundTripLimits = Limits(maximumInputBytes: 1 << 16, maximumValueCount: 1 << 16)

    /// Whatever a reader accepts, its writer writes, and the reader reads back as the same tree.
    static func readerRoundTrip(_ data: Data) throws(FuzzFailure) {
        let codec = codec(for: data, limits: roundTripLimits)
        let tree: StoredValue
        do {
            tree = try codec.readTree(from: data)
        } catch {
            return
        }
        let written: Data
        do {
            written = try codec.writeTree(tree)
        } catch {
            throw FuzzFailure("\(codec) read a tree its writer refuses: \(error)")
        }
        let back: StoredValue
        do {
            back = try codec.readTree(from: written)
        } catch {
            throw FuzzFailure("\(codec) wrote bytes it cannot read: \(error)")
        }
        // JSON has one kind of number: a real with a whole value is written as an integer and
        // reads back as one (documented), and a decimal written with 18 digits reads back as
        // the integer it is, so JSON compares numbers by value (the sign of zero included).
        guard same(back, tree, numbersByValue: codec is JSONCodec) else {
            throw FuzzFailure("\(codec) read back \(back), wrote \(tree)")
        }
    }

    /// Whatever a codec encodes, it decodes, as the same value: a record built from the bytes
    /// (any double, date, decimal, string or key) through every built-in codec.
    static func codecRoundTrip(_ data: Data) throws(FuzzFailure) {
        var bytes = FuzzBytes(data)
        let record = FuzzRecord(&bytes)
        try sameEncoding(record)
        let codecs: [any Codec] = [
            JSONCodec(), JSONCodec(formatting: .pretty), PropertyListCodec(format: .xml),
            PropertyListCodec(format: .binary),
        ]
        for codec in codecs {
            let encoded: Data
            do {
                encoded = try codec.encode(record)
            } catch {
                continue  // refusing a value is allowed; writing what cannot be read is not
            }
            let decoded: FuzzRecord
            do {
                decoded = try codec.decode(FuzzRecord.self, from: encoded)
            } catch {
                throw FuzzFailure("\(codec) encoded \(record) but cannot decode it: \(error)")
            }
            guard decoded.same(as: record) else {
                throw FuzzFailure("\(codec) encoded \(record), decoded \(decoded)")
            }
        }
    }

    /// Tree equality where NaN equals NaN, and optionally integers equal reals of the same value.
    static func same(_ lhs: StoredValue, _ rhs: StoredValue, numbersByValue: Bool = false) -> Bool {
        if lhs == rhs { return true }
        switch (lhs, rhs) {
        case (.double(let a), .double(let b)): return a == b && a.sign == b.sign || (a.isNaN && b.isNaN)
        case (.int(let a), .double(let b)) where numbersByValue, (.double(let b), .int(let a)) where numbersByValue:
            return Double(exactly: a) == b && !(b == 0 && b.sign == .minus)
        case (.uint(let a), .double(let b)) where numbersByValue, (.double(let b), .uint(let a)) where numbersByValue:
            return Double(exactly: a) == b
        case (.decimal(let a), .int(let b)) where numbersByValue, (.int(let b), .decimal(let a)) where numbersByValue:
            return a == Decimal(b)
        case (.decimal(let a), .uint(let b)) where numbersByValue, (.uint(let b), .decimal(let a)) where numbersByValue:
            return a == Decimal(b)
        case (.decimal(let a), .double(let b)) where numbersByValue,
            (.double(let b), .decimal(let a)) where numbersByValue:
            return Double("\(a)") == b && !(b == 0 && b.sign == .minus)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { same($0, $1, numbersByValue: numbersByValue) }
        case (.dictionary(let a), .dictionary(let b)):
            guard a.count == b.count else { return false }
            for (key, value) in a {
                guard let other = b[key], same(value, other, numbersByValue: numbersByValue) else { return false }
            }
            return true
        default: return lhs == rhs
        }
    }

    static func same(_ lhs: FuzzSettings, _ rhs: FuzzSettings) -> Bool {
        var left = lhs
        var right = rhs
        if left.volume.isNaN && right.volume.isNaN { (left.volume, right.volume) = (0, 0) }
        return left == right
    }

    /// Whether `failure` is a recursive reader's or writer's refusal for the stack its thread
    /// has left (fuzz targets run on a small stack), not for the document.
    static func isStackFailure(_ failure: FormatFailure) -> Bool {
        let error = RawCodingError(failure, subject: StoredValue.self)
        return error.kind == .limitExceeded && error.reason.contains("needs more stack than this thread has")
    }

    /// The tool's paths that read JSON without a tree, against reading the tree (under small
    /// limits, so that limits are met too): the scan `lint` uses takes only what the reader
    /// reads; the streaming XML conversion writes the tree path's bytes, or stops where the tree
    /// path would have something to report; the streaming binary conversion gives the tree's
    /// values, whether strings skip the transform or not.
    static func jsonStreaming(_ data: Data) throws(FuzzFailure) {
        let limits = Limits(maximumInputBytes: 1 << 16, maximumDepth: 48, maximumValueCount: 1 << 12)
        let tree: StoredValue?
        var refusedForStack = false
        do throws(FormatFailure) {
            tree = try JSONTreeFormat().readTree(data, limits: limits)
        } catch {
            tree = nil
            refusedForStack = isStackFailure(error)
        }
        // The scan is not recursive: it takes a document the recursive reader refuses only for
        // the stack this (small) thread has left.
        if JSONTreeFormat().acceptsWithoutTree(data, limits: limits) == true, tree == nil, !refusedForStack {
            throw FuzzFailure("the scan took a document the reader refuses")
        }

        var pieces: [UInt8] = []
        var streamed: [UInt8]?
        do throws(JSONToXMLPropertyList.Stop) {
            try JSONToXMLPropertyList.convert(data, limits: limits, pieceSize: 64, emit: { pieces += $0 }) {
                value, _ in value
            }
            streamed = pieces
        } catch {
            if case .emitting(let failure) = error { throw FuzzFailure("emitting threw \(failure)") }
        }
        if let streamed {
            guard let tree else { throw FuzzFailure("the XML stream converted a document the reader refuses") }
            let written: [UInt8]
            do throws(FormatFailure) {
                written = try XMLPropertyListTreeFormat().writeTree(tree, limits: limits, loss: .allow)
            } catch {
                if isStackFailure(error) { return }
                throw FuzzFailure("the XML stream wrote what the tree writer refuses: \(error)")
            }
            guard written == streamed else { throw FuzzFailure("the XML stream wrote other bytes than the tree path") }
        }

        func binary(_ stringsUnchanged: Bool) -> Result<[UInt8], JSONToBinaryPropertyList.Failure<Never>> {
            Result { () throws(JSONToBinaryPropertyList.Failure<Never>) in
                try JSONToBinaryPropertyList.convert(data, limits: limits, stringsUnchanged: stringsUnchanged) {
                    value, _ in value
                }
            }
        }
        let direct = binary(true)
        guard "\(direct)" == "\(binary(false))" else {
            throw FuzzFailure("the binary stream depends on whether strings skip the transform")
        }
        // Handed on in small pieces, as the tool writes large files: the same file or failure.
        var binaryPieces: [UInt8] = []
        let pieced = Result { () throws(JSONToBinaryPropertyList.Failure<Never>) -> [UInt8] in
            try JSONToBinaryPropertyList.convert(
                data, limits: limits, stringsUnchanged: true, pieceSize: 64, emit: { binaryPieces += $0 }
            ) { value, _ in value }
            return binaryPieces
        }
        guard "\(pieced)" == "\(direct)" else { throw FuzzFailure("the binary stream in pieces is another file") }
        if case .success(let bytes) = direct {
            guard let tree else { throw FuzzFailure("the binary stream converted a document the reader refuses") }
            // The values the tree path's binary output holds (a decimal a real holds exactly is
            // written as that real, in both layouts).
            let format = BinaryPropertyListTreeFormat()
            let read: StoredValue
            let expected: StoredValue
            do throws(FormatFailure) {
                read = try format.readTree(Data(bytes), limits: .default)
            } catch {
                throw FuzzFailure("the binary stream wrote what its reader refuses: \(error)")
            }
            do throws(FormatFailure) {
                let written = try format.writeTree(tree, limits: .default, loss: .allow)
                expected = try format.readTree(Data(written), limits: .default)
            } catch {
                if isStackFailure(error) { return }
                throw FuzzFailure("the binary stream wrote a tree the tree path refuses: \(error)")
            }
            guard read == expected else { throw FuzzFailure("the binary stream wrote other values than the tree path") }
        }
    }

}

/// Reads fields from fuzz bytes; past the end, zeros.
struct FuzzBytes {
    private var bytes: [UInt8]
    private var index = 0

    init(_ data: Data) { bytes = Array(data) }

    mutating func byte() -> UInt8 {
        defer { index += 1 }
        return index < bytes.count ? bytes[index] : 0
    }

    mutating func uint64() -> UInt64 {
        (0..<8).reduce(0) { value, _ in value << 8 | UInt64(byte()) }
    }

    mutating func string() -> String {
        let count = Int(byte() % 24)
        return String(decoding: (0..<count).map { _ in byte() }, as: UTF8.self)
    }
}

/// A value built from fuzz bytes, with the kinds that have broken round trips before: far and
/// fractional dates, non-finite and subnormal doubles, big decimals, odd strings and keys.
struct FuzzRecord: Codable, CustomStringConvertible {
    var text: String
    var double: Double
    var float: Float
    var date: Date
    var decimal: Decimal
    var signed: Int64
    var unsigned: UInt64
    var bytes: Data
    var map: [String: Int32]
    var optionalText: String?
    var list: [Double]

    init(_ input: inout FuzzBytes) {
        text = input.string()
        double = Double(bitPattern: input.uint64())
        float = Float(bitPattern: UInt32(truncatingIfNeeded: input.uint64()))
        date = Date(timeIntervalSinceReferenceDate: Double(bitPattern: input.uint64()))
        let significand = input.uint64()
        let exponent = Int(Int8(bitPattern: input.byte()))
        decimal = Decimal(
            sign: input.byte() & 1 == 0 ? .plus : .minus, exponent: exponent, significand: Decimal(significand))
        signed = Int64(bitPattern: input.uint64())
        unsigned = input.uint64()
        bytes = Data((0..<Int(input.byte() % 16)).map { _ in input.byte() })
        map = [:]
        for _ in 0..<Int(input.byte() % 4) { map[input.string()] = Int32(truncatingIfNeeded: input.uint64()) }
        optionalText = input.byte() & 1 == 0 ? nil : input.string()
        list = (0..<Int(input.byte() % 4)).map { _ in Double(bitPattern: input.uint64()) }
    }

    func same(as other: FuzzRecord) -> Bool {
        func sameDouble(_ a: Double, _ b: Double) -> Bool { a == b || (a.isNaN && b.isNaN) }
        return text == other.text && sameDouble(double, other.double)
            && (float == other.float || (float.isNaN && other.float.isNaN))
            && sameDouble(date.timeIntervalSinceReferenceDate, other.date.timeIntervalSinceReferenceDate)
            && decimal == other.decimal && signed == other.signed && unsigned == other.unsigned
            && bytes == other.bytes && map == other.map && optionalText == other.optionalText
            && list.count == other.list.count && zip(list, other.list).allSatisfy(sameDouble)
    }

    var description: String {
        "FuzzRecord(text: \(text.debugDescription), double: \(double), float: \(float), "
            + "date: \(date.timeIntervalSinceReferenceDate), decimal: \(decimal), signed: \(signed), "
            + "unsigned: \(unsigned), bytes: \(bytes as NSData), map: \(map), "
            + "optionalText: \(String(describing: optionalText)), list: \(list))"
    }
}
