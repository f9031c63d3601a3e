import Foundation

extension TreeFormat {
    /// Writes `value`, refusing what ``readTree(_:limits:)`` with the same limits would refuse
    /// and, under ``LossPolicy/refuse``, a value the format would not give back exactly.
    ///
    /// `depthChecked` says the tree's nesting is already known to be within
    /// ``Limits/maximumDepth`` (the encoding engine counts at least one level per array or
    /// dictionary, and codecs set its maximum from the limits); then the separate pass over
    /// the tree is skipped when nothing else needs it.
    package func writeTree(
        _ value: StoredValue, limits: Limits, loss: LossPolicy = .refuse, depthChecked: Bool = false
    ) throws(FormatFailure) -> [UInt8] {
        let countIsBounded: Bool
        switch valueCounting {
        case .whileWriting: countIsBounded = true
        case .boundedBySize(let mostValues):
            countIsBounded = limits.maximumValueCount >= mostValues(max(limits.maximumInputBytes, 0))
        }
        if !(depthChecked && countIsBounded) {
            var census = TreeCensus(limits: limits, format: self)
            try census.visit(value, depth: 0)
        }
        let bytes = try serialize(value, limits: limits, loss: loss)
        guard bytes.count <= limits.maximumInputBytes else {
            throw .overLimit(
                "the \(formatName) output is \(bytes.count) bytes, over the limit of \(limits.maximumInputBytes) bytes its reader takes (Limits.maximumInputBytes)"
            )
        }
        return bytes
    }
}

/// Counts a tree's values and nesting the way the readers count them: every value once per
/// place it appears, and each array or dictionary one level deeper than its container.
struct TreeCensus {
    let limits: Limits
    let maximumDepth: Int
    /// Whether values are counted here; a format that counts while writing (binary, which
    /// also counts keys) does it there.
    let countsValues: Bool
    var count = 0
    var stack = StackCheck()

    init(limits: Limits, format: some TreeFormat) {
        self.limits = limits
        if case .whileWriting = format.valueCounting { countsValues = false } else { countsValues = true }
        maximumDepth = limits.effectiveDepth
    }

    mutating func visit(_ value: StoredValue, depth: Int) throws(FormatFailure) {
        count += 1
        guard !countsValues || count <= limits.maximumValueCount else {
            throw .overLimit(
                "the tree holds more than \(limits.maximumValueCount) values, more than its reader takes (Limits.maximumValueCount)"
            )
        }
        switch value {
        case .array(let elements):
            guard depth < maximumDepth else { throw depthFailure() }
            guard stack.allows(depth: depth + 1) else { throw stack.measured.failure(depth: depth + 1, at: nil) }
            for (index, element) in elements.enumerated() {
                do {
                    try visit(element, depth: depth + 1)
                } catch {
                    throw error.inside(.index(index))
                }
            }
        case .dictionary(let dictionary):
            guard depth < maximumDepth else { throw depthFailure() }
            guard stack.allows(depth: depth + 1) else { throw stack.measured.failure(depth: depth + 1, at: nil) }
            for entry in dictionary.entries {
                do {
                    try visit(entry.value, depth: depth + 1)
                } catch {
                    throw error.inside(.key(entry.key))
                }
            }
        default:
            break
        }
    }

    func depthFailure() -> FormatFailure {
        .overLimit("nesting is deeper than \(maximumDepth) levels, deeper than its reader takes (Limits.maximumDepth)")
    }
}
