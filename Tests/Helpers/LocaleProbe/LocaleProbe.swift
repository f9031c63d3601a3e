import Foundation
import RawCoding

// Not a product. The fixture-determinism test runs this under different TZ and LANG values
// and checks that the bytes it writes never change: a fixture recorded on one machine must not
// depend on that machine's time zone or language.
//
// Usage: LocaleProbe OUTPUT-DIRECTORY
// Adopts the environment's C locale (setlocale(LC_ALL, ""), as apps using C or Foundation
// formatting APIs may), writes LocaleSample.<extension> for every built-in codec and
// LocaleKeys.<extension> for the text ones, then prints what it ran under: the C locale, the
// Foundation locale and time zone, and 1234.5 formatted by the C locale (a comma in de_DE).

/// Values whose text a locale or time zone could change: dates (around the epoch, with
/// fractions, far out), decimals, grouping-sized numbers, and keys whose order differs
/// between collations.
extension Date {
    var roundedDownToSecond: Date {
        Date(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate.rounded(.down))
    }
}

struct LocaleSample: Codable {
    var dates = [
        Date(timeIntervalSinceReferenceDate: 0),
        Date(timeIntervalSince1970: -14_182_940),  // 1969-07-20
        Date(timeIntervalSinceReferenceDate: 812_345_678.25),
        Date(timeIntervalSince1970: 4_102_444_800),  // 2100-01-01
    ]
    var doubles = [1234.5, 0.1, -0.0, 1e-7, 1.5e300, 1_000_000.0, 12_345_678.9]
    var float = Float(3.14159)
    var decimal = Decimal(string: "1234.5678", locale: Locale(identifier: "en_US_POSIX"))
    var integers = [1_000_000, -42, Int.max]
    var unsigned = UInt64.max
    var text = "İstanbul ıi Straße ÅÄÖ 12,5 % 1.000"
    var url = URL(string: "https://example.com/ä?q=1,5")
    var flag = true

    enum CodingKeys: String, CodingKey {
        case dates = "Zeiten"
        case doubles = "zahlen"
        case float = "Äpfel"
        case decimal = "ß"
        case integers = "İ"
        case unsigned = "ı"
        case text = "z"
        case url = "Ö"
        case flag = "a"
    }
}

/// A dictionary whose key order is decided by sorting (JSON) or by the writer (XML plist).
/// Binary plists follow dictionary iteration order, which varies per process, so this one is
/// written only as text.
let localeKeys: [String: Int] = [
    "a": 1, "B": 2, "ä": 3, "z": 4, "Z": 5, "é": 6, "ß": 7, "İ": 8, "ı": 9, "i": 10, "I": 11,
    "ch": 12, "cz": 13, "Å": 14, "10": 15, "9": 16,
]

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: LocaleProbe OUTPUT-DIRECTORY\n".utf8))
    exit(64)
}
let cLocale = setlocale(LC_ALL, "").map { String(cString: $0) } ?? "unavailable"
let directory = URL(fileURLWithPath: CommandLine.arguments[1], isDirectory: true)
let all: [any Codec] = [
    JSONCodec.json, JSONCodec.json(.pretty), PropertyListCodec.propertyList(.xml),
    PropertyListCodec.propertyList(.binary),
]
do {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for codec in all {
        var sample = LocaleSample()
        // XML property lists store whole seconds, and the codec refuses to drop a fraction.
        if codec.fileExtension == "xml.plist" { sample.dates = sample.dates.map { $0.roundedDownToSecond } }
        try codec.encode(sample).write(to: directory.appendingPathComponent("LocaleSample.\(codec.fileExtension)"))
        if codec.fileExtension != "binary.plist" {
            try codec.encode(localeKeys).write(
                to: directory.appendingPathComponent("LocaleKeys.\(codec.fileExtension)"))
        }
    }
} catch {
    FileHandle.standardError.write(Data("LocaleProbe: \(error)\n".utf8))
    exit(1)
}
print(
    "clocale=\(cLocale) locale=\(Locale.current.identifier) timeZone=\(TimeZone.current.identifier) "
        + "cformat=\(String(format: "%.1f", 1234.5))")
