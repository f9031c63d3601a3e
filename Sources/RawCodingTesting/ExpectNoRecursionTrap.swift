import Foundation
import RawCoding

/// Checks that `value` encodes and decodes without falling into the recursion trap, and turns
/// a trap into a test failure carrying the library's typed error, instead of a crashed test
/// process.
///
/// For each codec it round-trips `value` on its own and inside an array (a nested position
/// takes another path through the standard library), and for a `RawStringCodable`
/// or `RawCodable` value it also round-trips `rawValue` through `init?(rawValue:)`.
/// A `RawCodingError` of kind `recursionTrap` is
/// reported with its message, which names the type and both fixes; any other failure is
/// reported too.
///
/// A type that is `Codable` and `RawRepresentable` with `String` raw values but is neither
/// `RawStringCodable` nor `RawCodable` (nor an enum) is reported without being run: nothing
/// guards its `rawValue`, so if that encodes `self` the test process would die of a stack
/// overflow.
///
/// ```swift
/// @Test func settingsAreSafeToStore() {
///     expectNoRecursionTrap(Settings.sample, .json, .propertyList(.binary))
/// }
/// ```
/// - Parameters:
///   - value: A value of the type to check.
///   - codecs: The codecs to check with; at least one.
///   - fileID: The caller's file ID, for reporting; leave the default.
///   - filePath: The caller's file path, for reporting and for finding `Fixtures/`; leave the default.
///   - line: The caller's line, for reporting; leave the default.
///   - column: The caller's column, for reporting; leave the default.
/// - Returns: What was found (already reported to the test).
@discardableResult
public func expectNoRecursionTrap<Value: Codable, each C: Codec>(
    _ value: Value,
    _ codecs: repeat each C,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> CheckReport {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    var report = CheckReport()
    if let problem = RecursionTrapCheck.unguardedRawValueProblem(value) {
        report.fail(problem)
    } else {
        var count = 0
        for codec in repeat each codecs {
            count += 1
            RecursionTrapCheck.roundTrip(value, codec: codec, into: &report)
            RecursionTrapCheck.roundTrip([value], codec: codec, into: &report)
        }
        if count == 0 {
            report.fail("expectNoRecursionTrap was given no codec; pass at least one, such as .json.")
        }
        RecursionTrapCheck.rawValueRoundTrip(value, into: &report)
    }
    site.report(report)
    return report
}

/// Marks the types whose `rawValue` the library itself provides and guards.
protocol GuardedRawValue {}
extension RawCodable: GuardedRawValue {}

enum RecursionTrapCheck {
    /// Why running `value` could crash the process, or `nil` if it can run.
    static func unguardedRawValueProblem<Value: Codable>(_ value: Value) -> String? {
        guard let representable = value as? any RawRepresentable, rawValueIsString(representable) else {
            return nil
        }
        if hasGuardedRawValue(value) { return nil }
        // An enum with String raw values: the compiler's rawValue is a stored case name, safe.
        if Mirror(reflecting: value).displayStyle == .enum { return nil }
        return "\(Value.self) is Codable and RawRepresentable with String raw values, but not RawStringCodable: "
            + "nothing guards its rawValue, so if it encodes self, encoding recurses until the process "
            + "crashes (the recursion trap). It was not run. Conform it to RawStringCodable, which supplies "
            + "a guarded rawValue, or store it as RawCodable<\(Value.self)> and drop the RawRepresentable "
            + "conformance."
    }

    /// Whether the library supplies and guards the value's `rawValue`.
    private static func hasGuardedRawValue(_ value: Any) -> Bool {
        value is any RawStringCodable || value is any GuardedRawValue
    }

    private static func rawValueIsString<Representable: RawRepresentable>(_ value: Representable) -> Bool {
        Representable.RawValue.self == String.self
    }

    static func roundTrip<Value: Codable>(_ value: Value, codec: any Codec, into report: inout CheckReport) {
        let data: Data
        do {
            data = try codec.encode(value)
        } catch {
            return report.fail(message(error, "Encoding \(Value.self) as \(codec.fileExtension)"))
        }
        do {
            _ = try codec.decode(Value.self, from: data)
        } catch {
            report.fail(message(error, "Decoding \(Value.self) from \(codec.fileExtension)"))
        }
    }

    /// For library-guarded raw values: `rawValue`, then `init?(rawValue:)` on it, with reports
    /// to `RawCodingDiagnostics` collected rather than printed.
    static func rawValueRoundTrip<Value>(_ value: Value, into report: inout CheckReport) {
        guard let representable = value as? any RawRepresentable, hasGuardedRawValue(value) else { return }
        let reported = Reports()
        let restored = RawCodingDiagnostics.withHandler({ reported.append($0.error) }) {
            restoreFromRawValue(representable)
        }
        let errors = reported.all
        for error in errors {
            report.fail(message(error, "rawValue / init?(rawValue:) of \(Value.self)"))
        }
        if errors.isEmpty, !restored {
            report.fail("init?(rawValue:) of \(Value.self) returned nil for the value's own rawValue.")
        }
    }

    private static func restoreFromRawValue<Representable: RawRepresentable>(_ value: Representable) -> Bool {
        Representable(rawValue: value.rawValue) != nil
    }

    static func message(_ error: RawCodingError, _ action: String) -> String {
        error.kind == .recursionTrap
            ? "\(action) fell into the recursion trap: \(error)"
            : "\(action) failed: \(error)"
    }

    /// Failures reported while the check runs.
    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [RawCodingError] = []

        func append(_ error: RawCodingError) {
            lock.lock()
            defer { lock.unlock() }
            storage.append(error)
        }

        var all: [RawCodingError] {
            lock.lock()
            defer { lock.unlock() }
            return storage
        }
    }
}
