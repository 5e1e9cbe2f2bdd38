import Foundation
import XCTest
#if canImport(FoundationXML)
    import FoundationXML
#endif
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

/// Each machine format, checked by parsing what it prints.
final class ReporterTests: XCTestCase {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    private func wellFormed(_ xml: String) -> Bool {
        final class Counter: NSObject, XMLParserDelegate {
            var elements: [String: Int] = [:]
            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                elements[name, default: 0] += 1
            }
        }
        let parser = XMLParser(data: Data(xml.utf8))
        return parser.parse() && parser.parserError == nil
    }

    private func count(_ element: String, in xml: String) -> Int {
        xml.components(separatedBy: "<\(element) ").count - 1 + xml.components(separatedBy: "<\(element)>").count - 1
    }

    func testSARIFHasEveryRequiredField() throws {
        let out = modellint(
            ["check", "SingleVersion", "Changes/TypeReused.xcdatamodeld", "--format", "sarif"], in: fixtures)
        XCTAssertEqual(out.exitCode, 1)
        let sarif = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(sarif["version"] as? String, "2.1.0")
        let run = try XCTUnwrap((sarif["runs"] as? [[String: Any]])?.first)
        let driver = try XCTUnwrap((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        XCTAssertEqual(driver["name"] as? String, "modellint")
        XCTAssertEqual(driver["version"] as? String, ModelLintVersion.current)
        XCTAssertNotNil(driver["informationUri"] as? String)
        let rules = try XCTUnwrap(driver["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.count, RuleRegistry.descriptions.count)
        for rule in rules {
            for key in ["id", "shortDescription", "fullDescription", "help", "helpUri", "defaultConfiguration"] {
                XCTAssertNotNil(rule[key], "\(rule["id"] ?? "?") lacks \(key)")
            }
            XCTAssertTrue((rule["helpUri"] as? String)?.hasSuffix("docs/rules/\(rule["id"] as! String).md") == true)
            XCTAssertNotNil((rule["defaultConfiguration"] as? [String: Any])?["level"] as? String)
        }
        let ids = Set(rules.compactMap { $0["id"] as? String })
        let results = try XCTUnwrap(run["results"] as? [[String: Any]])
        XCTAssertEqual(results.count, 11)
        for result in results {
            XCTAssertTrue(
                ids.contains(result["ruleId"] as? String ?? ""), "\(result["ruleId"] ?? "") is not in tool.driver.rules"
            )
            XCTAssertTrue(["error", "warning", "note"].contains(result["level"] as? String ?? ""))
            XCTAssertNotNil((result["message"] as? [String: Any])?["text"] as? String)
            let location = try XCTUnwrap(
                (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
            let uri = try XCTUnwrap((location["artifactLocation"] as? [String: Any])?["uri"] as? String)
            XCTAssertTrue(uri.hasPrefix("Fixtures/"), "relative to the repository root: \(uri)")
            XCTAssertFalse(uri.contains(" "), "percent-encoded: \(uri)")
            let region = try XCTUnwrap(location["region"] as? [String: Any])
            XCTAssertGreaterThanOrEqual(region["startLine"] as? Int ?? 0, 1)
            XCTAssertGreaterThanOrEqual(region["startColumn"] as? Int ?? 0, 1)
            XCTAssertNotNil((result["partialFingerprints"] as? [String: Any])?["modellint/v2"] as? String)
        }
        XCTAssertTrue(
            results.contains {
                ((($0["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?[
                    "artifactLocation"] as? [String: Any])?["uri"] as? String
                    == "Fixtures/Changes/TypeReused.xcdatamodeld/Near%203.xcdatamodel/contents"
            })
    }

    func testSARIFFingerprintsSurviveLineShifts() throws {
        let directory = try makeTemporaryDirectory(self)
        let bundle = try writeBundle(
            in: directory,
            versions: [
                (
                    "Near 1",
                    "<entity name=\"Owner\"><relationship name=\"x\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Owner\"/></entity>"
                )
            ], current: "Near 1")
        func fingerprint() throws -> (String, Int) {
            let out = modellint(["check", "--format", "sarif"], in: directory)
            let sarif = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
            let result = try XCTUnwrap(
                ((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
            let line =
                ((((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"]
                    as? [String: Any])?["startLine"] as? Int) ?? 0
            return (((result["partialFingerprints"] as? [String: String])?["modellint/v2"]) ?? "", line)
        }
        let before = try fingerprint()
        let contents = bundle.appendingPathComponent("Near 1.xcdatamodel/contents")
        try replaceInFile(
            contents, "<entity name=\"Owner\">",
            with: "<entity name=\"Other\"/>\n\n<entity name=\"Owner\">")
        let after = try fingerprint()
        XCTAssertNotEqual(before.1, after.1, "the finding moved")
        XCTAssertEqual(before.0, after.0, "its fingerprint did not")
    }

    func testJUnitAndCheckstyleAreWellFormedWithTheExpectedCounts() {
        let junit = modellint(["check", "SingleVersion", "Near.xcdatamodeld", "--format", "junit"], in: fixtures)
            .standardOutput
        XCTAssertTrue(wellFormed(junit), junit)
        XCTAssertEqual(count("testsuite", in: junit), 2)
        XCTAssertEqual(count("testcase", in: junit), 10, "9 findings and one passing case for the clean bundle")
        XCTAssertEqual(count("failure", in: junit), 5, "the 5 errors fail the run, and their cases; 4 warnings pass")
        XCTAssertTrue(junit.contains("<testsuites name=\"modellint\" tests=\"10\" failures=\"5\" errors=\"0\">"))
        // Under --strict the warnings fail the run, and their cases.
        let strict = modellint(
            ["check", "SingleVersion", "Near.xcdatamodeld", "--format", "junit", "--strict"], in: fixtures
        ).standardOutput
        XCTAssertEqual(count("failure", in: strict), 9)

        let checkstyle = modellint(
            ["check", "SingleVersion", "Changes/TypeReused.xcdatamodeld", "--format", "checkstyle"], in: fixtures
        ).standardOutput
        XCTAssertTrue(wellFormed(checkstyle), checkstyle)
        XCTAssertEqual(count("file", in: checkstyle), 3)
        XCTAssertEqual(count("error", in: checkstyle), 11)
        XCTAssertTrue(
            checkstyle.contains(
                "severity=\"warning\" message=\"optonal is not an attribute of &lt;attribute&gt; in Core Data&apos;s model format (on Thing.title), perhaps a misspelling of optional: the model compiler ignores it\" source=\"modellint.unknown-xml-attribute\""
            ))
    }

    /// GitLab's Code Quality issues: the documented fields, GitLab's severity words, repository-relative paths, and
    /// a fingerprint per issue even where two findings share a stable key (GitLab shows one issue per fingerprint).
    func testGitLabCodeQualityHasOneFingerprintPerIssue() throws {
        let out = modellint(
            ["check", "SingleVersion", "Changes/TypeReused.xcdatamodeld", "--format", "gitlab-codequality"],
            in: fixtures)
        XCTAssertEqual(out.exitCode, 1)
        let issues = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [[String: Any]])
        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(
                with: Data(
                    modellint(
                        ["check", "SingleVersion", "Changes/TypeReused.xcdatamodeld", "--format", "json"], in: fixtures
                    )
                    .standardOutput.utf8)) as? [String: Any])
        let diagnostics = try XCTUnwrap(json["diagnostics"] as? [[String: Any]])
        XCTAssertEqual(issues.count, diagnostics.count)
        XCTAssertEqual(issues.count, 11)
        XCTAssertEqual(Set(issues.compactMap { $0["fingerprint"] as? String }).count, 11)
        for (issue, diagnostic) in zip(issues, diagnostics) {
            XCTAssertEqual(issue["check_name"] as? String, diagnostic["ruleId"] as? String)
            XCTAssertEqual(issue["description"] as? String, diagnostic["message"] as? String)
            let expected = ["error": "critical", "warning": "major", "note": "info"][diagnostic["severity"] as! String]
            XCTAssertEqual(issue["severity"] as? String, expected)
            let location = try XCTUnwrap(issue["location"] as? [String: Any])
            let path = try XCTUnwrap(location["path"] as? String)
            // Relative to the repository (GitLab's), where the JSON report's are relative to where it ran.
            XCTAssertEqual(path, "Fixtures/" + (diagnostic["file"] as! String))
            XCTAssertEqual((location["lines"] as? [String: Int])?["begin"], (diagnostic["line"] as? Int) ?? 1)
        }
        // Two findings of one rule on one element (the same stable key) still get two fingerprints.
        let bundle = "/repo/M.xcdatamodeld"
        let twice = Diagnostic(
            ruleId: "some-rule", severity: .warning, message: "m", fix: "f", bundle: bundle,
            file: bundle + "/M.xcdatamodel/contents", line: 3, version: "M", entity: "E")
        let rendered = GitLabCodeQualityReporter(paths: PathRelativizer(root: "/repo", workingDirectory: "/repo"))
            .render(LintReport(bundles: [], diagnostics: [twice, twice]))
        let both = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(rendered.utf8)) as? [[String: Any]])
        XCTAssertEqual(both.count, 2)
        XCTAssertNotEqual(both[0]["fingerprint"] as? String, both[1]["fingerprint"] as? String)
        XCTAssertEqual(
            (both[0]["location"] as? [String: Any])?["path"] as? String, "M.xcdatamodeld/M.xcdatamodel/contents")
    }

    /// junit-10.xsd (Jenkins' xUnit plugin) has no file or line on a test case; what does not fail the run (a note,
    /// a warning without --strict) must not be a failure; and a suite's case names are unique.
    func testJUnitNotesPassAndCaseNamesAreUniqueWithoutLocationAttributes() throws {
        let junit = modellint(["check", "Mapped/Store.xcdatamodeld", "--format", "junit"], in: fixtures).standardOutput
        XCTAssertTrue(wellFormed(junit), junit)
        XCTAssertEqual(count("testcase", in: junit), 3)
        XCTAssertEqual(count("failure", in: junit), 1, "the error fails; a warning (without --strict) and a note pass")
        XCTAssertEqual(count("system-out", in: junit), 2)
        XCTAssertTrue(junit.contains("<testsuites name=\"modellint\" tests=\"3\" failures=\"1\" errors=\"0\">"), junit)
        XCTAssertFalse(junit.contains(" file=\""), junit)
        XCTAssertFalse(junit.contains(" line=\""), junit)

        let directory = try makeTemporaryDirectory(self)
        let twice =
            "<entity name=\"A\"><attribute name=\"x\" optonal=\"YES\" indexd=\"YES\" attributeType=\"String\"/></entity>"
        try writeBundle(in: directory, versions: [("Near 1", twice)])
        let repeated = modellint(["check", "--format", "junit"], in: directory).standardOutput
        let names = repeated.components(separatedBy: "<testcase ").dropFirst().compactMap {
            $0.components(separatedBy: " name=\"").dropFirst().first?.components(separatedBy: "\"").first
        }
        XCTAssertEqual(names, ["unknown-xml-attribute Near 1 A.x", "unknown-xml-attribute Near 1 A.x (2)"], repeated)
        XCTAssertEqual(Set(names).count, names.count, repeated)
    }

    func testGitHubEscapesPropertiesAndMessages() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(
            in: directory, name: "Model, v1",
            versions: [
                (
                    "Model: 1",
                    "<entity name=\"Owner\"><relationship name=\"x\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Owner\"/></entity>"
                )
            ], current: "Model: 1")
        let out = modellint(["check", "--format", "github"], in: directory)
        XCTAssertEqual(
            out.standardOutput,
            "::warning file=Model%2C v1.xcdatamodeld/Model%3A 1.xcdatamodel/contents,line=3,col=22,title=missing-inverse::Owner.x has no inverse%0Afix: add the inverse relationship on the destination entity and set both `inverseName`s\n"
        )
        XCTAssertEqual(GitHubReporter.data("50% done\r\nnext: a,b"), "50%25 done%0D%0Anext: a,b")
        XCTAssertEqual(GitHubReporter.property("50% done\r\nnext: a,b"), "50%25 done%0D%0Anext%3A a%2Cb")
    }

    func testGitHubActionsGetsTextAndAnnotationsWithoutConfiguration() {
        let out = modellint(
            ["check", "Changes/ToManyToOne.xcdatamodeld"], in: fixtures, variables: ["GITHUB_ACTIONS": "true"])
        let lines = out.standardOutput.split(separator: "\n")
        XCTAssertTrue(
            lines[0].hasPrefix(
                "Changes/ToManyToOne.xcdatamodeld/Near 2.xcdatamodel/contents:4:9: error: Owner.pets changed from to-many to to-one"
            ))
        XCTAssertEqual(lines[2], "1 error, 0 warnings, 0 notes in 1 bundle (2 versions)")
        XCTAssertTrue(
            lines[3].hasPrefix(
                "::error file=Fixtures/Changes/ToManyToOne.xcdatamodeld/Near 2.xcdatamodel/contents,line=4,col=9,title=to-many-became-to-one::"
            ))
        XCTAssertFalse(
            modellint(
                ["check", "Changes/ToManyToOne.xcdatamodeld", "--format", "text"], in: fixtures,
                variables: ["GITHUB_ACTIONS": "true"]
            ).standardOutput.contains("::error"))
    }

    /// The annotations added by themselves follow the text report: notes only with --notes (a push workflow is not
    /// flooded with notices); `--format github`, a machine format, keeps every finding.
    func testAutomaticAnnotationsListNotesOnlyWithNotes() {
        func notices(_ arguments: [String]) -> Int {
            modellint(["check", "Changes"] + arguments, in: fixtures, variables: ["GITHUB_ACTIONS": "true"])
                .standardOutput.split(separator: "\n").filter { $0.hasPrefix("::notice ") }.count
        }
        XCTAssertEqual(notices([]), 0)
        XCTAssertEqual(notices(["--notes"]), 4)
        XCTAssertEqual(notices(["--format", "github"]), 4)
        XCTAssertEqual(
            jsonDiagnostics(modellint(["check", "Changes", "--format", "json"], in: fixtures)).filter {
                $0["severity"] as? String == "note"
            }.count, 4)
    }
}

final class SuppressionAndBaselineTests: XCTestCase {
    func testUserInfoSuppressionSilencesAnElementFromItsVersionOn() throws {
        let directory = try makeTemporaryDirectory(self)
        let plain =
            "<relationship name=\"x\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Owner\"/>"
        let silenced =
            "<relationship name=\"x\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Owner\"><userInfo><entry key=\"modellint:disable\" value=\"missing-inverse\"/></userInfo></relationship>"
        let bundle = try writeBundle(
            in: directory,
            versions: [
                ("Near 1", "<entity name=\"Owner\">\(plain)</entity>"),
                ("Near 2", "<entity name=\"Owner\">\(silenced)</entity>"),
                (
                    "Near 3",
                    "<entity name=\"Owner\">\(plain)<attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>"
                ),
            ], current: "Near 3")
        XCTAssertEqual(lint(bundle).map { "\($0.ruleId) \($0.version!)" }, ["missing-inverse Near 1"])
    }

    func testEntitySuppressionCoversItsPropertiesAndAllRules() throws {
        let directory = try makeTemporaryDirectory(self)
        let bundle = try writeBundle(
            in: directory,
            versions: [
                (
                    "Near 1",
                    "<entity name=\"Entity\"><userInfo><entry key=\"modellint:disable\" value=\"all\"/></userInfo></entity><entity name=\"Owner\"><relationship name=\"x\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Owner\"/><userInfo><entry key=\"modellint:disable\" value=\"missing-inverse,placeholder-entity\"/></userInfo></entity>"
                )
            ], current: "Near 1")
        XCTAssertEqual(lint(bundle).map(\.ruleId), [])
    }

    func testUnknownRuleInASuppressionIsAWarning() throws {
        let directory = try makeTemporaryDirectory(self)
        let bundle = try writeBundle(
            in: directory,
            versions: [
                (
                    "Near 1",
                    "<entity name=\"Owner\"><relationship name=\"x\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Owner\"><userInfo><entry key=\"modellint:disable\" value=\"missing-invers\"/></userInfo></relationship></entity>"
                )
            ], current: "Near 1")
        let found = lint(bundle)
        XCTAssertEqual(
            found.map { "\($0.ruleId) \($0.severity)" },
            ["missing-inverse warning", "suppression-unknown-rule warning"])
        XCTAssertEqual(
            found[1].message,
            "the modellint:disable entry on Owner.x names \"missing-invers\", which is not a rule id (did you mean missing-inverse?); it silences nothing"
        )
    }

    func testBaselineSurvivesLinesInsertedAboveAFinding() throws {
        let directory = try makeTemporaryDirectory(self)
        let bundle = try writeBundle(
            in: directory,
            versions: [
                (
                    "Near 1",
                    "<entity name=\"Owner\"><relationship name=\"x\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Owner\"/></entity>"
                )
            ], current: "Near 1")
        let written = modellint(["check", "--write-baseline", "baseline.json"], in: directory)
        XCTAssertEqual(written.exitCode, 0)
        XCTAssertEqual(written.standardOutput, "baseline.json: recorded 1 finding\n")
        let baseline = try String(contentsOf: directory.appendingPathComponent("baseline.json"), encoding: .utf8)
        XCTAssertTrue(baseline.contains("\"file\": \"Near.xcdatamodeld/Near 1.xcdatamodel/contents\""))
        XCTAssertFalse(baseline.contains(directory.path), "paths are relative, so the baseline works on any machine")
        XCTAssertFalse(baseline.contains("\"line\""))

        let contents = bundle.appendingPathComponent("Near 1.xcdatamodel/contents")
        try replaceInFile(
            contents, "<entity name=\"Owner\">",
            with: "<entity name=\"First\"/>\n<entity name=\"Second\"/>\n<entity name=\"Owner\">")
        XCTAssertEqual(
            modellint(["check", "--baseline", "baseline.json", "--strict"], in: directory).standardOutput,
            "0 errors, 0 warnings, 0 notes in 1 bundle (1 version)\n")
        // A new finding is still reported.
        try replaceInFile(
            contents, "<entity name=\"Second\"/>",
            with:
                "<entity name=\"Second\"><relationship name=\"y\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Owner\"/></entity>"
        )
        let out = modellint(["check", "--baseline", "baseline.json", "--strict"], in: directory)
        XCTAssertEqual(out.exitCode, 1)
        XCTAssertTrue(out.standardOutput.contains("Second.y has no inverse"))
        XCTAssertFalse(out.standardOutput.contains("Owner.x"))
        XCTAssertEqual(modellint(["check", "--baseline", "missing.json"], in: directory).exitCode, 2)
    }
}

/// Versions named as ranges: a run of three or more in a row is `first … last`.
final class VersionRangeTests: XCTestCase {
    func testRunsOfThreeOrMoreAreRanges() {
        let order = ["Model", "Model 2", "Model 3", "Model 4", "Model 5", "Model 7", "Model 9"]
        XCTAssertEqual(
            ReportText.ranges(["Model", "Model 2", "Model 3", "Model 4", "Model 5"], in: order), "Model … Model 5")
        XCTAssertEqual(
            ReportText.ranges(["Model", "Model 2", "Model 3", "Model 7", "Model 9"], in: order),
            "Model … Model 3, Model 7 and Model 9")
        XCTAssertEqual(ReportText.ranges(["Model 2", "Model 4"], in: order), "Model 2 and Model 4")
        XCTAssertEqual(ReportText.ranges(["Model 4", "Model 5"], in: order), "Model 4 and Model 5")
        XCTAssertEqual(ReportText.ranges(["Model 5", "Model 7", "Model 9"], in: order), "Model 5 … Model 9")
        XCTAssertEqual(ReportText.ranges(["Other"], in: order), "Other")
    }
}

/// `diff` colours each classification by its risk, and never a name from the file.
final class DiffColourTests: XCTestCase {
    func testClassificationsAreColouredAndNamesStayEscaped() {
        let entries = [
            ChangeEntry(
                entity: "Thing\u{1B}[31m", property: "payload", kind: .removed, impact: .dataLoss,
                details: ["its data is dropped"], location: SourceLocation(file: "f")),
            ChangeEntry(
                entity: "Thing\u{1B}[31m", property: "title", kind: .added, impact: .lightweight,
                details: ["String attribute, optional"], location: SourceLocation(file: "f")),
        ]
        let text = DiffReporter.text(entries, bundle: "M.xcdatamodeld", from: "M 1", to: "M 2", useColor: true)
        XCTAssertEqual(
            text.components(separatedBy: "\n").filter { $0.hasPrefix("  ") },
            [
                "  - payload  \u{1B}[1;31m[data loss]\u{1B}[0m  its data is dropped",
                "  + title  \u{1B}[32m[lightweight]\u{1B}[0m  String attribute, optional",
            ])
        XCTAssertTrue(text.contains("Thing\\u{1B}[31m\n"), text)
        XCTAssertFalse(
            DiffReporter.text(entries, bundle: "M.xcdatamodeld", from: "M 1", to: "M 2").contains("\u{1B}"))
    }
}
