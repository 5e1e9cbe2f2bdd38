import Foundation
import XCTest
import ModelLintSupport
import ModelLintModel
import ModelLintHistory
import ModelLintRules
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

    // Case 9: a lock key written as an absolute path still protects its bundle; one outside the lock's folder is
    // reported, never silently matched to nothing.
    func testAbsoluteLockKeysMatchTheirBundleOrAreReported() throws {
        let directory = try makeTemporaryDirectory(self)
        let bundle = try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>"), ("Near 2", "<entity name=\"A\"/>")], current: "Near 2")
        XCTAssertEqual(modellint(["lock"], in: directory).exitCode, 0)
        let path = directory.appendingPathComponent("modellint.lock")
        let absolute = PathTools.standardize(bundle.path)
        var text = try String(contentsOf: path, encoding: .utf8).replacingOccurrences(of: "\"Near.xcdatamodeld\"", with: "\"\(absolute)\"")
        text = text.replacingOccurrences(of: "\"bundles\": {", with: "\"bundles\": {\n    \"/elsewhere/Other.xcdatamodeld\": { \"versions\": {} },")
        try Data(text.utf8).write(to: path)
        try Data((RuleExample.modelHeader + "\n<entity name=\"B\"/>\n</model>\n").utf8).write(to: bundle.appendingPathComponent("Near 1.xcdatamodel/contents"))
        let out = modellint(["check", "--format", "json"], in: directory)
        let found = jsonDiagnostics(out)
        XCTAssertEqual(found.map { "\($0["ruleId"]!) \($0["file"]!):\($0["line"] ?? "-")" }.sorted(),
                       ["entity-removed Near.xcdatamodeld/Near 1.xcdatamodel/contents:3", "lock-entry-orphaned modellint.lock:5",
                        "shipped-version-edited Near.xcdatamodeld/Near 1.xcdatamodel/contents:2"])
        XCTAssertEqual(found.first { $0["ruleId"] as? String == "lock-entry-orphaned" }?["message"] as? String,
                       "modellint.lock records /elsewhere/Other.xcdatamodeld (0 versions) by an absolute path outside the lock file's folder: it matches no bundle, so those versions are protected by nothing; record the bundle by its path relative to the lock file")
        XCTAssertEqual(out.exitCode, 1)
    }

    // Case 8: --pre-commit judges what is staged. An error staged and then reverted on disk is committed as staged;
    // a bundle git rm -r'ed while the lock file records it fails --strict.
    func testPreCommitJudgesTheIndexNotTheWorkTree() throws {
        let directory = try makeTemporaryDirectory(self)
        let attribute = "<entity name=\"A\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>"
        let bundle = try writeBundle(in: directory, versions: [("Near 1", attribute)], current: "Near 1")
        try git(["init", "-q", "-b", "main"], in: directory)
        try git(["add", "-A"], in: directory)
        try git(["commit", "-qm", "base"], in: directory)
        let clean = try String(contentsOf: bundle.appendingPathComponent("Near 1.xcdatamodel/contents"), encoding: .utf8)

        // Staged: a second version that adds a required attribute without a default; then reverted on disk.
        let required = "<entity name=\"A\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"b\" attributeType=\"String\"/></entity>"
        try writeBundle(in: directory, versions: [("Near 2", required)], current: "Near 2")
        try git(["add", "-A"], in: directory)
        try Data(clean.utf8).write(to: bundle.appendingPathComponent("Near 2.xcdatamodel/contents"))
        let staged = modellint(["check", "--pre-commit", "--format", "json"], in: directory)
        XCTAssertEqual(staged.exitCode, 1, staged.standardError)
        XCTAssertEqual(summary(jsonDiagnostics(staged)), ["required-attribute-without-default error Near 1>Near 2 A.b @3"])
        XCTAssertEqual(jsonDiagnostics(staged).first?["file"] as? String, "Near.xcdatamodeld/Near 2.xcdatamodel/contents")
        // The reverse: the work tree's error is not what is committed once the clean text is staged.
        try git(["add", "-A"], in: directory)
        try Data(required.utf8).write(to: bundle.appendingPathComponent("Near 2.xcdatamodel/contents"))
        let cleanStaged = modellint(["check", "--pre-commit", "--format", "json"], in: directory)
        XCTAssertEqual(summary(jsonDiagnostics(cleanStaged)), ["redundant-version note Near 1>Near 2 -.- @2"])
        XCTAssertEqual(cleanStaged.exitCode, 0)
        try git(["checkout", "--", "."], in: directory)
        try git(["commit", "-qm", "Near 2"], in: directory)

        // Locked, then deleted whole: the lock entry protects nothing now.
        XCTAssertEqual(modellint(["lock"], in: directory).exitCode, 0)
        try git(["add", "modellint.lock"], in: directory)
        try git(["commit", "-qm", "lock"], in: directory)
        try git(["rm", "-rq", "Near.xcdatamodeld"], in: directory)
        let deleted = modellint(["check", "--pre-commit", "--strict", "--format", "json"], in: directory)
        XCTAssertEqual(deleted.exitCode, 1, deleted.standardError)
        XCTAssertEqual(jsonDiagnostics(deleted).map { $0["ruleId"] as? String }, ["lock-entry-orphaned"])
        // A commit that touches nothing of modellint's still reports nothing.
        try git(["reset", "-q", "--hard"], in: directory)
        try Data("notes".utf8).write(to: directory.appendingPathComponent("README.md"))
        try git(["add", "README.md"], in: directory)
        let unrelated = modellint(["check", "--pre-commit", "--strict"], in: directory)
        XCTAssertEqual(unrelated.exitCode, 0)
        XCTAssertEqual(unrelated.standardOutput, "")
    }
}
