import Foundation

/// The `.formatted(DateFormatter)` date strategy of the engine (and so of ``JSONCodec``): one
/// place for its text and its refusals, for the tree and sink encoders and the decoder.
enum DateFormatterCoding {
    /// `date` as `formatter` writes it; `nil` where that text reads back as another date.
    static func text(of date: Date, with formatter: DateFormatter) -> String? {
        let text = formatter.string(from: date)
        return formatter.date(from: text) == date ? text : nil
    }

    /// Why ``text(of:with:)`` gave `nil`.
    static func refusal(_ date: Date, with formatter: DateFormatter) -> String {
        "the date formatter writes the date \(date.timeIntervalSinceReferenceDate) seconds from 2001 as \"\(formatter.string(from: date))\", which reads back as another date; use .iso8601, which keeps it exactly, or a format down to the fraction of a second"
    }

    /// Why `formatter` read no date from `text`.
    static func unreadable(_ text: String, with formatter: DateFormatter) -> String {
        "\"\(text.prefix(64))\" does not match the date formatter's format \"\(formatter.dateFormat ?? "")\""
    }
}
