import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintRules
import ModelLintHistory
import ModelLintEngine
import ModelLintGather

/// `modellint init [PATH ...]`: a starter `.modellint.json` from what the bundles show, one comment per
/// decision, never overwriting one that exists.
package enum InitCommand {
    package static let options = [helpFlag.spec]

    package static let help = ArgumentParser.helpText(
        usage: "modellint init [PATH ...]",
        summary: """
            Inspect the bundles and write a starter .modellint.json here: versionOrder where the version order is \
            doubtful, cloudKit where the CloudKit flag and the configurations disagree, migration: progressive \
            where mapping models cover most steps, and a baseline when the current findings are many. Each \
            decision has a comment saying why. An existing .modellint.json is never overwritten.
            """,
        options: options)

    /// Findings (errors and warnings) above which adopting without a baseline would bury the new ones.
    package static let baselineThreshold = 20
    package static let baselineFile = "modellint.baseline.json"

    package static func run(_ arguments: [String], environment: CommandEnvironment) -> CommandOutput {
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, options: options, command: "init")
        } catch {
            return .usageError("\(error)")
        }
        if parsed[helpFlag] { return CommandOutput(exitCode: 0, standardOutput: help) }
        let target = PathTools.absolute(Configuration.fileName, relativeTo: environment.workingDirectory)
        if FileReader.entryExists(at: target) {
            return .usageError(
                "\(Configuration.fileName) already exists here; init never overwrites it (edit it, or remove it first)")
        }
        let configuration = Configuration(baseDirectory: PathTools.standardize(environment.workingDirectory))
        let report: LintReport
        do {
            report = Engine(configuration: configuration).run(
                .app(
                    try Workspace(configuration: configuration, workingDirectory: environment.workingDirectory).read(
                        paths: parsed.positionals)))
        } catch {
            return .usageError("\(error)")
        }
        guard !report.bundles.isEmpty else {
            return .usageError("no .xcdatamodeld bundles found; nothing to configure")
        }
        let (text, reasons) = starter(report, workingDirectory: environment.workingDirectory)
        do {
            try FileWriter.withLock(on: target) {
                try FileWriter.write(
                    Data(text.utf8), to: target,
                    confinedTo: .named(target, workingDirectory: environment.workingDirectory, followsLinks: false))
            }
        } catch {
            return .usageError("\(error)")
        }
        let failing = report.errorCount + report.warningCount
        var next =
            "wrote \(Configuration.fileName) for \(report.bundles.count) bundle\(report.bundles.count == 1 ? "" : "s"); review each decision:\n"
            + reasons.map { "  " + $0 }.joined(separator: "\n")
            + "\nevery key is described in modellint's docs/cli.md (Configuration)"
        if failing > baselineThreshold {
            next += writeBaseline(configurationAt: target, paths: parsed.positionals, environment: environment)
        }
        return CommandOutput(exitCode: 0, standardOutput: next + "\n")
    }

    /// The baseline the configuration names, recorded as `check` with that configuration finds today; what was done.
    static func writeBaseline(configurationAt target: String, paths: [String], environment: CommandEnvironment)
        -> String
    {
        let file = PathTools.absolute(baselineFile, relativeTo: environment.workingDirectory)
        do {
            guard !FileReader.entryExists(at: file) else {
                throw UsageError("\(baselineFile) already exists; init never overwrites it")
            }
            let written = try Configuration.load(path: target, knownRuleIDs: RuleRegistry.ids)
            let findings = Engine(configuration: written).run(
                .app(
                    try Workspace(configuration: written, workingDirectory: environment.workingDirectory).read(
                        paths: paths)))
            let repositories = RepositoryCache()
            let baseline = Baseline(
                report: findings,
                paths: Baseline.Paths(
                    baselineFile: file,
                    repositoryRoot: try? repositories.repository(containing: environment.workingDirectory).toplevel,
                    workingDirectory: environment.workingDirectory))
            try FileWriter.withLock(on: file) {
                try FileWriter.write(
                    Data(baseline.serialized().utf8), to: file,
                    confinedTo: .named(file, workingDirectory: environment.workingDirectory, followsLinks: false))
            }
            return
                "\nwrote \(baselineFile): today's \(baseline.count) findings, accepted; check reports only new ones (commit both files)"
        } catch {
            return
                "\n\(baselineFile) not written (\(error)): record it with modellint check --write-baseline \(baselineFile)"
        }
    }

    /// The file's text, strict JSON (any JSON tool reads it; the configuration reader also takes JSON5), and the
    /// reason for each decision it holds, printed beside it since the file carries no comments.
    package static func starter(_ report: LintReport, workingDirectory: String) -> (text: String, reasons: [String]) {
        func findings(_ rule: String, _ bundle: String) -> [Diagnostic] {
            report.diagnostics.filter { $0.ruleId == rule && $0.bundle == bundle }
        }
        var fields: [(String, JSONValue)] = [("rules", .object([]))]
        var reasons = ["\"rules\": {} — rule id -> off | note | warning | error, for rules to change"]
        // Only when nothing in the app's code decides how it migrates: a written value would outrank the code and
        // freeze today's evidence.
        if report.diagnostics.contains(where: {
            $0.ruleId == ProgressiveMigrationLikelyRule.description.id && $0.severity == .warning
        }) {
            fields.append(("migration", .string("progressive")))
            reasons.append(
                "\"migration\": \"progressive\" — mapping models cover most steps and nothing in the code says how the app migrates; apps that ship them usually migrate step by step. If yours opens the store with inferred migration straight to the current version, set \"direct\""
            )
        }
        let failing = report.errorCount + report.warningCount
        if failing > baselineThreshold {
            fields.append(("baseline", .string(baselineFile)))
            reasons.append(
                "\"baseline\" — \(failing) errors and warnings today, accepted in the baseline (init writes it) so CI fails only on new ones; rewrite it with check --write-baseline, or gate pull requests with --against origin/main --only-new"
            )
        }
        var bundles: [(String, JSONValue)] = []
        for bundle in report.bundles {
            var settings: [(String, JSONValue)] = []
            let absolute = PathTools.absolute(bundle.path, relativeTo: workingDirectory)
            let key = PathTools.relative(absolute, to: PathTools.standardize(workingDirectory)) ?? absolute
            if let inferred =
                (findings(VersionOrderInferredRule.description.id, bundle.path)
                + findings(VersionOrderAmbiguousRule.description.id, bundle.path)).first
            {
                settings.append(("versionOrder", .array(bundle.versions.map(JSONValue.string))))
                reasons.append(
                    "\(ReportText.escaped(key)): \"versionOrder\" — \(ReportText.escaped(inferred.message)); confirm the order (oldest first) or correct it: it decides every comparison"
                )
            }
            let current = BundleLoader.load(bundleURL: URL(fileURLWithPath: absolute), displayPath: bundle.path)
                .currentVersion?.model
            if let reason = current.flatMap(cloudKitDisagreement) {
                settings.append(("cloudKit", .bool(true)))
                reasons.append(
                    "\(ReportText.escaped(key)): \"cloudKit\": true — \(reason); the CloudKit rules stay on. If the store does not sync, set false"
                )
            }
            guard !settings.isEmpty else { continue }
            bundles.append((key, .object(settings)))
        }
        if !bundles.isEmpty { fields.append(("bundles", .object(bundles))) }
        return (JSONValue.object(fields).serialized(indent: 2) + "\n", reasons)
    }

    /// The CloudKit flag and the configurations say different things in the current version: a synced
    /// configuration with no entities, or the model's flag with no synced configuration among several.
    package static func cloudKitDisagreement(_ model: Model) -> String? {
        let synced = model.configurations.filter(\.usedWithCloudKit)
        if let empty = synced.first(where: { $0.members.isEmpty }) {
            return "configuration \(ReportText.escaped(empty.name)) is marked usedWithCloudKit but lists no entities"
        }
        if model.usedWithCloudKit && !model.configurations.isEmpty && synced.isEmpty {
            return
                "the model is marked usedWithCloudKit but none of its configurations (\(model.configurations.map { ReportText.escaped($0.name) }.joined(separator: ", "))) is"
        }
        return nil
    }
}
