import Foundation

/// The tree-level format layer: one stored format as bytes ⇄ ``StoredValue`` under ``Limits``.
///
/// Codecs are (engine options, a `TreeFormat`, limits); the command-line tool uses formats
/// directly, and stores go through codecs. Formats know nothing of `Codable`. Each format's
/// conformance sits beside its reader and writer; ``TreeFormats/detect(_:)`` tells them apart.
///
/// The write rule: `writeTree(_:limits:loss:depthChecked:)` (WriteCheck.swift) refuses, with the
/// path, every tree that ``readTree(_:limits:)`` under the same limits would refuse (too deep,
/// too many values, more bytes than ``Limits/maximumInputBytes``, or a value the format's
/// readers do not take back), so nothing is written that cannot be read back.
package protocol TreeFormat: Sendable {
    /// The format's name for messages: `JSON`, `XML property list`, `binary property list`.
    var formatName: String { get }

    /// Parses a whole input (the size limit already checked), enforcing every other limit.
    func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits) throws(FormatFailure) -> StoredValue

    /// Writes a tree; throws for values the format cannot hold, and under ``LossPolicy/refuse``
    /// for values it would not give back exactly (a date in JSON, a fraction of a second in
    /// XML). Checks nesting and the output size not at all, and the value count only when
    /// ``valueCounting`` is ``ValueCounting/whileWriting``.
    func serialize(_ value: StoredValue, limits: Limits, loss: LossPolicy) throws(FormatFailure) -> [UInt8]

    /// How a write keeps within ``Limits/maximumValueCount``.
    var valueCounting: ValueCounting { get }

    /// The name a reading failure is reported under: ``formatName``, or `input` where the
    /// format was only a guess from the bytes and the failure names every format tried.
    var failureName: String { get }
}

extension TreeFormat {
    package var failureName: String { formatName }
}

/// What a write does with a value the format would not give back exactly.
package enum LossPolicy: Sendable {
    /// Throw, naming the path: what codecs and stores do, so that what is written reads back.
    case refuse
    /// Write the nearest the format holds: the tool's conversions, which say what they changed.
    case allow
}

/// How a format's writes keep within ``Limits/maximumValueCount``.
package enum ValueCounting: Sendable {
    /// The writer counts every place a value (or key) appears as it lays the tree out, as the
    /// reader does.
    case whileWriting
    /// The write check counts, unless the size limit alone bounds the count: a document of
    /// `n` bytes holds at most `mostValues(n)` values, as the reader counts them.
    case boundedBySize(mostValues: @Sendable (_ byteCount: Int) -> Int)
}

extension TreeFormat {
    /// Reads a whole input under `limits`.
    package func readTree(_ data: Data, limits: Limits) throws(FormatFailure) -> StoredValue {
        guard data.count <= limits.maximumInputBytes else { throw limits.inputSizeFailure(data.count) }
        let result = data.withUnsafeBytes { raw -> Result<StoredValue, FormatFailure> in
            do throws(FormatFailure) {
                return .success(try parse(raw.bindMemory(to: UInt8.self), limits: limits))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
