import Foundation
import Testing
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

/// CI gates only what the change introduces. Findings are matched by stable identity, so a new
/// version or moved lines keep old findings old (baselines, `--only-new`, SARIF fingerprints).
@Suite struct WorkflowTests {
    let temporary = TemporaryDirectories()

    private func json(_ out: CommandOutput) -> [[String: Any]] { jsonDiagnostics(out) }

    private func summary(_ diagnostics: [[String: Any]]) -> [String] {
        ModelLintTests.summary(diagnostics, lines: false)
    }

    /// A repository whose main branch holds `bundle` (a fixture, or a corpus bundle), committed.
    private func repository(with bundle: URL) throws -> URL {
        let directory = try temporary.make()
        try git(["init", "-q", "-b", "main"], in: directory)
        try FileManager.default.copyItem(at: bundle, to: directory.appendingPathComponent(bundle.lastPathComponent))
        _ = try shell("chmod -R u+w .", in: directory)
        try git(["add", "-A"], in: directory)
        try git(["commit", "-q", "-m", "base"], in: directory)
        return directory
    }

    private func addRequiredAttribute(to contents: URL, entity: String) throws {
        var text = try String(contentsOf: contents, encoding: .utf8)
        let start = try #require(text.range(of: "<entity name=\"\(entity)\""))
        let end = try #require(text.range(of: ">", range: start.upperBound..<text.endIndex))
        text.insert(contentsOf: "\n        <attribute name=\"mustHave\" attributeType=\"String\"/>", at: end.upperBound)
        try Data(text.utf8).write(to: contents)
    }

    @Test func testABaselineSurvivesNewVersionAndOnlyNewReportsTheChangeAlone() throws {
        let directory = try repository(
            with: repositoryRoot.appendingPathComponent("Fixtures/Changes/TypeReused.xcdatamodeld"))
        let bundle = "TypeReused.xcdatamodeld"
        #expect(
            modellint(["check", bundle, "--write-baseline", "baseline.json"], in: directory).standardOutput
                == "baseline.json: recorded 2 findings\n")
        #expect(modellint(["new-version", bundle], in: directory).exitCode == 0)

        // The skip-version finding now reads "straight to Near 4", the removal's step is older: same identities.
        let (baseline) = json(
            modellint(["check", bundle, "--baseline", "baseline.json", "--format", "json"], in: directory))
        #expect(summary(baseline) == ["redundant-version note Near 3>Near 4 -.-"], "only the copy itself is new")
        let onlyNew = json(
            modellint(["check", bundle, "--against", "main", "--only-new", "--format", "json"], in: directory))
        #expect(summary(onlyNew) == ["redundant-version note Near 3>Near 4 -.-"])

        // The change a pull request makes: one required attribute in the new version.
        try addRequiredAttribute(
            to: directory.appendingPathComponent("\(bundle)/Near 4.xcdatamodel/contents"), entity: "Item")
        let change = modellint(["check", bundle, "--against", "main", "--only-new", "--format", "json"], in: directory)
        #expect(change.exitCode == 1)
        #expect(summary(json(change)) == ["required-attribute-without-default error Near 3>Near 4 Item.mustHave"])
        #expect(
            modellint(["check", bundle, "--only-new"], in: directory).standardError
                == "modellint: --only-new needs --against REF (the revision whose findings are not new)\n")
    }

    @Test(.enabled(if: corpusRoot != nil, "../shared/corpus is not present"))
    func testWooCommercesBaselineSurvivesNewVersionAndAPullRequestAddsOneFinding() throws {
        let source = try #require(corpusRoot).appendingPathComponent(
            "woocommerce__woocommerce-ios/Storage/Storage/Model/WooCommerce.xcdatamodeld")
        let directory = try repository(with: source)
        let bundle = "WooCommerce.xcdatamodeld"
        let recorded = modellint(["check", bundle, "--write-baseline", "baseline.json"], in: directory).standardOutput
        #expect(recorded.hasPrefix("baseline.json: recorded "), Comment(rawValue: recorded))
        #expect(modellint(["new-version", bundle], in: directory).exitCode == 0)
        let after = json(
            modellint(["check", bundle, "--baseline", "baseline.json", "--format", "json"], in: directory))
        #expect(
            summary(after) == ["redundant-version note Model 117>Model 118 -.-"], "0 findings new but the copy itself")
        try addRequiredAttribute(
            to: directory.appendingPathComponent("\(bundle)/Model 118.xcdatamodel/contents"), entity: "Account")
        let change = json(
            modellint(["check", bundle, "--against", "main", "--only-new", "--format", "json"], in: directory))
        #expect(summary(change) == ["required-attribute-without-default error Model 117>Model 118 Account.mustHave"])
    }

    @Test func testSARIFFingerprintsSurviveNewVersion() throws {
        let directory = try repository(
            with: repositoryRoot.appendingPathComponent("Fixtures/Changes/TypeReused.xcdatamodeld"))
        func fingerprints() throws -> [String: String] {
            let out = modellint(["check", "TypeReused.xcdatamodeld", "--format", "sarif"], in: directory)
            let sarif = try #require(
                JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
            let results = try #require(((sarif["runs"] as? [[String: Any]])?.first)?["results"] as? [[String: Any]])
            var byRule: [String: String] = [:]
            for r in results {
                byRule[r["ruleId"] as! String] = (r["partialFingerprints"] as? [String: String])?["modellint/v2"]
            }
            return byRule
        }
        let before = try fingerprints()
        #expect(Set(before.keys) == ["property-removed", "skip-version-upgrade"])
        #expect(modellint(["new-version", "TypeReused.xcdatamodeld"], in: directory).exitCode == 0)
        let after = try fingerprints()
        #expect(after["property-removed"] == before["property-removed"])
        #expect(
            after["skip-version-upgrade"] == before["skip-version-upgrade"],
            "its message now names Near 4, its identity does not")
    }

    @Test func testAFormatOneBaselineStillMatchesByItsFields() throws {
        let directory = try repository(
            with: repositoryRoot.appendingPathComponent("Fixtures/Changes/TypeReused.xcdatamodeld"))
        #expect(
            modellint(["check", "TypeReused.xcdatamodeld", "--write-baseline", "b.json"], in: directory).exitCode == 0)
        // Rewrite as format 1: no keys.
        var text = try String(contentsOf: directory.appendingPathComponent("b.json"), encoding: .utf8)
        #expect(text.contains("\"format\": 3"))
        text = text.replacingOccurrences(of: "\"format\": 3", with: "\"format\": 1")
        text = text.replacingOccurrences(of: #",\s*"key": "[^"]*""#, with: "", options: .regularExpression)
        #expect(!text.contains("\"key\""))
        try Data(text.utf8).write(to: directory.appendingPathComponent("b.json"))
        let out = modellint(
            ["check", "TypeReused.xcdatamodeld", "--baseline", "b.json", "--format", "json"], in: directory)
        #expect(out.exitCode == 0, Comment(rawValue: out.standardError))
        #expect(json(out).count == 0)
    }
}

/// Baselines are portable: keyed by repository-relative paths, so one written in a clone matches
/// in another clone, from any working directory and wherever in the repository the file is committed; an entry that
/// matches nothing is said.
@Suite struct PortableBaselineTests {
    let temporary = TemporaryDirectories()

    @Test func testABaselineWrittenInOneCloneHidesTheSameFindingsInAnother() throws {
        let first = try temporary.make().appendingPathComponent("first clone")
        try FileManager.default.createDirectory(
            at: first.appendingPathComponent("App"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Changes/TypeReused.xcdatamodeld"),
            to: first.appendingPathComponent("App/TypeReused.xcdatamodeld"))
        try git(["init", "-q", "-b", "main"], in: first)
        let before = modellint(["check", "--format", "json"], in: first)
        #expect(before.exitCode == 1)
        let findings = jsonDiagnostics(before).count
        #expect(findings == 2)
        // Written from a subfolder into .github/: not below either folder the findings' paths are relative to.
        try FileManager.default.createDirectory(
            at: first.appendingPathComponent(".github"), withIntermediateDirectories: true)
        let written = modellint(
            ["check", "TypeReused.xcdatamodeld", "--write-baseline", "../.github/modellint-baseline.json"],
            in: first.appendingPathComponent("App"))
        #expect(written.standardOutput == "../.github/modellint-baseline.json: recorded 2 findings\n")
        let text = try String(
            contentsOf: first.appendingPathComponent(".github/modellint-baseline.json"), encoding: .utf8)
        #expect(text.contains("\"file\": \"App/TypeReused.xcdatamodeld/"), Comment(rawValue: text))
        #expect(!text.contains(first.path), "no absolute path: \(text)")
        try git(["add", "-A"], in: first)
        try git(["commit", "-q", "-m", "baseline"], in: first)

        let second = try temporary.make().appendingPathComponent("ci")
        try git(["clone", "-q", first.path, second.path], in: first)
        for (arguments, directory) in [
            (["check", "--baseline", ".github/modellint-baseline.json", "--format", "json"], second),
            (
                ["check", ".", "--baseline", "../.github/modellint-baseline.json", "--format", "json"],
                second.appendingPathComponent("App")
            ),
            (
                [
                    "check", second.appendingPathComponent("App/TypeReused.xcdatamodeld").path, "--baseline",
                    second.appendingPathComponent(".github/modellint-baseline.json").path, "--format", "json",
                ], URL(fileURLWithPath: "/")
            ),
        ] {
            let out = modellint(arguments, in: directory)
            #expect(out.exitCode == 0, "\(arguments): \(out.standardError)")
            #expect(jsonDiagnostics(out).count == 0, "\(arguments)")
            #expect(out.standardError == "", "\(arguments)")
        }
    }

    @Test func testEntriesThatMatchNothingAreNamed() throws {
        let directory = try temporary.make()
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Changes/TypeReused.xcdatamodeld"),
            to: directory.appendingPathComponent("TypeReused.xcdatamodeld"))
        #expect(modellint(["check", "--write-baseline", "b.json"], in: directory).exitCode == 0)
        // A baseline for another folder: every entry matches nothing, the findings come back, and the run says why.
        var text = try String(contentsOf: directory.appendingPathComponent("b.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: "TypeReused.xcdatamodeld", with: "Old/TypeReused.xcdatamodeld")
        try Data(text.utf8).write(to: directory.appendingPathComponent("b.json"))
        let out = modellint(["check", "--baseline", "b.json", "--no-color"], in: directory)
        #expect(out.exitCode == 1)
        #expect(
            out.standardError.hasPrefix(
                "modellint: note: 2 of 2 entries in b.json matched no finding (fixed since, or recorded for other files): "
            ), Comment(rawValue: out.standardError))
        #expect(
            out.standardError.contains("property-removed Old/TypeReused.xcdatamodeld/"),
            Comment(rawValue: out.standardError))
    }

    /// With --only-new the baseline is matched against every finding first: entries for findings REF already had
    /// still match, so no "matched no finding" note is said for them.
    @Test func testTheBaselineIsMatchedBeforeOnlyNewRemovesFindings() throws {
        let directory = try temporary.make()
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Changes/TypeReused.xcdatamodeld"),
            to: directory.appendingPathComponent("TypeReused.xcdatamodeld"))
        #expect(modellint(["check", "--write-baseline", "b.json"], in: directory).exitCode == 0)
        let git = "git -c user.email=t@example.com -c user.name=t -c commit.gpgsign=false"
        let setUp = try shell(
            [
                "git init -q -b main", "\(git) add -A", "\(git) commit -qm base", "echo notes > README.md",
                "\(git) add README.md", "\(git) commit -qm notes",
            ].joined(separator: " && "), in: directory)
        try #require(setUp.code == 0, Comment(rawValue: setUp.err))
        let out = modellint(
            ["check", "--baseline", "b.json", "--against", "HEAD~1", "--only-new", "--no-color"], in: directory)
        #expect(out.exitCode == 0, Comment(rawValue: out.standardError))
        #expect(out.standardError == "", Comment(rawValue: out.standardError))
    }

    @Test func testTheFirstFiveEntriesThatMatchNothingAreNamedInFileOrder() throws {
        let directory = try temporary.make()
        try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        let entries = (0..<8).map { i in
            "{\"ruleId\": \"missing-inverse\", \"file\": \"Gone/Near.xcdatamodeld/Near 1.xcdatamodel/contents\", \"version\": \"Near 1\", \"entity\": \"E\(i)\", \"property\": \"p\", \"message\": \"m\", \"key\": \"missing-inverse\\u001fGone/Near.xcdatamodeld\\u001fE\(i)/p\"}"
        }
        try Data("{\"format\": 3, \"findings\": [\(entries.joined(separator: ",\n"))]}\n".utf8).write(
            to: directory.appendingPathComponent("b.json"))
        let out = modellint(["check", "--baseline", "b.json", "--no-color"], in: directory)
        #expect(out.exitCode == 0, Comment(rawValue: out.standardError))
        #expect(
            out.standardError
                == ("modellint: note: 8 of 8 entries in b.json matched no finding (fixed since, or recorded for other files): "
                    + (0..<5).map { "missing-inverse Gone/Near.xcdatamodeld/Near 1.xcdatamodel/contents E\($0).p" }
                    .joined(separator: "; ") + "; …\n"))
    }
}

/// The small defects, each as users met it.
@Suite struct SmallDefectsTests {
    let temporary = TemporaryDirectories()

    let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    @Test func testDashHIsHelpForEveryCommand() {
        for command in ["check", "diff", "init", "lock", "new-version", "rules", "explain", "hashes", "verify-build"] {
            let out = modellint([command, "-h"], in: fixtures)
            #expect(out.exitCode == 0, "\(command) -h: \(out.standardError)")
            #expect(out.standardOutput.hasPrefix("USAGE: modellint \(command)"), "\(command): \(out.standardOutput)")
        }
    }

    @Test func testColourFollowsTheConventions() throws {
        func colored(_ arguments: [String], _ variables: [String: String], terminal: Bool = true) throws -> Bool {
            try CheckCommand.Options(parsing: arguments).report.colorWanted(
                environment: CommandEnvironment(workingDirectory: "/", variables: variables, outputIsTerminal: terminal)
            )
        }
        try #expect(colored([], [:]))
        try #expect(colored([], ["NO_COLOR": ""]), "an empty NO_COLOR means nothing (no-color.org)")
        try #expect(!colored([], ["NO_COLOR": "1"]))
        try #expect(!colored([], ["TERM": "dumb"]))
        try #expect(!colored(["--no-color"], [:]))
        try #expect(!colored(["--output", "r.txt"], [:]))
        try #expect(
            colored(["--color"], ["TERM": "dumb"], terminal: false), "--color forces it on where the output is a CI log"
        )
        // The documented form takes a value; alone it is `always`, and a path after it stays a path.
        try #expect(colored(["--color", "always"], [:], terminal: false))
        try #expect(colored(["--color=always"], [:], terminal: false))
        try #expect(!colored(["--color", "never"], [:]))
        try #expect(!colored(["--color", "auto"], [:], terminal: false))
        try #expect(colored(["--color", "auto"], [:]))
        try #expect(!colored(["--color", "always", "--no-color"], [:]), "--no-color wins")
        let options = try CheckCommand.Options(parsing: ["--color", "App.xcdatamodeld"])
        #expect(options.paths == ["App.xcdatamodeld"])
        #expect(options.report.color == .always)
        do {
            _ = try CheckCommand.Options(parsing: ["--color=sometimes"])
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == "--color must be one of auto, always, never, not 'sometimes'")
        }
    }

    @Test func testOneCommandTableDrivesDispatchUsageAndSuggestions() {
        for command in ModelLintApp.commands {
            #expect(
                ModelLintApp.usage.contains("  modellint \(command.name) "), "\(command.name) missing from the usage")
            let out = ModelLintApp.run(
                [command.name, "--help"], environment: CommandEnvironment(workingDirectory: "/"))
            #expect(out.exitCode == 0, Comment(rawValue: command.name))
            #expect(out.standardOutput.hasPrefix("USAGE: modellint \(command.name)"), Comment(rawValue: command.name))
            // A typo of every command (its last letter dropped) suggests it.
            let typo = ModelLintApp.run(
                [String(command.name.dropLast())], environment: CommandEnvironment(workingDirectory: "/"))
            #expect(
                typo.standardError.contains("(did you mean '\(command.name)'?)"),
                "\(command.name): \(typo.standardError)")
        }
        // Derived, not pinned: every command of the table once.
        #expect(Set(ModelLintApp.commandNames).count == ModelLintApp.commands.count)
    }

    @Test func testReportFormatsAreOneList() throws {
        #expect(
            (CheckCommand.options.first { $0.name == "--format" }?.choices) == [
                "text", "json", "sarif", "github", "junit", "checkstyle", "markdown", "gitlab-codequality",
            ])
        try #expect(
            CheckCommand.Options(parsing: ["--report", "sarif=a.sarif"]).extraReports.map(\.format) == [.sarif])
        do {
            _ = try CheckCommand.Options(parsing: ["--report", "yaml=a.yaml"])
            Issue.record("expected an error")
        } catch {
            #expect(
                "\(error)"
                    == "--report takes FORMAT=FILE with FORMAT one of text, json, sarif, github, junit, checkstyle, markdown, gitlab-codequality, not 'yaml=a.yaml'"
            )
        }
    }

    @Test func testAStandaloneVersionNamedExplicitlyIsLintedAsOneVersion() throws {
        let directory = try temporary.make()
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("SingleVersion/Thing.xcdatamodeld/Thing.xcdatamodel"),
            to: directory.appendingPathComponent("Thing.xcdatamodel"))
        let out = modellint(["check", "Thing.xcdatamodel"], in: directory)
        #expect(out.exitCode == 1)
        #expect(
            out.standardOutput.hasSuffix("5 errors, 4 warnings, 0 notes in 1 bundle (1 version)\n"),
            Comment(rawValue: out.standardOutput))
        #expect(out.standardOutput.hasPrefix("Thing.xcdatamodel/contents:"), Comment(rawValue: out.standardOutput))
    }

    @Test func testAReportFileUnderGitHubActionsHoldsOnlyTheChosenFormat() throws {
        let directory = try temporary.make()
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("Changes/ToManyToOne.xcdatamodeld"),
            to: directory.appendingPathComponent("ToManyToOne.xcdatamodeld"))
        let out = modellint(["check", "--output", "report.txt"], in: directory, variables: ["GITHUB_ACTIONS": "true"])
        #expect(out.exitCode == 1)
        let report = try String(contentsOf: directory.appendingPathComponent("report.txt"), encoding: .utf8)
        #expect(!report.contains("::error"), Comment(rawValue: report))
        #expect(report.contains("[to-many-became-to-one]"), Comment(rawValue: report))
    }

    @Test func testQuietStillWritesTheReportFile() throws {
        let directory = try temporary.make()
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("Near.xcdatamodeld"),
            to: directory.appendingPathComponent("Near.xcdatamodeld"))
        try Data("stale report from the last run\n".utf8).write(to: directory.appendingPathComponent("report.json"))
        let out = modellint(["check", "--quiet", "--format", "json", "--output", "report.json"], in: directory)
        #expect(out.exitCode == 0)
        #expect(out.standardOutput == "")
        let report = try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(report.contains("\"diagnostics\": []"), Comment(rawValue: report))
    }

    @Test func testANewlineInADefaultValueStaysOnItsLine() throws {
        let directory = try temporary.make()
        try writeBundle(
            in: directory,
            versions: [
                (
                    "Near 1",
                    "<entity name=\"A\"><attribute name=\"x\" optional=\"YES\" attributeType=\"Integer 64\" defaultValueString=\"1&#10;2\"/></entity>"
                )
            ])
        let out = modellint(["check"], in: directory).standardOutput
        #expect(
            (out.components(separatedBy: "\n").filter { $0.contains("[invalid-default-value]") }) == [
                "Near.xcdatamodeld/Near 1.xcdatamodel/contents:3:18: error: A.x has an invalid default: \"1\\n2\" is not an integer [invalid-default-value]"
            ], Comment(rawValue: out))
    }

    @Test func testASuppressionAddedToALockedVersionIsNotAnEdit() throws {
        let directory = try temporary.make()
        let body =
            "<entity name=\"A\"><relationship name=\"r\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"A\"/></entity>"
        try writeBundle(in: directory, versions: [("Near 1", body)], current: "Near 1")
        #expect(modellint(["lock"], in: directory).exitCode == 0)
        // The team silences the finding in the shipped version: modellint's own userInfo, not the model.
        let silenced = body.replacingOccurrences(
            of: "deletionRule=\"Nullify\" destinationEntity=\"A\"/>",
            with:
                "deletionRule=\"Nullify\" destinationEntity=\"A\"><userInfo><entry key=\"modellint:disable\" value=\"missing-inverse\"/></userInfo></relationship>"
        )
        try writeBundle(in: directory, versions: [("Near 1", silenced)], current: "Near 1")
        let out = modellint(["check", "--format", "json"], in: directory)
        #expect(out.exitCode == 0, Comment(rawValue: out.standardOutput))
        let json = try #require(JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
        #expect(((json["diagnostics"] as? [[String: Any]])?.map { $0["ruleId"] as? String ?? "" }) == [])
    }

    @Test func testFindingsFollowVersionOrderNotPathText() throws {
        let directory = try temporary.make()
        // v1.5 and v1.10 each add a required attribute without a default: one finding in each file. By path text
        // v1.10's file sorts before v1.5's; by version order it comes after.
        let base = "<attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/>"
        let b = "<attribute name=\"b\" attributeType=\"String\"/>"
        let c = "<attribute name=\"c\" attributeType=\"String\"/>"
        try writeBundle(
            in: directory, name: "M",
            versions: [
                ("v1.1", "<entity name=\"A\">\(base)</entity>"), ("v1.5", "<entity name=\"A\">\(base)\(b)</entity>"),
                ("v1.10", "<entity name=\"A\">\(base)\(b)\(c)</entity>"),
            ], current: "v1.10")
        let out = modellint(["check", "--format", "json"], in: directory)
        let json = try #require(JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
        let found = (json["diagnostics"] as? [[String: Any]] ?? []).map {
            "\($0["ruleId"]!) \($0["version"] as? String ?? "-") \($0["property"] as? String ?? "-")"
        }
        #expect(
            found == [
                "required-attribute-without-default v1.5 b",
                "required-attribute-without-default v1.10 c",
            ])
    }
}

/// Configuration names must name something: a typo would silently do nothing.
@Suite struct ConfigurationNamesTests {
    let temporary = TemporaryDirectories()

    private func check(_ configuration: String) throws -> CommandOutput {
        let directory = try temporary.make()
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Near.xcdatamodeld"),
            to: directory.appendingPathComponent("Near.xcdatamodeld"))
        try Data(configuration.utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        return modellint(["check"], in: directory)
    }

    @Test func testNamesThatAreNotInTheBundleAreConfigurationErrors() throws {
        let cases: [(String, String)] = [
            (
                #"{"bundles": {"Near.xcdatamodeld": {"versionOrder": ["Near 18", "Near 99"]}}}"#,
                "bundles.Near.xcdatamodeld.versionOrder[1]: Near 99 is not a version of the bundle (versions: Near 18, Near 19, Near 20)"
            ),
            (
                #"{"bundles": {"Near.xcdatamodeld": {"retired": [{"entity": "Visit", "property": "note", "interimVersion": "Near 99"}]}}}"#,
                "bundles.Near.xcdatamodeld.retired[0].interimVersion: Near 99 is not a version of the bundle (versions: Near 18, Near 19, Near 20)"
            ),
            (
                #"{"bundles": {"Near.xcdatamodeld": {"retired": [{"entity": "Visit", "property": "nothingLikeThis"}]}}}"#,
                "bundles.Near.xcdatamodeld.retired[0].property: no version of the bundle has Visit.nothingLikeThis"
            ),
            (
                #"{"bundles": {"Near.xcdatamodeld": {"retired": [{"entity": "Vist", "property": "note"}]}}}"#,
                "bundles.Near.xcdatamodeld.retired[0].entity: no version of the bundle has an entity named Vist (did you mean Visit?)"
            ),
            // Typos get a suggestion; another number is another version, not a typo.
            (
                #"{"bundles": {"Near.xcdatamodeld": {"versionOrder": ["Near 18", "Near 2O"]}}}"#,
                "bundles.Near.xcdatamodeld.versionOrder[1]: Near 2O is not a version of the bundle (did you mean Near 20? versions: Near 18, Near 19, Near 20)"
            ),
            (
                #"{"bundles": {"Near.xcdatamodeld": {"retired": [{"entity": "Visit", "property": "duraton"}]}}}"#,
                "bundles.Near.xcdatamodeld.retired[0].property: no version of the bundle has Visit.duraton (did you mean duration?)"
            ),
            (
                #"{"rulez": {}}"#,
                "rulez: unknown key (did you mean rules? expected migration, rules, exclude, mappingModels, bundles, baseline, goldenStores, projects, walkBudget, includeUnshipped, allowNestedOverrides)"
            ),
            (
                #"{"rules": {"property-removd": "error"}}"#,
                "rules.property-removd: unknown rule id (did you mean property-removed? modellint rules lists them)"
            ),
            (
                #"{"bundles": {"Near.xcdatamodeld": {"versionOrdr": []}}}"#,
                "bundles.Near.xcdatamodeld.versionOrdr: unknown key (did you mean versionOrder? expected versionOrder, cloudKit, retired, renamed, oldestMigratedVersion, migration)"
            ),
        ]
        for (configuration, message) in cases {
            let out = try check(configuration)
            #expect(out.exitCode == 2, Comment(rawValue: configuration))
            #expect(
                out.standardError.hasPrefix("modellint: configuration error: "), Comment(rawValue: out.standardError))
            #expect(out.standardError.hasSuffix(".modellint.json: \(message)\n"), Comment(rawValue: out.standardError))
        }
        try #expect(
            (check(#"{"bundles": {"Near.xcdatamodeld": {"retired": [{"entity": "Place", "property": "note"}]}}}"#)
                .exitCode) == 1, "a real retirement is accepted (and Place.note, still in Near 20, is reported)")
    }

    @Test func testTheBaselineKeyIsTheBaselineDefault() throws {
        let directory = try temporary.make()
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Changes/ToManyToOne.xcdatamodeld"),
            to: directory.appendingPathComponent("ToManyToOne.xcdatamodeld"))
        #expect(modellint(["check", "--write-baseline", "accepted.json"], in: directory).exitCode == 0)
        #expect(modellint(["check"], in: directory).exitCode == 1)
        try Data(#"{"baseline": "accepted.json"}"#.utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        let out = modellint(["check"], in: directory)
        #expect(out.exitCode == 0, Comment(rawValue: out.standardOutput + out.standardError))
    }
}

/// Rule selection on the command line, statistics, and Markdown for pull requests.
@Suite struct RuleSelectionTests {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    private func rules(_ out: CommandOutput) -> [String] {
        let json = (try? JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8))) as? [String: Any]
        return (json?["diagnostics"] as? [[String: Any]] ?? []).map { "\($0["ruleId"]!)" }
    }

    @Test func testOnlyAndDisableWorkWithoutAConfigurationAndSuggestIds() {
        let all = rules(modellint(["check", "SingleVersion", "--format", "json"], in: fixtures))
        #expect(all.count == 9)
        #expect(
            rules(
                modellint(
                    [
                        "check", "SingleVersion", "--format", "json", "--only", "missing-inverse", "--only",
                        "unknown-attribute-type",
                    ], in: fixtures)) == (all.filter { ["missing-inverse", "unknown-attribute-type"].contains($0) }))
        #expect(
            rules(
                modellint(["check", "SingleVersion", "--format", "json", "--disable", "missing-inverse"], in: fixtures))
                == (all.filter { $0 != "missing-inverse" }))
        let typo = modellint(["check", "SingleVersion", "--disable", "mising-inverse"], in: fixtures)
        #expect(typo.exitCode == 2)
        #expect(
            typo.standardError
                == "modellint: unknown rule id 'mising-inverse' (did you mean 'missing-inverse'?); modellint rules lists them\n"
        )
        // A skip-version finding about an --only rule is that rule's.
        #expect(
            rules(
                modellint(
                    [
                        "check", "Changes/TypeReused.xcdatamodeld", "--format", "json", "--only",
                        "attribute-type-incompatible",
                    ], in: fixtures)) == ["skip-version-upgrade"])
    }

    @Test func testStatisticsCountEveryFindingPerRule() {
        let out = modellint(["check", "Changes/TypeReused.xcdatamodeld", "--statistics"], in: fixtures).standardOutput
        let table = out.components(separatedBy: "\n").drop { !$0.hasPrefix("rule ") }.prefix(3)
        #expect(
            Array(table) == [
                "rule                  errors  warnings     notes",
                "property-removed           0         0         1",
                "skip-version-upgrade       1         0         0",
            ], Comment(rawValue: out))
    }

    @Test func testMarkdownListsErrorsAndWarningsAndCountsNotes() {
        let out = modellint(["check", "Changes/TypeReused.xcdatamodeld", "--format", "markdown"], in: fixtures)
            .standardOutput
        let lines = out.components(separatedBy: "\n")
        #expect(
            Array(lines.prefix(5)) == [
                "### modellint", "", "1 error, 0 warnings, 1 note in 1 bundle", "", "| | location | finding | rule |",
            ])
        #expect((lines.filter { $0.hasPrefix("| ❌") }.count) == 1)
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "| ❌ error | `Fixtures/Changes/TypeReused.xcdatamodeld/Near 3.xcdatamodel/contents:5` | Item.price changed type from String to Integer 64 between Near 1 and Near 3"
                ) && $0.hasSuffix("| `skip-version-upgrade` |")
            }, Comment(rawValue: out))
        #expect(MarkdownReporter.cell("a|b *c* [x](y) <img> `z`") == "a\\|b \\*c\\* \\[x\\](y) \\<img> \\`z\\`")
        let diff = modellint(
            ["diff", "Changes/TypeReused.xcdatamodeld", "Near 1", "Near 3", "--format", "markdown"], in: fixtures
        ).standardOutput
        #expect(
            diff
                == "### Near 1 -> Near 3 (`Changes/TypeReused.xcdatamodeld`)\n\n| element | change | Core Data | details |\n|---|---|---|---|\n| Item.price | changed | needs custom migration | type String -> Integer 64 |\n"
        )
    }
}

/// `modellint init` writes a starter configuration from what the bundles show.
@Suite struct InitCommandTests {
    let temporary = TemporaryDirectories()

    @Test func testInitDecidesFromTheBundlesCommentsEachDecisionAndNeverOverwrites() throws {
        let directory = try temporary.make()
        let fixtures = repositoryRoot.appendingPathComponent("Fixtures")
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("Precision/RenamedStems.xcdatamodeld"),
            to: directory.appendingPathComponent("RenamedStems.xcdatamodeld"))
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("Mapped"), to: directory.appendingPathComponent("Mapped"))
        // 21 relationships without an inverse: more findings than a team can fix before adopting.
        let many = (0..<21).map {
            "<relationship name=\"r\($0)\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"A\"/>"
        }.joined()
        // A synced configuration that lists no entity: the flag and the members disagree.
        try writeBundle(
            in: directory, name: "Many",
            versions: [
                (
                    "Many 1",
                    "<entity name=\"A\">\(many)</entity><configuration name=\"Cloud\" usedWithCloudKit=\"YES\"/>"
                )
            ], current: "Many 1")

        let out = modellint(["init"], in: directory)
        #expect(out.exitCode == 0, Comment(rawValue: out.standardError))
        // The baseline the configuration names is written too, so the next check reports only new findings.
        #expect(
            out.standardOutput.contains("\nwrote modellint.baseline.json: today's "),
            Comment(rawValue: out.standardOutput))
        #expect(
            out.standardOutput.hasSuffix(" findings, accepted; check reports only new ones (commit both files)\n"),
            Comment(rawValue: out.standardOutput))
        let checked = modellint(["check"], in: directory)
        #expect(checked.exitCode == 0, Comment(rawValue: checked.standardError))
        #expect(
            checked.standardOutput.hasPrefix("0 errors, 0 warnings, 0 notes in "),
            Comment(rawValue: checked.standardOutput))
        let text = try String(contentsOf: directory.appendingPathComponent(".modellint.json"), encoding: .utf8)
        let configuration = try Configuration.load(
            path: directory.appendingPathComponent(".modellint.json").path, knownRuleIDs: RuleRegistry.ids)
        #expect(configuration.migration == .progressive)
        #expect(configuration.baseline == directory.appendingPathComponent("modellint.baseline.json").path)
        let stems = try #require(
            configuration.settings(
                forBundleAt: PathTools.standardize(directory.appendingPathComponent("RenamedStems.xcdatamodeld").path)))
        #expect(stems.versionOrder == ["oldmodel", "NewModel"])
        let synced = try #require(
            configuration.settings(
                forBundleAt: PathTools.standardize(directory.appendingPathComponent("Many.xcdatamodeld").path)))
        #expect(synced.cloudKit == true)
        // Strict JSON, which any JSON tool reads; each decision's reason is printed beside it.
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, Comment(rawValue: text))
        #expect(!text.contains("//"), Comment(rawValue: text))
        #expect(
            out.standardOutput.contains(
                "\n  Many.xcdatamodeld: \"cloudKit\": true — configuration Cloud is marked usedWithCloudKit but lists no entities; the CloudKit rules stay on. If the store does not sync, set false\n"
            ), Comment(rawValue: out.standardOutput))
        #expect(
            out.standardOutput.contains(
                "\n  \"migration\": \"progressive\" — mapping models cover most steps and nothing in the code says how the app migrates"
            ), Comment(rawValue: out.standardOutput))
        #expect(
            configuration.settings(
                forBundleAt: PathTools.standardize(directory.appendingPathComponent("Mapped/Store.xcdatamodeld").path))
                == nil, "nothing doubtful there")

        let again = modellint(["init"], in: directory)
        #expect(again.exitCode == 2)
        #expect(
            again.standardError
                == "modellint: .modellint.json already exists here; init never overwrites it (edit it, or remove it first)\n"
        )
        try #expect(String(contentsOf: directory.appendingPathComponent(".modellint.json"), encoding: .utf8) == text)
    }
}

/// Configuration and lock are found from each bundle's folder upward, stopping at its repository's top, as git and
/// SwiftLint search from the file; `--config` still wins.
@Suite struct ConfigurationFromTheBundleTests {
    let temporary = TemporaryDirectories()

    /// A bundle with a relationship without an inverse (a `missing-inverse` warning), in an app folder of a repository.
    private func app(_ root: URL, _ name: String, configuration: String?) throws -> URL {
        let folder = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try writeBundle(
            in: folder, name: "Model",
            versions: [
                (
                    "Model 1",
                    "<entity name=\"Owner\"><relationship name=\"things\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"Owner\"/></entity>"
                )
            ], current: "Model 1")
        if let configuration {
            try Data(configuration.utf8).write(to: folder.appendingPathComponent(".modellint.json"))
        }
        return folder
    }

    private func rules(_ out: CommandOutput) -> [String] {
        jsonDiagnostics(out).map { "\($0["ruleId"]!) \($0["bundle"]!)" }
    }

    @Test func testEachBundleAnswersToTheConfigurationAndLockNearestToIt() throws {
        let root = try temporary.make()
        let quiet = #"{ "rules": { "missing-inverse": "off" } }"#
        let first = try app(root.appendingPathComponent("first"), "App", configuration: quiet)
        try git(["init", "-q", "-b", "main"], in: root.appendingPathComponent("first"))
        // The app's configuration applies from anywhere: from /, the bundle's own folder is searched, not /.
        let bundle = first.appendingPathComponent("Model.xcdatamodeld").path
        #expect(rules(modellint(["check", bundle, "--format", "json"], in: URL(fileURLWithPath: "/"))) == [])
        // The lock beside it too: locked, then edited in place, the shipped version's edit is seen from /.
        #expect(modellint(["lock"], in: first).exitCode == 0)
        let contents = first.appendingPathComponent("Model.xcdatamodeld/Model 1.xcdatamodel/contents")
        let text = try String(contentsOf: contents, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "name=\"things\"", with: "name=\"items\"").utf8).write(to: contents)
        let edited = modellint(["check", bundle, "--format", "json"], in: URL(fileURLWithPath: "/"))
        #expect(edited.exitCode == 1, Comment(rawValue: edited.standardError))
        // Shown relative to the working directory, /.
        #expect(rules(edited) == ["shipped-version-edited \(bundle.dropFirst())"])

        // Another repository's bundle never gets this one's rules: checked together, each answers to its own.
        let other = try app(root.appendingPathComponent("second"), "Other", configuration: nil)
        try git(["init", "-q", "-b", "main"], in: root.appendingPathComponent("second"))
        let otherBundle = other.appendingPathComponent("Model.xcdatamodeld").path
        let both = modellint(["check", ".", otherBundle, "--format", "json", "--no-lock"], in: first)
        #expect(rules(both) == ["missing-inverse \(otherBundle)"], Comment(rawValue: both.standardError))
        // --config still wins, for every bundle.
        let forced = modellint(
            ["check", ".", otherBundle, "--format", "json", "--no-lock", "--config", ".modellint.json"], in: first)
        #expect(rules(forced) == [])
    }

    /// Two apps of one repository, each with its configuration, checked from the top in one run: one report.
    @Test func testOneRunSplitsByConfigurationAndReportsOnce() throws {
        let root = try temporary.make()
        try git(["init", "-q", "-b", "main"], in: root)
        _ = try app(root, "Quiet", configuration: #"{ "rules": { "missing-inverse": "off" } }"#)
        _ = try app(root, "Strict", configuration: #"{ "rules": { "missing-inverse": "error" } }"#)
        let out = modellint(["check", "--no-color"], in: root)
        #expect(out.exitCode == 1, Comment(rawValue: out.standardError))
        let lines = out.standardOutput.components(separatedBy: "\n").filter { !$0.isEmpty }
        #expect(lines.count == 3, Comment(rawValue: out.standardOutput))
        #expect(
            lines[0].hasPrefix("Strict/Model.xcdatamodeld/Model 1.xcdatamodel/contents:"), Comment(rawValue: lines[0]))
        #expect(lines[0].hasSuffix(" [missing-inverse]"), Comment(rawValue: lines[0]))
        #expect(lines[0].contains(": error: "), Comment(rawValue: lines[0]))
        #expect(lines[2] == "1 error, 0 warnings, 0 notes in 2 bundles (2 versions)")
        // One baseline for the whole run.
        let written = modellint(["check", "--write-baseline", "b.json"], in: root)
        #expect(written.standardOutput == "b.json: recorded 1 finding\n")
    }
}
