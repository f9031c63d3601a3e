import Foundation
import Testing
import XCTest

extension CallSite {
    /// Reports each failure of `report` at this call site: through Swift Testing's
    /// `Issue.record` when a Swift Testing test is running, otherwise through `XCTFail`.
    func report(_ report: CheckReport) {
        for message in report.failures {
            if Test.current != nil {
                Issue.record(
                    Comment(rawValue: message),
                    sourceLocation: SourceLocation(
                        fileID: fileID, filePath: filePathString, line: Int(line), column: Int(column)))
            } else {
                XCTFail(message, file: filePath, line: line)
            }
        }
    }
}
