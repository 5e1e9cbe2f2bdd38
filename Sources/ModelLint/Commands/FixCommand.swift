import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintHistory
import ModelLintRules
import ModelLintEngine
import ModelLintRepair

/// `modellint fix [PATH…]`: applies the mechanical repairs of what `check` with the same paths and options reports,
/// says what needs a person, and exits as `check` would on the repaired tree.
public enum FixCommand {
    static let dryRun = Flag("--dry-run", help: "print the repairs as a unified diff and write nothing")
    static let only = ValueOption<String>(
        "--only", value: "RULE", help: "repair only this rule's findings (repeatable)")

    public static let options: [OptionSpec] = [
        dryRun.spec, only.spec, CheckCommand.config.spec, CheckCommand.lock.spec, CheckCommand.noLock.spec,
        CheckCommand.released.spec, CheckCommand.against.spec, CheckCommand.migration.spec,
        ReportOptions.strict.spec, helpFlag.spec,
    ]

    public static let help = ArgumentParser.helpText(
        usage: "modellint fix [PATH ...] [--dry-run] [--only RULE] [options]",
        summary: """
            Repair what check reports where the repair is mechanical (modellint explain RULE says which rules have \
            one), and say what needs a person. Writes each file atomically, inside the repository, never through a \
            symbolic link, never to a shipped version. Exits as check would on the repaired tree: 0 when no error is \
            left (and no warning under --strict), 1 otherwise.
            """,
        options: options)

    public static func run(_ arguments: [String], environment: CommandEnvironment) -> CommandOutput {
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, options: options, command: "fix")
        } catch {
            return .usageError("\(error)")
        }
        if parsed[helpFlag] { return CommandOutput(exitCode: 0, standardOutput: help) }
        let onlyRules = parsed.all(only)
        for id in onlyRules where Repairs.repair(for: id) == nil {
            guard RuleRegistry.ids.contains(id) else {
                var message = "unknown rule id '\(ReportText.escaped(id))'"
                if let suggestion = Spelling.closest(to: id, in: RuleRegistry.descriptions.map(\.id)) {
                    message += " (did you mean '\(suggestion)'?)"
                }
                return .usageError(message + "; modellint rules lists them")
            }
            return .usageError("fix has no repair for '\(id)'; \(Repairs.all.count) rules have one: \(repairable)")
        }
        // The same run `check` makes with these paths and options.
        var checkArguments = parsed.positionals
        if let value = parsed[CheckCommand.config] { checkArguments += ["--config", value] }
        if let value = parsed[CheckCommand.lock] { checkArguments += ["--lock", value] }
        if parsed[CheckCommand.noLock] { checkArguments.append("--no-lock") }
        if let value = parsed[CheckCommand.released] { checkArguments += ["--released", value] }
        if let value = parsed[CheckCommand.against] { checkArguments += ["--against", value] }
        if let value = parsed[CheckCommand.migration] { checkArguments += ["--migration", value.rawValue] }
        if parsed[ReportOptions.strict] { checkArguments.append("--strict") }
        let checkOptions: CheckCommand.Options
        do {
            checkOptions = try CheckCommand.Options(parsing: checkArguments)
        } catch {
            return .usageError("\(error)")
        }
        let judged: CheckCommand.Judged
        do {
            judged = try CheckCommand.judge(checkOptions, environment: environment)
        } catch let error as UsageError {
            return .usageError(error.message)
        } catch {
            return .usageError("\(error)")
        }
        let subjects = judged.input.bundles.map { item in
            RepairSubject(bundle: item.bundle, shipped: CheckCommand.shippedVersions(of: item))
        }
        let workingDirectory = environment.workingDirectory
        let plan = RepairPlanner.plan(
            judged.report.diagnostics, subjects: subjects, only: Set(onlyRules),
            read: { display in
                let path = PathTools.absolute(display, relativeTo: workingDirectory)
                return try? FileReader.readBytes(path, limit: FileReader.Limit.contents)
            })
        var output = ""
        var errors = ""
        if parsed[dryRun] {
            for file in plan.changedFiles {
                output += UnifiedDiff.diff(
                    old: file.original, new: file.result, path: repositoryPath(of: file.path, environment))
            }
        } else {
            for file in plan.changedFiles {
                if let failure = write(file, environment: environment) {
                    errors += "modellint: \(failure)\n"
                    return CommandOutput(exitCode: CommandOutput.usage, standardOutput: output, standardError: errors)
                }
            }
        }
        // The repaired tree as check judges it: the changed versions read from their new bytes.
        var input = judged.input
        for file in plan.changedFiles {
            for b in input.bundles.indices {
                for v in input.bundles[b].bundle.versions.indices
                where input.bundles[b].bundle.versions[v].contentsPath == file.path {
                    input.bundles[b].bundle.versions[v].content = ContentsParser.parse(
                        bytes: file.result, path: file.path, cache: nil)
                }
            }
        }
        let after = plan.changedFiles.isEmpty ? judged.report : judged.linter.lint(input)
        output += summary(plan, before: judged.report, after: after, dryRun: parsed[dryRun])
        return CommandOutput(
            exitCode: checkOptions.report.exitCode(for: after), standardOutput: output, standardError: errors)
    }

    static var repairable: String { Repairs.all.map { type(of: $0).ruleID }.joined(separator: ", ") }

    /// What was repaired, what needs a person (with the finding), and the findings left.
    static func summary(_ plan: RepairPlan, before: LintReport, after: LintReport, dryRun: Bool) -> String {
        var text = ""
        for outcome in plan.outcomes {
            let d = outcome.diagnostic
            let place = "\(d.file)" + (d.line.map { ":\($0)" } ?? "")
            let verb = outcome.repaired ? (dryRun ? "would repair" : "repaired") : "needs a person"
            text += ReportText.escaped("\(verb): \(place): \(d.ruleId): \(outcome.text)") + "\n"
            if !outcome.repaired { text += ReportText.escaped("  finding: \(d.message)") + "\n" }
        }
        let repaired = plan.outcomes.filter(\.repaired).count
        let left = plan.outcomes.count - repaired
        let files = plan.changedFiles.count
        // A repair must not make a problem: an error or warning the run did not have before is said.
        let known = Set(before.diagnostics.map { $0.stableKey(bundle: $0.bundle) })
        let new = after.diagnostics.filter { $0.severity != .note && !known.contains($0.stableKey(bundle: $0.bundle)) }
            .count
        text +=
            "\(dryRun ? "would repair" : "repaired") \(repaired) finding\(repaired == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s"); \(left) need\(left == 1 ? "s" : "") a person"
        text +=
            "; after: \(after.errorCount) error\(after.errorCount == 1 ? "" : "s"), \(after.warningCount) warning\(after.warningCount == 1 ? "" : "s")"
        if new > 0 { text += ", \(new) new finding\(new == 1 ? "" : "s") (run check)" }
        return text + "\n"
    }

    /// A path as a diff header names it: relative to the repository's top when in one, else to the working folder.
    static func repositoryPath(of display: String, _ environment: CommandEnvironment) -> String {
        let absolute = PathTools.standardize(PathTools.absolute(display, relativeTo: environment.workingDirectory))
        if let top = try? GitRepository(containing: (absolute as NSString).deletingLastPathComponent).toplevel,
            let relative = PathTools.relative(absolute, to: top)
        {
            return relative
        }
        return PathTools.relative(absolute, to: PathTools.standardize(environment.workingDirectory)) ?? display
    }

    /// Writes one repaired file atomically; refuses a file that is, or sits in a version folder or bundle that is,
    /// a symbolic link, and one that changed since it was read. The reason when it did not write.
    static func write(_ file: FileEdits, environment: CommandEnvironment) -> String? {
        let path = PathTools.absolute(file.path, relativeTo: environment.workingDirectory)
        let version = (path as NSString).deletingLastPathComponent
        let bundle = (version as NSString).deletingLastPathComponent
        for link in [path, version, bundle] where FileReader.isSymbolicLink(link) {
            return "\(ReportText.escaped(file.path)): not written: \(ReportText.escaped(link)) is a symbolic link"
        }
        do {
            try FileWriter.withLock(on: path) {
                let now = try FileReader.readBytes(path, limit: FileReader.Limit.contents)
                guard now == file.original else {
                    throw FileWriter.WriteError(path: file.path, reason: "it changed while fix ran; nothing written")
                }
                try FileWriter.write(
                    Data(file.result), to: path,
                    confinedTo: .named(path, workingDirectory: environment.workingDirectory, followsLinks: false))
            }
            return nil
        } catch {
            return "\(error)"
        }
    }
}
