import XCTest
import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintRules
import ModelLintEngine
import ModelLintReporting
import ModelLintCommands
import ModelLintGather

final class ArgumentParserTests: XCTestCase {
    let options = CheckCommand.options

    func testValuesFlagsAndPositionals() throws {
        let parsed = try ArgumentParser.parse(
            ["A.xcdatamodeld", "--format", "json", "--strict", "--output=r.json", "B"], options: options,
            command: "check")
        XCTAssertEqual(parsed.positionals, ["A.xcdatamodeld", "B"])
        XCTAssertEqual(parsed.values, ["--format": "json", "--output": "r.json"])
        XCTAssertEqual(parsed.flags, ["--strict"])
    }

    func testDoubleDashEndsOptions() throws {
        let parsed = try ArgumentParser.parse(["--", "--strict"], options: options, command: "check")
        XCTAssertEqual(parsed.positionals, ["--strict"])
        XCTAssertEqual(parsed.flags, [])
    }

    func testUnknownOptionSuggestsTheClosest() {
        XCTAssertThrowsError(try ArgumentParser.parse(["--strcit"], options: options, command: "check")) { error in
            XCTAssertEqual(
                error as? UsageError,
                UsageError("unknown option --strcit for 'check' (did you mean --strict?); see 'modellint check --help'")
            )
        }
        XCTAssertThrowsError(try ArgumentParser.parse(["--zzzzzzzz"], options: options, command: "check")) { error in
            XCTAssertEqual(
                error as? UsageError, UsageError("unknown option --zzzzzzzz for 'check'; see 'modellint check --help'"))
        }
    }

    func testMissingAndInvalidValues() {
        XCTAssertThrowsError(try ArgumentParser.parse(["--format"], options: options, command: "check")) { error in
            XCTAssertEqual(
                error as? UsageError,
                UsageError(
                    "--format needs a value (F): one of text, json, sarif, github, junit, checkstyle, markdown, gitlab-codequality"
                ))
        }
        XCTAssertThrowsError(try ArgumentParser.parse(["--output", "--strict"], options: options, command: "check")) {
            error in
            XCTAssertEqual(error as? UsageError, UsageError("--output needs a value (FILE)"))
        }
        XCTAssertThrowsError(try ArgumentParser.parse(["--format", "xml"], options: options, command: "check")) {
            error in
            XCTAssertEqual(
                error as? UsageError,
                UsageError(
                    "--format must be one of text, json, sarif, github, junit, checkstyle, markdown, gitlab-codequality, not 'xml'"
                ))
        }
        XCTAssertThrowsError(try ArgumentParser.parse(["--strict=yes"], options: options, command: "check")) { error in
            XCTAssertEqual(error as? UsageError, UsageError("--strict takes no value"))
        }
    }

    func testHelpIsGeneratedFromTheTable() {
        for option in options {
            XCTAssertTrue(CheckCommand.help.contains(option.name), option.name)
        }
    }
}
