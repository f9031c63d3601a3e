import Foundation
import Testing

@testable import RawCoding

/// Strings with escapes anywhere, the input's last eight bytes included (where the scan reads
/// byte by byte, not by words): the flat scan takes them, and reads what `JSONDecoder` reads.
/// `JSONEncoder` writes every `/` as `\/`, so a document ending in a URL or HTML text is the
/// common case; the scan had left such documents to the tree reader.
@Suite("Escaped strings at the end of the input")
struct JSONScanTailTests {
    static let pieces = ["a", "\\/", "\\n", "\\\"", "\\\\", "é", "\\u00e9", " ", "<p>", "xyz12345"]

    @Test func everyEscapedStringIsScannedWhereverItEnds() throws {
        var generator = SeededGenerator(state: 808)
        var scanned = 0
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                Self.pieces.randomElement(using: &generator)!
            }.joined()
            let documents = ["\"\(text)\"", "[\"\(text)\"]", "{\"k\":\"\(text)\"}", "[1,{\"a\":[\"\(text)\"]}]"]
            for document in documents {
                let bytes = Data(document.utf8)
                let taken = bytes.withUnsafeBytes {
                    JSONScan.scan($0.bindMemory(to: UInt8.self), limits: .default) != nil
                }
                #expect(taken, "\(document)")
                if taken { scanned += 1 }
            }
            let expected = try JSONDecoder().decode(String.self, from: Data(documents[0].utf8))
            #expect(try JSONCodec().decode(String.self, from: documents[0]) == expected)
            #expect(try JSONCodec().decode([String].self, from: documents[1]) == [expected])
            #expect(try JSONCodec().decode([String: String].self, from: documents[2]) == ["k": expected])
        }
        #expect(scanned == 12_000)
    }

    /// Control characters are still refused, wherever they are.
    @Test func aControlCharacterInTheTailIsLeftToTheTreeReader() {
        for document in ["[\"a\\/b\u{1}\"]", "[\"\\/\u{1}\"]", "\"\\n\u{1F}x\""] {
            let bytes = Data(document.utf8)
            let taken = bytes.withUnsafeBytes { JSONScan.scan($0.bindMemory(to: UInt8.self), limits: .default) != nil }
            #expect(!taken, "\(document)")
            #expect(throws: RawCodingError.self) { try JSONCodec().decode(StoredValue.self, from: bytes) }
        }
    }
}
