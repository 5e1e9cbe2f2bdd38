import Foundation
import XCTest
import ModelLintSupport
import ModelLintModel
import ModelLintHistory
import ModelLintEngine
import ModelLintCommands

/// What a pull request can add around a bundle to make a run pass when it should fail, or reach outside the
/// repository (issue 21, cases 6, 8, 9, 13, 14 and 15).
final class RepositoryBoundaryTests: XCTestCase {
    // Case 6: folders that sort before the app's use up the walk budget; the run stops with exit 2, never "0 bundles".
    func testAnExhaustedWalkBudgetIsAnError() throws {
        let directory = try makeTemporaryDirectory(self)
        for i in 1...30 { try FileManager.default.createDirectory(at: directory.appendingPathComponent(String(format: "a%02d", i)), withIntermediateDirectories: true) }
        try writeBundle(in: directory.appendingPathComponent("z-app"), versions: [("Near 1", "<entity name=\"A\"/>")])
        try Data(#"{ "walkBudget": 20 }"#.utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        let out = modellint(["check", "--format", "json"], in: directory)
        XCTAssertEqual(out.exitCode, 2)
        XCTAssertEqual(out.standardOutput, "")
        XCTAssertEqual(out.standardError, "modellint: the search listed 20 folders, its budget, and stopped at a20 before seeing the whole tree; exclude folders (\"exclude\") or raise the budget (\"walkBudget\" in .modellint.json)\n")
        // Raised, the same tree is read whole.
        try Data(#"{ "walkBudget": 100 }"#.utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        let raised = modellint(["check", "--format", "json"], in: directory)
        XCTAssertEqual(raised.exitCode, 0, raised.standardError)
        // lock honours it too.
        try Data(#"{ "walkBudget": 20 }"#.utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        XCTAssertEqual(modellint(["lock"], in: directory).exitCode, 2)
        // A budget that is not a count of folders is a configuration error.
        try Data(#"{ "walkBudget": 0.5 }"#.utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        let bad = modellint(["check"], in: directory)
        XCTAssertEqual(bad.exitCode, 2)
        XCTAssertTrue(bad.standardError.contains("walkBudget"), bad.standardError)
    }
}
