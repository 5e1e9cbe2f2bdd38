import Foundation
import XCTest
import ModelLintCommands

/// A pull request cannot switch its own gate off: the configuration, lock file and baseline at the revision the
/// gate compares with are the floor, and a change that loosens them is a finding of its own (`configuration-weakened`).
final class ConfigurationFloorTests: XCTestCase {
    let temporary = TemporaryDirectories()
    static let shipped =
        #"<entity name="Item"><attribute name="title" optional="YES" attributeType="String"/></entity>"#
    static let edited =
        #"<entity name="Item"><attribute name="title" optional="YES" attributeType="String"/><attribute name="rank" attributeType="Integer 64"/></entity>"#

    /// `main`: one shipped version, recorded in the root lock file, and a root configuration that leaves every rule
    /// at its default. Then the change: the shipped version edited (a new required attribute), and beside the bundle
    /// a `.modellint.json` turning the history rule off and an empty `modellint.lock`.
    func repositoryWithAChangeThatSwitchesItsGateOff() throws -> URL {
        let directory = try temporary.make()
        let app = directory.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try writeBundle(in: app, versions: [("Near 1", Self.shipped)], current: "Near 1")
        try Data(#"{ "rules": { "missing-inverse": "off" } }"#.utf8).write(
            to: directory.appendingPathComponent(".modellint.json"))
        try git(["init", "-q", "-b", "main"], in: directory)
        XCTAssertEqual(modellint(["lock"], in: directory).exitCode, 0)
        try git(["add", "-A"], in: directory)
        try git(["commit", "-qm", "shipped"], in: directory)
        try writeBundle(in: app, versions: [("Near 1", Self.edited)], current: "Near 1")
        try Data(#"{ "rules": { "shipped-version-edited": "off" } }"#.utf8).write(
            to: app.appendingPathComponent(".modellint.json"))
        try Data(#"{ "format": 2, "bundles": {} }"#.utf8).write(to: app.appendingPathComponent("modellint.lock"))
        return directory
    }

    func testAPullRequestCannotTurnItsOwnGateOff() throws {
        let directory = try repositoryWithAChangeThatSwitchesItsGateOff()
        try git(["add", "-A"], in: directory)
        try git(["commit", "-qm", "the change"], in: directory)
        // Without the gate, the nested files are in force and hide the edit: that is what they are for.
        XCTAssertEqual(modellint(["check", "--format", "json", "--no-cache"], in: directory).exitCode, 0)
        for extra in [[], ["--only-new"]] {
            let out = modellint(
                ["check", "--against", "HEAD~1", "--format", "json", "--no-cache"] + extra, in: directory)
            XCTAssertEqual(out.exitCode, 1, out.standardOutput + out.standardError)
            let found = jsonDiagnostics(out).filter { $0["ruleId"] as? String == "configuration-weakened" }
            XCTAssertEqual(
                found.map { "\($0["severity"]!) \($0["file"]!):\($0["line"] as? Int ?? 0) \($0["message"]!)" },
                [
                    "error App/.modellint.json:1 App/.modellint.json turns shipped-version-edited off (error at HEAD~1): this run, gated against HEAD~1, would no longer report it",
                    "error App/modellint.lock:0 App/modellint.lock removes the record of Near 1 of App/Near.xcdatamodeld: those shipped versions are protected by nothing in this run, gated against HEAD~1",
                ], "\(extra)")
        }
    }

    func testTheCommitHookHoldsTheChangeToHEAD() throws {
        let directory = try repositoryWithAChangeThatSwitchesItsGateOff()
        try git(["add", "-A"], in: directory)
        let out = modellint(["check", "--pre-commit", "--format", "json", "--no-cache"], in: directory)
        XCTAssertEqual(out.exitCode, 1, out.standardOutput + out.standardError)
        XCTAssertEqual(
            jsonDiagnostics(out).filter { $0["ruleId"] as? String == "configuration-weakened" }.count, 2)
    }

    /// The revision's root configuration lets changes carry their own settings: the same change is reported as a
    /// warning, and the gate passes.
    func testAllowNestedOverridesAtTheRevisionMakesItAWarning() throws {
        let directory = try repositoryWithAChangeThatSwitchesItsGateOff()
        try git(["stash", "-u", "-q"], in: directory)
        try Data(#"{ "allowNestedOverrides": true }"#.utf8).write(
            to: directory.appendingPathComponent(".modellint.json"))
        try git(["commit", "-qam", "overrides allowed"], in: directory)
        try git(["stash", "pop", "-q"], in: directory)
        try git(["add", "-A"], in: directory)
        try git(["commit", "-qm", "the change"], in: directory)
        let out = modellint(["check", "--against", "HEAD~1", "--format", "json", "--no-cache"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardOutput + out.standardError)
        XCTAssertEqual(
            jsonDiagnostics(out).filter { $0["ruleId"] as? String == "configuration-weakened" }.map {
                "\($0["severity"]!)"
            }, ["warning", "warning"])
    }

    /// A change that makes the settings stricter, or none at all, is not reported; nor is the revision compared
    /// with itself.
    func testStricterSettingsAreNotReported() throws {
        let directory = try temporary.make()
        try writeBundle(in: directory, versions: [("Near 1", Self.shipped)], current: "Near 1")
        try Data(#"{ "rules": { "missing-inverse": "off" } }"#.utf8).write(
            to: directory.appendingPathComponent(".modellint.json"))
        try git(["init", "-q", "-b", "main"], in: directory)
        try git(["add", "-A"], in: directory)
        try git(["commit", "-qm", "base"], in: directory)
        XCTAssertEqual(
            jsonDiagnostics(modellint(["check", "--against", "HEAD", "--format", "json"], in: directory)).filter {
                $0["ruleId"] as? String == "configuration-weakened"
            }.count, 0)
        try Data(#"{ "rules": { "missing-inverse": "warning", "entity-removed": "error" } }"#.utf8).write(
            to: directory.appendingPathComponent(".modellint.json"))
        try git(["commit", "-qam", "stricter"], in: directory)
        let out = modellint(["check", "--against", "HEAD~1", "--format", "json", "--no-cache"], in: directory)
        XCTAssertEqual(
            jsonDiagnostics(out).filter { $0["ruleId"] as? String == "configuration-weakened" }.count, 0,
            out.standardOutput)
    }
}
