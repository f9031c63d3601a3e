import Foundation
import Testing
import XCTest

extension CallSite {
    /// Reports each failure of `report` at this call site.
    ///
    /// Inside a Swift Testing test (`Test.current` is set) through `Issue.record`. Otherwise
    /// through `XCTFail`, which reaches the running XCTest case from any task, and also through
    /// `Issue.record`: a check called from a detached task of a Swift Testing test has no
    /// current test, and XCTest drops a failure when none of its cases runs (measured on Swift
    /// 6.3.1), while Swift Testing fails the run with an issue outside any test. Whichever
    /// framework is running takes the failure; it is never lost.
    func report(_ report: CheckReport) {
        let location = SourceLocation(fileID: fileID, filePath: filePathString, line: Int(line), column: Int(column))
        for message in report.failures {
            if Test.current != nil {
                Issue.record(Comment(rawValue: message), sourceLocation: location)
            } else {
                XCTFail(message, file: filePath, line: line)
                Issue.record(Comment(rawValue: message), sourceLocation: location)
            }
        }
    }
}
