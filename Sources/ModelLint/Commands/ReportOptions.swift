import Foundation
import ModelLintSupport
import ModelLintHistory
import ModelLintRules
import ModelLintEngine
import ModelLintReporting

/// Every format a command that reports findings writes: `--format`'s choices and `--report FORMAT=FILE`'s.
package enum ReportFormat: String, CaseIterable, Sendable {
    case text, json, sarif, github, junit, checkstyle, markdown
}

/// How the findings of `check`, `store` and `verify-build` are written, parsed from their shared options.
package struct ReportOptions: Sendable {
    package static let format = ValueOption<ReportFormat>(
        "--format", value: "F",
        help: "text (default), " + ReportFormat.allCases.dropFirst().map(\.rawValue).dropLast().joined(separator: ", ")
            + " or " + ReportFormat.allCases.last!.rawValue)
    package static let strict = Flag("--strict", help: "warnings also fail the run")
    static let noColor = Flag("--no-color", help: "plain text even on a terminal")
    static let color = Flag("--color", help: "colour even when the output is not a terminal (CI logs)")
    static let notes = Flag(
        "--notes", help: "text format: list notes too (by default they are counted in the summary line)")
    /// The last options of every reporting command's help, after its own.
    package static let outputFlags = [noColor, color, notes, helpFlag].map(\.spec)
    package static let trailingSpecs = [strict.spec] + outputFlags

    /// nil: text, with GitHub annotations too when run by GitHub Actions.
    package var format: ReportFormat?
    /// `--output FILE` (check only): the report goes there, never coloured.
    package var output: String?
    package var strict: Bool
    package var noColor: Bool
    package var forceColor: Bool
    package var notes: Bool
    /// `--statistics` (check only).
    package var statistics = false

    package init(_ parsed: ParsedArguments) {
        format = parsed[Self.format]
        strict = parsed[Self.strict]
        noColor = parsed[Self.noColor]
        forceColor = parsed[Self.color]
        notes = parsed[Self.notes]
    }

    /// `--color` forces colour (CI logs render it); `--no-color`, a non-empty `NO_COLOR` (no-color.org: an
    /// empty one means nothing), `TERM=dumb`, a report file or output that is not a terminal turn it off.
    package func colorWanted(environment: CommandEnvironment) -> Bool {
        if noColor { return false }
        if forceColor { return output == nil }
        if let noColor = environment.variables["NO_COLOR"], !noColor.isEmpty { return false }
        if environment.variables["TERM"] == "dumb" { return false }
        return environment.outputIsTerminal && output == nil
    }

    /// The run's exit code for a report: errors fail it, and warnings too with `--strict`.
    package func exitCode(for report: LintReport) -> Int32 {
        let failed = report.errorCount > 0 || (strict && report.warningCount > 0)
        return failed ? CommandOutput.findings : CommandOutput.success
    }

    package func write(_ report: LintReport, to sink: OutputSink, environment: CommandEnvironment) {
        let color = colorWanted(environment: environment)
        var paths: PathRelativizer {
            let root =
                (try? GitRepository(containing: environment.workingDirectory))?.toplevel ?? environment.workingDirectory
            return PathRelativizer(root: root, workingDirectory: environment.workingDirectory)
        }
        let text = TextReporter(useColor: color, listNotes: notes, statistics: statistics)
        switch format {
        case .json: JSONReporter().write(report, to: sink)
        case .sarif: SARIFReporter(rules: RuleRegistry.descriptions, paths: paths).write(report, to: sink)
        case .github: GitHubReporter(paths: paths).write(report, to: sink)
        case .junit: JUnitReporter(paths: paths).write(report, to: sink)
        case .checkstyle: CheckstyleReporter(paths: paths).write(report, to: sink)
        case .markdown: MarkdownReporter(paths: paths).write(report, to: sink)
        case .text: text.write(report, to: sink)
        case nil:
            // Zero configuration on GitHub Actions: the readable report and the annotations.
            text.write(report, to: sink)
            // Workflow commands belong in the log; a report file gets the one format asked for.
            if environment.variables["GITHUB_ACTIONS"] == "true" && output == nil {
                GitHubReporter(paths: paths).write(report, to: sink)
            }
        }
        sink.flush()
    }
}

/// `--config FILE`, which every command that reads a configuration accepts (its help says what it reads there).
package func configOption(_ help: String) -> ValueOption<String> {
    ValueOption("--config", value: "FILE", help: help)
}

/// `--migration MODE`.
package func migrationOption(_ help: String) -> ValueOption<MigrationMode> {
    ValueOption("--migration", value: "MODE", help: help)
}
