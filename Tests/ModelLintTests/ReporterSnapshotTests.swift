import Foundation
import XCTest
import ModelLintSupport
import ModelLintModel
import ModelLintRules
import ModelLintReporting

/// Every reporter on one fixed report, built by hand, compared byte for byte with a canned file per format
/// (`Tests/ModelLintTests/Snapshots/report.<format>`), as SwiftLint tests its reporters: the reporters' output
/// changes only when these files do, whatever the rule catalog finds. The report holds each shape a reporter
/// must handle: the three severities, no line, a change between versions, a skip-version finding with its
/// underlying rule and affected versions, a covered step, a finding collapsed over versions, and a hostile name.
/// `MODELLINT_RECORD_SNAPSHOTS=1 swift test --filter ReporterSnapshotTests` rewrites the files (review the diff).
final class ReporterSnapshotTests: XCTestCase {
    static let rules = [
        RuleDescription(
            id: "alpha-rule", category: .singleVersion, severity: .error, summary: "Alpha summary",
            rationale: "Alpha rationale.", fix: "Alpha fix.", examples: []),
        RuleDescription(
            id: "beta-rule", category: .changes, severity: .warning, summary: "Beta summary",
            rationale: "Beta rationale.", fix: "Beta fix.", examples: []),
        RuleDescription(
            id: "gamma-rule", category: .changes, severity: .error, summary: "Gamma summary",
            rationale: "Gamma rationale.", fix: "Gamma fix.", examples: []),
    ]

    static var report: LintReport {
        let bundle = "App/Model.xcdatamodeld"
        var error = Diagnostic(
            ruleId: "alpha-rule", severity: .error, message: "Thing.name is required and has no default",
            fix: "Alpha fix.",
            bundle: bundle, file: bundle + "/Model 2.xcdatamodel/contents", line: 4, column: 9, version: "Model 2",
            entity: "Thing", property: "name")
        error.identity = "Thing|name"
        var change = Diagnostic(
            ruleId: "beta-rule", severity: .warning, message: "Thing.count changed from Integer 16 to String",
            fix: "Beta fix.", bundle: bundle, file: bundle + "/Model 3.xcdatamodel/contents", line: 5, column: 9,
            version: "Model 3", fromVersion: "Model 2", entity: "Thing", property: "count")
        change.identity = "Thing|count"
        var skipped = Diagnostic(
            ruleId: "gamma-rule", severity: .error,
            message: "Devices on Model 1 that update straight to Model 3 lose Thing.note [beta-rule]",
            fix: "Gamma fix.",
            bundle: bundle, file: bundle + "/Model 3.xcdatamodel/contents", line: 6, column: 9, version: "Model 3",
            fromVersion: "Model 1", entity: "Thing", property: "note")
        skipped.underlyingRuleId = "beta-rule"
        skipped.affectedVersions = ["Model 1"]
        var covered = Diagnostic(
            ruleId: "beta-rule", severity: .note,
            message: "Thing.size was removed (covered by the mapping model Model1ToModel2)", fix: "Beta fix.",
            bundle: bundle, file: bundle + "/Model 1.xcdatamodel/contents", line: 7, column: 9, version: "Model 2",
            fromVersion: "Model 1", entity: "Thing", property: "size")
        covered.mappingModel = "Model1ToModel2"
        var collapsed = Diagnostic(
            ruleId: "alpha-rule", severity: .note, message: "Other.flag has no default (in Model 1 and Model 2)",
            fix: "Alpha fix.", bundle: bundle, file: bundle + "/Model 2.xcdatamodel/contents", line: 9, column: 5,
            version: "Model 2", entity: "Other", property: "flag")
        collapsed.versions = ["Model 1", "Model 2"]
        let hostile = Diagnostic(
            ruleId: "alpha-rule", severity: .warning,
            message: "Entity \"<x>&'y'\u{1B}[31m\" has a name with\nlines ::error::forged ##[group]",
            fix: "Alpha fix.", bundle: bundle, file: bundle + "/Model 3.xcdatamodel/contents", line: 12, column: 1,
            version: "Model 3", entity: "<x>&'y'")
        let noLine = Diagnostic(
            ruleId: "gamma-rule", severity: .error, message: ".xccurrentversion names Model 4, which does not exist",
            fix: "Gamma fix.", bundle: bundle, file: bundle + "/.xccurrentversion")
        return LintReport(
            bundles: [
                BundleSummary(path: bundle, currentVersion: "Model 3", versions: ["Model 1", "Model 2", "Model 3"])
            ],
            diagnostics: [noLine, collapsed, covered, error, change, skipped, hostile])
    }

    static let paths = PathRelativizer(root: "/repo", workingDirectory: "/repo")

    static let formats: [(name: String, reporter: any Reporter)] = [
        ("text", TextReporter(useColor: false, listNotes: true)),
        ("text-color", TextReporter(useColor: true, listNotes: true, statistics: true)),
        ("json", JSONReporter()),
        ("sarif", SARIFReporter(rules: rules, paths: paths)),
        ("github", GitHubReporter(paths: paths)),
        ("junit", JUnitReporter(paths: paths)),
        ("junit-strict", JUnitReporter(paths: paths, strict: true)),
        ("checkstyle", CheckstyleReporter(paths: paths)),
        ("markdown", MarkdownReporter(paths: paths)),
        ("gitlab-codequality", GitLabCodeQualityReporter(paths: paths)),
    ]

    func testEveryReporterWritesTheCannedReport() throws {
        let folder = repositoryRoot.appendingPathComponent("Tests/ModelLintTests/Snapshots")
        let record = ProcessInfo.processInfo.environment["MODELLINT_RECORD_SNAPSHOTS"] == "1"
        for (name, reporter) in Self.formats {
            let sink = OutputSink(logSafe: false)
            reporter.write(Self.report, to: sink)
            sink.flush()
            // The tool's version is the one thing that changes from release to release.
            let written = sink.string.replacingOccurrences(of: ModelLintVersion.current, with: "VERSION")
            let file = folder.appendingPathComponent("report.\(name)")
            if record {
                try Data(written.utf8).write(to: file)
                continue
            }
            let canned = try String(contentsOf: file, encoding: .utf8)
            XCTAssertEqual(written, canned, "report.\(name) differs; if the change is intended, record again")
        }
    }
}

/// The text report of real bundles as a user reads it: two lines a finding, recorded from
/// WooCommerce (117 versions) and CoreDataPlus. Skipped without ../shared/corpus.
final class CorpusTextSnapshotTests: XCTestCase {
    func testRealBundlesReadInTwoLinesAFinding() throws {
        let corpus = try requireCorpus()
        let folder = repositoryRoot.appendingPathComponent("Tests/ModelLintTests/Snapshots")
        let record = ProcessInfo.processInfo.environment["MODELLINT_RECORD_SNAPSHOTS"] == "1"
        for (name, repository, bundle) in [
            ("woocommerce", "woocommerce__woocommerce-ios", "Storage/Storage/Model/WooCommerce.xcdatamodeld"),
            ("coredataplus", "alemar11__CoreDataPlus", "Tests/Resources/SampleModel/SampleModel.xcdatamodeld"),
        ] {
            let out = modellint(["check", bundle, "--no-color"], in: corpus.appendingPathComponent(repository))
            let file = folder.appendingPathComponent("corpus-\(name).text")
            if record {
                try Data(out.standardOutput.utf8).write(to: file)
                continue
            }
            XCTAssertEqual(
                out.standardOutput, try String(contentsOf: file, encoding: .utf8),
                "corpus-\(name).text differs; if the change is intended, record again")
            // Every finding is its location line and its fix line, then the summary.
            let lines = out.standardOutput.split(separator: "\n")
            XCTAssertEqual(lines.count % 2, 1, name)
            for (i, line) in lines.dropLast().enumerated() {
                XCTAssertEqual(line.hasPrefix("    fix: "), i % 2 == 1, "\(name): \(line)")
            }
        }
    }
}
