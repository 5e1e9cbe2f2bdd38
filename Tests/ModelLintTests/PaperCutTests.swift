import Foundation
import XCTest
import ModelLintSupport

/// The small things a new team meets in its first week: help for a command by name, and suggestions for a rule id
/// in another case or cut short.
final class PaperCutTests: XCTestCase {
    /// `lock` says what it did in one line; what it could not do is always listed; --verbose lists every version.
    func testLockPrintsOneLineUnlessAVersionWasNotLocked() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(
            in: directory, versions: [("Near 1", "<entity name=\"A\"/>"), ("Near 2", "<entity name=\"A\"/>")],
            current: "Near 2")
        XCTAssertEqual(
            modellint(["lock"], in: directory).standardOutput, "modellint.lock: 2 versions added, 0 already locked\n")
        let near3 = directory.appendingPathComponent("Near.xcdatamodeld/Near 3.xcdatamodel")
        try FileManager.default.createDirectory(at: near3, withIntermediateDirectories: true)
        try Data("<model><entity".utf8).write(to: near3.appendingPathComponent("contents"))
        XCTAssertEqual(
            modellint(["lock"], in: directory).standardOutput,
            "  not locked: Near.xcdatamodeld Near 3 cannot be read (modellint check says why)\nmodellint.lock: 0 versions added, 2 already locked\n"
        )
    }

    func testHelpForACommandIsThatCommandsHelp() throws {
        let directory = try makeTemporaryDirectory(self)
        for command in ["check", "diff", "hashes", "store", "lock", "init"] {
            let help = modellint(["help", command], in: directory)
            XCTAssertEqual(help.exitCode, 0, command)
            XCTAssertEqual(help.standardOutput, modellint([command, "--help"], in: directory).standardOutput, command)
            XCTAssertTrue(help.standardOutput.hasPrefix("USAGE: modellint \(command)"), help.standardOutput)
        }
    }

    func testRuleIDsAreSuggestedInAnyCaseAndByTheirBeginning() throws {
        let directory = try makeTemporaryDirectory(self)
        for (given, meant) in [
            ("SKIP-VERSION-UPGRADE", "skip-version-upgrade"), ("skip-versions", "skip-version-upgrade"),
            ("required", "required-attribute-without-default"), ("mising-inverse", "missing-inverse"),
        ] {
            let out = modellint(["check", "--only", given], in: directory)
            XCTAssertEqual(out.exitCode, 2)
            XCTAssertEqual(
                out.standardError,
                "modellint: unknown rule id '\(given)' (did you mean '\(meant)'?); modellint rules lists them\n")
        }
        // Two rules begin alike: no guess.
        XCTAssertNil(Spelling.closest(to: "cloudkit", in: ["cloudkit-missing-inverse", "cloudkit-unique-constraint"]))
        XCTAssertNil(Spelling.closest(to: "zzz", in: ["missing-inverse"]))
    }
}
