import Foundation
import XCTest

/// An interrupted run leaves nothing behind and says it was interrupted: SIGTERM and SIGINT at any moment of a run
/// that writes its report with `--output` exit 143 and 130, with no temporary file beside the report and the
/// report either absent or whole.
final class InterruptionTests: XCTestCase {
    func testSignalsRemoveTheRunsTemporariesAndExitAsAShellReports() throws {
        let executable = try builtExecutable()
        let directory = try makeTemporaryDirectory(self)
        // Big enough that a run takes a while: 30 versions of 150 entities each.
        let entities = (0..<150).map { e in
            "<entity name=\"E\(e)\">"
                + (0..<8).map { "<attribute name=\"a\($0)\" optional=\"YES\" attributeType=\"String\"/>" }
                .joined() + "</entity>"
        }
        try writeBundle(
            in: directory,
            versions: (1...30).map { v in ("Near \(v)", entities.prefix(120 + v).joined(separator: "\n")) },
            current: "Near 30")
        var outcomes: [String] = []
        for (i, delay) in [0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 0.8, 1.0].enumerated() {
            for (signal, code) in [(SIGTERM, 143), (SIGINT, 130)] {
                let report = directory.appendingPathComponent("report-\(i)-\(signal).json")
                let process = Process()
                process.executableURL = executable
                process.arguments = [
                    "check", "Near.xcdatamodeld", "--format", "json", "--no-cache", "--output", report.path,
                ]
                process.currentDirectoryURL = directory
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                Thread.sleep(forTimeInterval: delay)
                kill(process.processIdentifier, signal)
                process.waitUntilExit()
                let finished = process.terminationReason == .exit && [0, 1].contains(process.terminationStatus)
                if !finished {
                    XCTAssertEqual(process.terminationReason, .exit, "signal \(signal) after \(delay) s killed the run")
                    XCTAssertEqual(process.terminationStatus, Int32(code), "signal \(signal) after \(delay) s")
                }
                outcomes.append(finished ? "finished" : "interrupted")
                let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
                    $0.hasPrefix(".") && $0.contains(".modellint-")
                }
                XCTAssertEqual(left, [], "temporaries left after signal \(signal) at \(delay) s")
                if let data = FileManager.default.contents(atPath: report.path) {
                    XCTAssertNoThrow(try JSONSerialization.jsonObject(with: data), "a partial report at \(delay) s")
                }
            }
        }
        XCTAssertTrue(outcomes.contains("interrupted"), "\(outcomes)")
    }
}
