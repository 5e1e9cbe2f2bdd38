import Foundation
import XCTest
import ModelLintSupport

/// The small things a new team meets in its first week: help for a command by name, and suggestions for a rule id
/// in another case or cut short.
final class PaperCutTests: XCTestCase {
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
