import Foundation
import ModelLintSupport
import ModelLintHistory
import ModelLintRules
import ModelLintEngine
import ModelLintReporting
import ModelLintGather

/// Every format a command that reports findings writes: `--format`'s choices and `--report FORMAT=FILE`'s.
package enum ReportFormat: String, CaseIterable, Sendable {
    case text, json, sarif, github, junit, checkstyle, markdown
    case gitlabCodeQuality = "gitlab-codequality"
}

/// `--color`'s choices.
package enum ColorChoice: String, CaseIterable, Sendable {
    case auto, always, never
}

/// How the findings of `check`, `store` and `verify-build` are written, parsed from their shared options.
package struct ReportOptions: Sendable {
    package static let format = ValueOption<ReportFormat>(
        "--format", value: "F",
        help: "text (default), " + ReportFormat.allCases.dropFirst().map(\.rawValue).dropLast().joined(separator: ", ")
            + " or " + ReportFormat.allCases.last!.rawValue)
    package static let strict = Flag("--strict", help: "warnings also fail the run")
    static let noColor = Flag("--no-color", help: "plain text even on a terminal (= --color never)")
    static let color = ValueOption<ColorChoice>(
        "--color", value: "auto|always|never", implied: .always,
        help: "colour: auto (a terminal, default), always (CI logs that render ANSI; the option alone), never")
    static let notes = Flag(
        "--notes", help: "text format: list notes too (by default they are counted in the summary line)")
    /// The last options of every reporting command's help, after its own.
    package static let outputFlags = [noColor.spec, color.spec, notes.spec, helpFlag.spec]
    package static let colorSpecs = [noColor.spec, color.spec]
    package static let trailingSpecs = [strict.spec] + outputFlags

    /// nil: text, with GitHub annotations too when run by GitHub Actions.
    package var format: ReportFormat?
    /// `--output FILE` (check only): the report goes there, never coloured.
    package var output: String?
    package var strict: Bool
    package var color: ColorChoice
    package var notes: Bool
    /// `--statistics` (check only).
    package var statistics = false

    package init(_ parsed: ParsedArguments) {
        format = parsed[Self.format]
        strict = parsed[Self.strict]
        // `--no-color` wins over any `--color`, as a user adding it to silence a script expects.
        color = Self.color(parsed)
        notes = parsed[Self.notes]
    }

    /// `--color always` forces colour (CI logs render it); `--color never`, `--no-color`, a non-empty `NO_COLOR`
    /// (no-color.org: an empty one means nothing), `TERM=dumb`, a report file or output that is not a terminal
    /// turn it off.
    package func colorWanted(environment: CommandEnvironment) -> Bool {
        output == nil && Self.colorWanted(color, environment: environment)
    }

    /// The choice `--color`/`--no-color` made, for commands that print to standard output only (`diff`).
    package static func color(_ parsed: ParsedArguments) -> ColorChoice {
        parsed[noColor] ? .never : parsed[color] ?? .auto
    }

    /// The colour rules for output to standard output.
    package static func colorWanted(_ choice: ColorChoice, environment: CommandEnvironment) -> Bool {
        switch choice {
        case .never: return false
        case .always: return true
        case .auto: break
        }
        if let noColor = environment.variables["NO_COLOR"], !noColor.isEmpty { return false }
        if environment.variables["TERM"] == "dumb" { return false }
        return environment.outputIsTerminal
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
        case .junit: JUnitReporter(paths: paths, strict: strict).write(report, to: sink)
        case .checkstyle: CheckstyleReporter(paths: paths).write(report, to: sink)
        case .markdown: MarkdownReporter(paths: paths).write(report, to: sink)
        case .gitlabCodeQuality: GitLabCodeQualityReporter(paths: paths).write(report, to: sink)
        case .text: text.write(report, to: sink)
        case nil:
            // Zero configuration on GitHub Actions: the readable report and the annotations.
            text.write(report, to: sink)
            // Workflow commands belong in the log; a report file gets the one format asked for.
            if environment.variables["GITHUB_ACTIONS"] == "true" && output == nil {
                GitHubReporter(paths: paths, includesNotes: notes).write(report, to: sink)
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
