import Foundation
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

final class CheckCommandTests: XCTestCase {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    func testCleanFixtureExitsZeroWithASummary() {
        let out = modellint(["check", "Near.xcdatamodeld"], in: fixtures)
        XCTAssertEqual(out.exitCode, 0)
        XCTAssertEqual(out.standardOutput, "0 errors, 0 warnings, 0 notes in 1 bundle (3 versions)\n")
        XCTAssertEqual(out.standardError, "")
    }

    func testSingleVersionFixtureReportsEachRuleAtItsLine() {
        let out = modellint(["check", "SingleVersion/Thing.xcdatamodeld"], in: fixtures)
        XCTAssertEqual(out.exitCode, 1)
        let lines = out.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("    fix:") }
        let tags = lines.dropLast().map { line -> String in
            let position = line.split(separator: " ")[0]
            let rule = line[line.lastIndex(of: "[")!...]
            return "\(position.split(separator: ":")[1]) \(rule)"
        }
        XCTAssertEqual(
            tags,
            [
                "4 [invalid-default-value]", "5 [suspicious-default-value]", "6 [renaming-identifier-xml-attribute]",
                "7 [unknown-attribute-type]", "8 [unknown-xml-attribute]", "9 [missing-inverse]",
                "11 [placeholder-entity]",
                "14 [duplicate-name]", "15 [inverse-mismatch]",
            ])
        XCTAssertEqual(lines.last, "5 errors, 4 warnings, 0 notes in 1 bundle (1 version)")
        XCTAssertTrue(
            out.standardOutput.contains(
                """
                SingleVersion/Thing.xcdatamodeld/Thing.xcdatamodel/contents:7:9: error: Thing.size has attributeType "Int64", which is not a Core Data type (did you mean Integer 64?) [unknown-attribute-type]
                    fix: use one of Core Data's attribute types, spelled as Xcode writes it (`Integer 64`, not `Int64`)
                """))
    }

    func testJSONShape() throws {
        let out = modellint(["check", "SingleVersion", "--format", "json"], in: fixtures)
        XCTAssertEqual(out.exitCode, 1)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(json["tool"] as? [String: String], ["name": "modellint", "version": ModelLintVersion.current])
        let bundles = try XCTUnwrap(json["bundles"] as? [[String: Any]])
        XCTAssertEqual(bundles.first?["path"] as? String, "SingleVersion/Thing.xcdatamodeld")
        XCTAssertEqual(bundles.first?["currentVersion"] as? String, "Thing")
        XCTAssertEqual(bundles.first?["versions"] as? [String], ["Thing"])
        let diagnostics = try XCTUnwrap(json["diagnostics"] as? [[String: Any]])
        XCTAssertEqual(diagnostics.count, 9)
        let first = diagnostics[0]
        XCTAssertEqual(first["ruleId"] as? String, "invalid-default-value")
        XCTAssertEqual(first["severity"] as? String, "error")
        XCTAssertEqual(
            first["message"] as? String,
            "Thing.count has an invalid default: \"70000\" is out of range for Integer 16 (-32768...32767)")
        XCTAssertEqual(first["fix"] as? String, InvalidDefaultValueRule.description.fix)
        XCTAssertEqual(first["bundle"] as? String, "SingleVersion/Thing.xcdatamodeld")
        XCTAssertEqual(first["file"] as? String, "SingleVersion/Thing.xcdatamodeld/Thing.xcdatamodel/contents")
        XCTAssertEqual(first["line"] as? Int, 4)
        XCTAssertEqual(first["column"] as? Int, 9)
        XCTAssertEqual(first["version"] as? String, "Thing")
        XCTAssertEqual(first["entity"] as? String, "Thing")
        XCTAssertEqual(first["property"] as? String, "count")
        XCTAssertNil(first["fromVersion"], "omitted when it does not apply")
        XCTAssertEqual(
            json["summary"] as? [String: Int], ["errors": 5, "warnings": 4, "notes": 0, "bundles": 1, "versions": 1])
        // Key order as documented, and stable run to run.
        XCTAssertTrue(out.standardOutput.hasPrefix("{\n  \"tool\": {\n    \"name\": \"modellint\""))
        XCTAssertEqual(
            modellint(["check", "SingleVersion", "--format", "json"], in: fixtures).standardOutput, out.standardOutput)
    }

    func testStrictQuietAndColor() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(
            in: directory,
            versions: [
                (
                    "Near 1",
                    "<entity name=\"Owner\"><relationship name=\"things\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"Owner\"/></entity>"
                )
            ], current: "Near 1")
        XCTAssertEqual(modellint(["check"], in: directory).exitCode, 0, "a warning alone passes")
        XCTAssertEqual(modellint(["check", "--strict"], in: directory).exitCode, 1)
        let terminal = ModelLintApp.run(
            ["check"], environment: CommandEnvironment(workingDirectory: directory.path, outputIsTerminal: true))
        // As compilers colour it: the location bold, the severity in its colour, the rule id dim.
        XCTAssertTrue(
            terminal.standardOutput.hasPrefix(
                "\u{1B}[1mNear.xcdatamodeld/Near 1.xcdatamodel/contents:"), terminal.standardOutput)
        XCTAssertTrue(terminal.standardOutput.contains("\u{1B}[1;33mwarning:\u{1B}[0m "), terminal.standardOutput)
        XCTAssertTrue(
            terminal.standardOutput.contains(" \u{1B}[2m[missing-inverse]\u{1B}[0m\n"), terminal.standardOutput)
        let noColor = ModelLintApp.run(
            ["check", "--no-color"],
            environment: CommandEnvironment(workingDirectory: directory.path, outputIsTerminal: true))
        XCTAssertFalse(noColor.standardOutput.contains("\u{1B}["))
        let envNoColor = ModelLintApp.run(
            ["check"],
            environment: CommandEnvironment(
                workingDirectory: directory.path, variables: ["NO_COLOR": "1"], outputIsTerminal: true))
        XCTAssertFalse(envNoColor.standardOutput.contains("\u{1B}["))
        XCTAssertEqual(
            modellint(["check", "--quiet"], in: fixtures.appendingPathComponent("Near.xcdatamodeld")).standardOutput, ""
        )
        XCTAssertNotEqual(modellint(["check", "--quiet"], in: directory).standardOutput, "")
        // Notes only: nothing is listed, so --quiet prints nothing, not a summary line on every commit.
        let notesOnly = fixtures.appendingPathComponent("Precision/Messages.xcdatamodeld").path
        XCTAssertEqual(
            modellint(["check", notesOnly], in: directory).standardOutput,
            "0 errors, 0 warnings, 2 notes (--notes to list them) in 1 bundle (2 versions)\n")
        XCTAssertEqual(modellint(["check", "--quiet", notesOnly], in: directory).standardOutput, "")
        XCTAssertTrue(
            modellint(["check", "--quiet", "--notes", notesOnly], in: directory).standardOutput.hasSuffix(
                "0 errors, 0 warnings, 2 notes in 1 bundle (2 versions)\n"))
    }

    func testOutputFileIsWrittenInsteadOfStandardOutput() throws {
        let directory = try makeTemporaryDirectory(self)
        let out = modellint(
            [
                "check", fixtures.appendingPathComponent("Near.xcdatamodeld").path, "--format", "json", "--output",
                "report.json",
            ], in: directory)
        XCTAssertEqual(out.exitCode, 0)
        XCTAssertEqual(out.standardOutput, "")
        let written = try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
        XCTAssertTrue(written.contains("\"currentVersion\": \"Near 20\""))
        // A report whose folder does not exist is the user's input in error (exit 2, as docs/cli.md says).
        let missing = modellint(
            ["check", fixtures.appendingPathComponent("Near.xcdatamodeld").path, "--output", "no/such/dir/r.json"],
            in: directory)
        XCTAssertEqual(missing.exitCode, 2)
        XCTAssertEqual(
            missing.standardError,
            "modellint: cannot write \(directory.path)/no/such/dir/r.json: its folder \(directory.path)/no/such/dir does not exist\n"
        )
    }

    func testPathsSelectBundlesOnce() {
        let out = modellint(
            [
                "check", "Near.xcdatamodeld", "Near.xcdatamodeld/Near 19.xcdatamodel/contents",
                "Near.xcdatamodeld/.xccurrentversion",
            ], in: fixtures)
        XCTAssertEqual(out.standardOutput, "0 errors, 0 warnings, 0 notes in 1 bundle (3 versions)\n")
    }

    func testDirectorySearchFindsEveryBundle() throws {
        let out = modellint(["check", "--format", "json"], in: fixtures)
        XCTAssertEqual(out.exitCode, 1)
        let paths = try FileManager.default.subpathsOfDirectory(atPath: fixtures.path)
        // Each SwiftData fixture app is a folder of Swift files under SwiftData/: one schema set each.
        let swiftDataApps = Set(
            paths.filter { $0.hasPrefix("SwiftData/") && $0.hasSuffix(".swift") }.map {
                ($0 as NSString).deletingLastPathComponent
            })
        let count = paths.filter { $0.hasSuffix(".xcdatamodeld") }.count + swiftDataApps.count
        XCTAssertTrue(out.standardOutput.contains("\"bundles\": \(count)"), out.standardOutput.suffix(200).description)
    }

    func testUsageErrorsExitTwo() throws {
        let directory = try makeTemporaryDirectory(self)
        let missing = modellint(["check", "Nope.xcdatamodeld"], in: directory)
        XCTAssertEqual(missing.exitCode, 2)
        XCTAssertEqual(missing.standardError, "modellint: Nope.xcdatamodeld: no such file or directory\n")
        XCTAssertEqual(modellint(["check", "--bogus"], in: directory).exitCode, 2)
        XCTAssertEqual(modellint(["frobnicate"], in: directory).exitCode, 2)
        XCTAssertTrue(
            modellint(["chek"], in: directory).standardError.hasPrefix(
                "modellint: unknown command 'chek' (did you mean 'check'?)"))
        // Every command in the usage text is a suggestion (four were missing).
        for (typed, meant) in [
            ("stor", "store"), ("hashs", "hashes"), ("verify-buld", "verify-build"), ("inti", "init"),
        ] {
            XCTAssertTrue(
                modellint([typed], in: directory).standardError.hasPrefix(
                    "modellint: unknown command '\(typed)' (did you mean '\(meant)'?)"), typed)
        }
        for name in ModelLintApp.commandNames { XCTAssertTrue(ModelLintApp.usage.contains("modellint \(name)"), name) }
        XCTAssertEqual(modellint([], in: directory).exitCode, 2)
    }

    // An unversioned model (a lone `Model.xcdatamodel`, compiled to a `.mom`) is found by a directory search too.
    func testDirectorySearchFindsALoneVersion() throws {
        let directory = try makeTemporaryDirectory(self)
        let app = directory.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("Near.xcdatamodeld").appendingPathComponent("Near 20.xcdatamodel"),
            to: app.appendingPathComponent("Model.xcdatamodel"))
        let out = modellint(["check", "--format", "json"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
        let bundles = try XCTUnwrap(json["bundles"] as? [[String: Any]])
        XCTAssertEqual(bundles.map { $0["path"] as? String }, ["App/Model.xcdatamodel"])
        XCTAssertEqual(bundles.map { $0["currentVersion"] as? String }, ["Model"])
    }

    // A mistyped path in CI must fail the job, not pass it with nothing linted.
    func testNothingToLintIsAUsageError() throws {
        let directory = try makeTemporaryDirectory(self)
        let out = modellint(["check"], in: directory)
        XCTAssertEqual(out.exitCode, 2)
        XCTAssertEqual(
            out.standardError,
            "modellint: no .xcdatamodeld bundles or SwiftData schemas found in the current directory\n")
        XCTAssertEqual(out.standardOutput, "")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        let typed = modellint(["check", "Sources", "--quiet"], in: directory)
        XCTAssertEqual(typed.exitCode, 2)
        XCTAssertEqual(
            typed.standardError, "modellint: no .xcdatamodeld bundles or SwiftData schemas found in Sources\n")
    }

    func testOlderVersionsAreNotesAndStagedVersionsKeepFullSeverity() throws {
        let directory = try makeTemporaryDirectory(self)
        // A different default in each version: three findings, not one repeated (that is collapsed: below).
        func bad(_ n: Int) -> String {
            "<entity name=\"Thing\"><attribute name=\"n\" attributeType=\"Integer 16\" defaultValueString=\"\(n)\"/></entity>"
        }
        try writeBundle(
            in: directory, versions: [("Near 1", bad(70000)), ("Near 2", bad(70001)), ("Near 3", bad(70002))],
            current: "Near 2")
        let found = lint(directory.appendingPathComponent("Near.xcdatamodeld")).filter {
            $0.ruleId == "invalid-default-value"
        }
        XCTAssertEqual(found.map { "\($0.version!) \($0.severity)" }, ["Near 1 note", "Near 2 error", "Near 3 error"])
    }

    /// docs/cli.md "Which findings count": the same finding in consecutive versions is one, at the newest.
    func testARepeatedFindingIsOneAtItsNewestOccurrence() throws {
        let directory = try makeTemporaryDirectory(self)
        let bad =
            "<entity name=\"Thing\"><attribute name=\"n\" attributeType=\"Integer 16\" defaultValueString=\"70000\"/></entity>"
        let good =
            "<entity name=\"Thing\"><attribute name=\"n\" attributeType=\"Integer 16\" defaultValueString=\"7\"/></entity>"
        try writeBundle(
            in: directory,
            versions: [("Near 1", bad), ("Near 2", bad), ("Near 3", bad), ("Near 4", good), ("Near 5", bad)],
            current: "Near 5")
        let found = lint(directory.appendingPathComponent("Near.xcdatamodeld")).filter {
            $0.ruleId == "invalid-default-value"
        }
        XCTAssertEqual(
            found.map { "\($0.version!) \($0.severity) \($0.versions ?? [])" },
            ["Near 3 note [\"Near 1\", \"Near 2\", \"Near 3\"]", "Near 5 error []"])
        XCTAssertEqual(
            found.first?.message,
            "Thing.n has an invalid default: \"70000\" is out of range for Integer 16 (-32768...32767) (in Near 1 to Near 3)"
        )
        XCTAssertEqual(found.first?.file, "Near.xcdatamodeld/Near 3.xcdatamodel/contents")
        let json = modellint(["check", "--format", "json"], in: directory).standardOutput
        XCTAssertTrue(
            json.contains("\"versions\": [\n        \"Near 1\",\n        \"Near 2\",\n        \"Near 3\"\n      ]"),
            json)
    }

    func testConfiguredSeveritiesApply() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(
            in: directory,
            versions: [
                (
                    "Near 1",
                    "<entity name=\"Owner\"><relationship name=\"things\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"Owner\"/></entity>"
                )
            ], current: "Near 1")
        try Data("{ \"rules\": { \"missing-inverse\": \"error\", }, // JSON5\n }".utf8).write(
            to: directory.appendingPathComponent(".modellint.json"))
        XCTAssertEqual(modellint(["check"], in: directory).exitCode, 1)
        try Data("{ \"rules\": { \"missing-inverse\": \"off\" } }".utf8).write(
            to: directory.appendingPathComponent(".modellint.json"))
        let off = modellint(["check"], in: directory)
        XCTAssertEqual(off.exitCode, 0)
        XCTAssertEqual(off.standardOutput, "0 errors, 0 warnings, 0 notes in 1 bundle (1 version)\n")
    }

    func testRulesExplainVersionAndHelp() throws {
        let directory = try makeTemporaryDirectory(self)
        let rules = modellint(["rules"], in: directory)
        XCTAssertEqual(rules.exitCode, 0)
        for rule in RuleRegistry.descriptions {
            XCTAssertTrue(rules.standardOutput.contains(rule.id), rule.id)
        }
        XCTAssertTrue(rules.standardOutput.hasPrefix("Bundle structure\n  malformed-contents"))
        let explain = modellint(["explain", "missing-inverse"], in: directory)
        XCTAssertEqual(explain.exitCode, 0)
        XCTAssertTrue(explain.standardOutput.hasPrefix("missing-inverse (warning, A single model version)"))
        XCTAssertTrue(explain.standardOutput.contains("Triggers (↓ marks where):"))
        XCTAssertTrue(explain.standardOutput.contains("Does not trigger:"))
        let unknown = modellint(["explain", "missing-invers"], in: directory)
        XCTAssertEqual(unknown.exitCode, 2)
        XCTAssertEqual(
            unknown.standardError,
            "modellint: unknown rule id 'missing-invers' (did you mean 'missing-inverse'?); modellint rules lists them\n"
        )
        XCTAssertEqual(
            modellint(["--version"], in: directory).standardOutput, "modellint \(ModelLintVersion.current)\n")
        // A released binary names its commit too; reports keep the bare version.
        let released = CommandEnvironment(workingDirectory: directory.path, releaseCommit: "abc1234")
        XCTAssertEqual(
            ModelLintApp.run(["--version"], environment: released).standardOutput,
            "modellint \(ModelLintVersion.current) (abc1234)\n")
        XCTAssertTrue(modellint(["check", "--help"], in: directory).standardOutput.hasPrefix("USAGE: modellint check"))
        XCTAssertEqual(modellint(["rules", "--help"], in: directory).exitCode, 0)
        XCTAssertEqual(modellint(["explain", "--help"], in: directory).exitCode, 0)
    }
}

/// A run split by configuration (a bundle with a `.modellint.json` of its own) still reads the SwiftData schemas of
/// the paths it was given: the parts' bundle paths select no Swift folder, so one part searches the run's paths.
final class SplitRunSwiftDataTests: XCTestCase {
    func testANestedConfigurationKeepsTheSwiftDataSchemas() throws {
        let directory = try makeTemporaryDirectory(self)
        let app = directory.appendingPathComponent("Library")
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/SwiftData/Library"), to: app)
        let nested = directory.appendingPathComponent("Shop")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Fix/DeclaredRename/Shop.xcdatamodeld"),
            to: nested.appendingPathComponent("Shop.xcdatamodeld"))
        try Data(#"{ "bundles": { "Shop.xcdatamodeld": { "cloudKit": false } } }"#.utf8).write(
            to: nested.appendingPathComponent(".modellint.json"))
        let out = modellint(["check", "--format", "json", "--no-cache"], in: directory)
        let report = try JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as! [String: Any]
        let bundles = (report["bundles"] as! [[String: Any]]).map { $0["path"] as! String }
        XCTAssertEqual(bundles, ["Shop/Shop.xcdatamodeld", "Library/LibrarySchemas.swift"])
    }
}
