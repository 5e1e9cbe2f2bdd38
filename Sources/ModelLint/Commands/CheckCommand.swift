import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintHistory
import ModelLintRules
import ModelLintEngine
import ModelLintReporting

public enum CheckCommand {
    /// The report options every command that reports findings shares (`check`, `verify-build`, `store`).
    package static let formatOption = OptionSpec(
        "--format", value: "F", choices: ["text", "json", "sarif", "github", "junit", "checkstyle", "markdown"],
        help: "text (default), json, sarif, github, junit, checkstyle or markdown")
    package static let reportFlags: [OptionSpec] = [strictFlag] + outputFlags
    static let strictFlag = OptionSpec("--strict", help: "warnings also fail the run")
    /// How the report looks, and help: the last options of every reporting command's help.
    static let outputFlags: [OptionSpec] = [
        OptionSpec("--no-color", help: "plain text even on a terminal"),
        OptionSpec("--color", help: "colour even when the output is not a terminal (CI logs)"),
        OptionSpec("--notes", help: "text format: list notes too (by default they are counted in the summary line)"),
        OptionSpec("--help", help: "show this help"),
    ]

    public static let options: [OptionSpec] =
        [
            formatOption,
            OptionSpec("--only", value: "RULE", help: "report only this rule (repeatable)"),
            OptionSpec("--disable", value: "RULE", help: "do not run this rule (repeatable)"),
            OptionSpec("--statistics", help: "text format: end with a table of findings per rule and severity"),
            OptionSpec("--output", value: "FILE", help: "write the report to FILE instead of standard output"),
            OptionSpec(
                "--stamp", value: "FILE", help: "build systems: write FILE when the run passes, remove it when it fails"
            ),
            OptionSpec(
                "--report", value: "FORMAT=FILE",
                help: "also write the same findings as FORMAT to FILE (repeatable; one run, several reports)"),
            OptionSpec(
                "--config", value: "FILE", help: "configuration file (default: nearest .modellint.json walking up)"),
            strictFlag,
            OptionSpec(
                "--migration", value: "MODE", choices: ["direct", "progressive"],
                help: "how the app migrates: direct (default: older stores migrate in one hop) or progressive"),
            OptionSpec(
                "--lock", value: "FILE",
                help: "lock file to verify (default: modellint.lock next to the configuration, or here)"),
            OptionSpec(
                "--against", value: "REF",
                help: "also compare with the bundles at git revision REF (pull requests: origin/main)"),
            OptionSpec(
                "--only-new",
                help: "with --against REF: report only findings REF does not already have (matched by stable identity)"),
            OptionSpec(
                "--released", value: "REF",
                help: "every version present at git revision REF counts as shipped (a release tag)"),
            OptionSpec("--baseline", value: "FILE", help: "do not report findings recorded in FILE"),
            OptionSpec("--write-baseline", value: "FILE", help: "record all current findings in FILE and exit 0"),
            OptionSpec("--quiet", help: "print nothing when there are no findings"),
            OptionSpec(
                "--pre-commit",
                help:
                    "as a pre-commit hook: the files given plus staged deletions and configuration or lock changes; nothing else to lint is success"
            ),
        ] + outputFlags

    public static let help = ArgumentParser.helpText(
        usage: "modellint check [PATH ...] [options]",
        summary: """
            Lint .xcdatamodeld bundles. PATH is a bundle, a directory (searched recursively, skipping .build,
            DerivedData, Pods, Carthage and .git), or any file inside a bundle. With no PATH, the current directory.
            """,
        options: options)

    public static func run(_ arguments: [String], environment: CommandEnvironment) -> CommandOutput {
        ModelLintApp.run(["check"] + arguments, environment: environment)
    }

    /// Lints and writes the report, as it is produced, to standard output or `--output`.
    public static func run(_ arguments: [String], environment: CommandEnvironment, streams: CommandStreams) -> Int32 {
        let prepared: (report: LintReport, parsed: ParsedArguments, exitCode: Int32)
        switch prepare(arguments, environment: environment) {
        case .failure(let output):
            streams.standardOutput.write(output.standardOutput)
            streams.standardError.write(output.standardError)
            return output.exitCode
        case .success(let value):
            prepared = value
        }
        let (report, parsed, exitCode) = prepared
        // --quiet silences the terminal, never a report file: a stale --output must not survive a clean run.
        let quiet = parsed.flags.contains("--quiet") && report.diagnostics.isEmpty
        for name in report.unreadablePaths where name.contains(".xcdatamodel") && !quiet {
            streams.standardError.write("modellint: skipped \(ReportText.escaped(name)): its name is not valid UTF-8\n")
        }
        if !report.outsidePaths.isEmpty && !quiet {
            let count = report.outsidePaths.count
            streams.standardError.write(
                "modellint: not read: \(count) file\(count == 1 ? "" : "s") that resolve\(count == 1 ? "s" : "") outside the repository through a symbolic link (\(ReportText.list(report.outsidePaths.prefix(5).map(ReportText.escaped)))\(count > 5 ? " and \(count - 5) more" : ""))\n"
            )
        }
        if report.bundles.isEmpty && !quiet {
            streams.standardError.write(
                "modellint: no .xcdatamodeld bundles found in \(parsed.positionals.isEmpty ? "the current directory" : parsed.positionals.joined(separator: ", "))\n"
            )
        }
        // A build system reruns a command whose output is missing: the stamp exists only after a passing run.
        if let stamp = parsed.values["--stamp"] {
            let path = PathTools.absolute(stamp, relativeTo: environment.workingDirectory)
            do {
                // Never followed into or deleted through a symlink: the stamp is ours, not a path into the repository.
                let confinement = FileWriter.Confinement.named(
                    path, workingDirectory: environment.workingDirectory, followsLinks: false)
                if exitCode == CommandOutput.success {
                    try FileWriter.write(
                        Data(
                            "modellint: \(report.bundles.count) bundles, \(report.errorCount) errors, \(report.warningCount) warnings\n"
                                .utf8),
                        to: path, confinedTo: confinement)
                } else {
                    try FileWriter.remove(path, confinedTo: confinement)
                }
            } catch {
                streams.standardError.write("modellint: --stamp \(stamp): \(error)\n")
                return CommandOutput.usage
            }
        }
        // Extra reports of the same findings (`--report sarif=out.sarif`): one lint, every format CI wants.
        for request in parsed.repeated["--report"] ?? [] {
            let (format, file) = request.split(separator: "=", maxSplits: 1).map(String.init).splitPair
            let formats = options.first { $0.name == "--format" }?.choices ?? []
            guard formats.contains(format), !file.isEmpty else {
                streams.standardError.write(
                    "modellint: --report takes FORMAT=FILE with FORMAT one of \(formats.joined(separator: ", ")), not '\(ReportText.escaped(request))'\n"
                )
                return CommandOutput.usage
            }
            var asked = parsed
            asked.values["--format"] = format
            asked.values["--output"] = file
            if let failed = writeReportFile(report, to: file, parsed: asked, environment: environment, streams: streams)
            {
                return failed
            }
        }
        if quiet && parsed.values["--output"] == nil { return exitCode }
        if let output = parsed.values["--output"] {
            return writeReportFile(report, to: output, parsed: parsed, environment: environment, streams: streams)
                ?? exitCode
        }
        writeReport(report, to: streams.standardOutput, parsed: parsed, environment: environment)
        return exitCode
    }

    /// Writes a report file atomically under its lock; the exit code of the failure when it cannot.
    private static func writeReportFile(
        _ report: LintReport, to file: String, parsed: ParsedArguments, environment: CommandEnvironment,
        streams: CommandStreams
    ) -> Int32? {
        let path = PathTools.absolute(file, relativeTo: environment.workingDirectory)
        do {
            try FileWriter.withLock(on: path) {
                try FileWriter.write(to: path, confinedTo: .named(path, workingDirectory: environment.workingDirectory))
                {
                    writeReport(report, to: $0, parsed: parsed, environment: environment)
                }
            }
            return nil
        } catch {
            streams.standardError.write("modellint: \(error)\n")
            return CommandOutput.usage
        }
    }

    /// A failed command's output, or the report and what the run's exit code is.
    private enum Prepared {
        case failure(CommandOutput)
        case success((report: LintReport, parsed: ParsedArguments, exitCode: Int32))
    }

    private static func prepare(_ arguments: [String], environment: CommandEnvironment) -> Prepared {
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, options: options, command: "check")
        } catch {
            return .failure(.usageError("\(error)"))
        }
        if parsed.flags.contains("--help") { return .failure(CommandOutput(exitCode: 0, standardOutput: help)) }

        var configuration: Configuration
        do {
            configuration = try loadConfiguration(parsed.values["--config"], environment: environment)
        } catch {
            return .failure(.usageError("configuration error: \(error)"))
        }
        do {
            try selectRules(parsed, into: &configuration)
        } catch {
            return .failure(.usageError("\(error)"))
        }
        let linter = Linter(
            configuration: configuration, migration: parsed.values["--migration"].flatMap(MigrationMode.init(rawValue:))
        )
        var workspace = Workspace(configuration: configuration, workingDirectory: environment.workingDirectory)
        do {
            workspace.history = try historyOptions(parsed, configuration: configuration, environment: environment)
        } catch {
            return .failure(.usageError("\(error)"))
        }
        var paths = parsed.positionals
        if parsed.flags.contains("--pre-commit") {
            let selection: PreCommitPaths.Selection
            do {
                selection = try PreCommitPaths.select(
                    given: paths, workingDirectory: environment.workingDirectory,
                    repositories: workspace.history.repositories)
            } catch {
                return .failure(.usageError("\(error)"))
            }
            paths = selection.paths
            workspace.stagedIn = selection.repository
            workspace.deletedBundles = selection.deletedBundles
            // A bundle deleted whole leaves nothing to lint but its lock entry: judged from the lock's folder.
            if !selection.deletedBundles.isEmpty, workspace.history.lock != nil {
                paths.append(workspace.history.lockDirectory)
            }
            // A commit that touches no model, configuration or lock file: done, without searching anything.
            if paths.isEmpty { return .failure(CommandOutput(exitCode: CommandOutput.success)) }
        }
        var report: LintReport
        let input: LintInput
        do {
            input = try workspace.read(paths: paths)
            report = linter.lint(input)
        } catch let error as BundleFinder.FinderError {
            return .failure(.usageError("\(error)"))
        } catch let error as GitRepository.GitError {
            return .failure(.usageError("\(error)"))
        } catch let error as ConfigurationError {
            return .failure(.usageError("configuration error: \(error)"))
        } catch let error as Workspace.UnreadableStore {
            return .failure(.usageError("\(error)"))
        } catch let error as DirectoryWalker.Exhausted {
            return .failure(.usageError("\(error)"))
        } catch {
            return .failure(
                CommandOutput(
                    exitCode: CommandOutput.internalError,
                    standardError:
                        "modellint: internal error: \(error)\nThis is a bug in modellint; please file it with the command you ran.\n"
                ))
        }

        report = onlyFilter(report, parsed)
        if parsed.flags.contains("--only-new") {
            guard let ref = parsed.values["--against"] else {
                return .failure(.usageError("--only-new needs --against REF (the revision whose findings are not new)"))
            }
            do {
                report = try workspace.onlyNew(report, input: input, against: ref, linter: linter)
            } catch {
                return .failure(.usageError("\(error)"))
            }
        }
        if let path = parsed.values["--write-baseline"] {
            let absolute = PathTools.absolute(path, relativeTo: environment.workingDirectory)
            let baseline = Baseline(
                report: report, baselinePath: absolute, workingDirectory: environment.workingDirectory)
            do {
                try FileWriter.withLock(on: absolute) {
                    try FileWriter.write(
                        Data(baseline.serialized().utf8), to: absolute,
                        confinedTo: .named(absolute, workingDirectory: environment.workingDirectory))
                }
            } catch {
                return .failure(.usageError("\(error)"))
            }
            return .failure(
                CommandOutput(
                    exitCode: 0,
                    standardOutput:
                        "\(path): recorded \(baseline.entries.count) finding\(baseline.entries.count == 1 ? "" : "s")\n"
                ))
        }
        if let absolute = parsed.values["--baseline"].map({
            PathTools.absolute($0, relativeTo: environment.workingDirectory)
        }) ?? configuration.baseline {
            do {
                report = try baseline(at: absolute).filter(
                    report, baselinePath: absolute, workingDirectory: environment.workingDirectory)
            } catch {
                return .failure(.usageError("\(error)"))
            }
        }

        let strict = parsed.flags.contains("--strict")
        let failed = report.errorCount > 0 || (strict && report.warningCount > 0)
        return .success((report, parsed, failed ? CommandOutput.findings : CommandOutput.success))
    }

    /// `--only` and `--disable`, on top of the configuration: unknown ids are usage errors with a suggestion.
    /// `--only` keeps the rule's configured severity (or its default) and turns every other rule off.
    package static func selectRules(_ parsed: ParsedArguments, into configuration: inout Configuration) throws {
        let only = parsed.repeated["--only"] ?? []
        let disabled = parsed.repeated["--disable"] ?? []
        for id in only + disabled where !RuleRegistry.ids.contains(id) {
            var message = "unknown rule id '\(id)'"
            if let suggestion = Spelling.closest(to: id, in: RuleRegistry.descriptions.map(\.id)) {
                message += " (did you mean '\(suggestion)'?)"
            }
            throw UsageError(message + "; modellint rules lists them")
        }
        if !only.isEmpty {
            // skip-version-upgrade stays on: its findings about an --only rule are that rule's (see `onlyFilter`).
            for id in RuleRegistry.ids where !only.contains(id) && id != SkipVersionUpgradeRule.description.id {
                configuration.rules[id] = .off
            }
        }
        for id in disabled { configuration.rules[id] = .off }
    }

    /// With `--only`: the findings of those rules, and the skip-version findings whose underlying rule is one.
    package static func onlyFilter(_ report: LintReport, _ parsed: ParsedArguments) -> LintReport {
        guard let only = parsed.repeated["--only"], !only.isEmpty else { return report }
        var filtered = report
        filtered.diagnostics = report.diagnostics.filter {
            only.contains($0.ruleId) || $0.underlyingRuleId.map(only.contains) == true
        }
        return filtered
    }

    /// `--color` forces colour (CI logs render it); `--no-color`, a non-empty `NO_COLOR` (no-color.org: an
    /// empty one means nothing), `TERM=dumb`, a report file or output that is not a terminal turn it off.
    package static func colorWanted(_ parsed: ParsedArguments, environment: CommandEnvironment) -> Bool {
        if parsed.flags.contains("--no-color") { return false }
        if parsed.flags.contains("--color") { return parsed.values["--output"] == nil }
        if let noColor = environment.variables["NO_COLOR"], !noColor.isEmpty { return false }
        if environment.variables["TERM"] == "dumb" { return false }
        return environment.outputIsTerminal && parsed.values["--output"] == nil
    }

    package static func writeReport(
        _ report: LintReport, to sink: OutputSink, parsed: ParsedArguments, environment: CommandEnvironment
    ) {
        let color = colorWanted(parsed, environment: environment)
        var paths: PathRelativizer {
            let root =
                (try? GitRepository(containing: environment.workingDirectory))?.toplevel ?? environment.workingDirectory
            return PathRelativizer(root: root, workingDirectory: environment.workingDirectory)
        }
        let notes = parsed.flags.contains("--notes")
        switch parsed.values["--format"] {
        case "json": JSONReporter().write(report, to: sink)
        case "sarif": SARIFReporter(rules: RuleRegistry.descriptions, paths: paths).write(report, to: sink)
        case "github": GitHubReporter(paths: paths).write(report, to: sink)
        case "junit": JUnitReporter(paths: paths).write(report, to: sink)
        case "checkstyle": CheckstyleReporter(paths: paths).write(report, to: sink)
        case "markdown": MarkdownReporter(paths: paths).write(report, to: sink)
        case "text":
            TextReporter(useColor: color, listNotes: notes, statistics: parsed.flags.contains("--statistics")).write(
                report, to: sink)
        default:
            // Zero configuration on GitHub Actions: the readable report and the annotations.
            TextReporter(useColor: color, listNotes: notes, statistics: parsed.flags.contains("--statistics")).write(
                report, to: sink)
            // Workflow commands belong in the log; a report file gets the one format asked for.
            if environment.variables["GITHUB_ACTIONS"] == "true" && parsed.values["--output"] == nil {
                GitHubReporter(paths: paths).write(report, to: sink)
            }
        }
        sink.flush()
    }

    /// The lock file (explicit, or the default one when it exists) and the git revisions to compare with.
    package static func historyOptions(
        _ parsed: ParsedArguments, configuration: Configuration, environment: CommandEnvironment
    ) throws -> HistoryOptions {
        var options = HistoryOptions()
        options.against = parsed.values["--against"]
        options.released = parsed.values["--released"]
        for case let revision? in [options.against, options.released] where revision.hasPrefix("-") {
            throw UsageError("revision '\(revision)' starts with '-': refused (a revision is never an option)")
        }
        let explicit = parsed.values["--lock"]
        let path =
            explicit.map { PathTools.absolute($0, relativeTo: environment.workingDirectory) }
            ?? LockCommand.defaultLockPath(configuration: configuration, environment: environment)
        if FileManager.default.fileExists(atPath: path) {
            options.lock = try LockFile.load(path: path)
            options.lockPath = PathTools.display(path, relativeTo: environment.workingDirectory)
            options.lockDirectory = (path as NSString).deletingLastPathComponent
        } else if let explicit {
            throw UsageError("lock file \(explicit): no such file (create it with modellint lock)")
        }
        return options
    }

    package static func loadConfiguration(_ explicit: String?, environment: CommandEnvironment) throws -> Configuration
    {
        let path: String?
        if let explicit {
            path = PathTools.absolute(explicit, relativeTo: environment.workingDirectory)
            guard FileManager.default.fileExists(atPath: path!) else {
                throw ConfigurationError(file: explicit, keyPath: nil, message: "no such file")
            }
        } else {
            path = Configuration.find(from: environment.workingDirectory)
        }
        guard let path else { return Configuration(baseDirectory: environment.workingDirectory) }
        return try Configuration.load(path: path, knownRuleIDs: RuleRegistry.ids)
    }

    /// A baseline that cannot be used is the user's input in error (exit 2), like a bad option.
    static func baseline(at path: String) throws -> Baseline {
        do { return try Baseline.load(path: path) } catch let error as Baseline.LoadError {
            throw UsageError(error.description)
        }
    }
}

private extension Array where Element == String {
    /// `["a", "b"]` -> ("a", "b"); a missing second part is "".
    var splitPair: (String, String) { (first ?? "", count > 1 ? self[1] : "") }
}
