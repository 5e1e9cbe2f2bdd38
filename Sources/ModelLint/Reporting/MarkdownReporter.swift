import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintRules
import ModelLintEngine
import ModelLintGather

/// A Markdown table for a pull-request comment or `$GITHUB_STEP_SUMMARY`: errors and warnings listed, notes
/// counted. Cell text is escaped: a name from a model file cannot close the table, start a heading or a link.
package struct MarkdownReporter: Reporter {
    package var paths: PathRelativizer

    package init(paths: PathRelativizer) { self.paths = paths }

    package func write(_ report: LintReport, to sink: OutputSink) {
        let shown = report.diagnostics.filter { $0.severity != .note }
        sink.write("### modellint\n\n")
        sink.write(
            "\(report.errorCount) error\(report.errorCount == 1 ? "" : "s"), \(report.warningCount) warning\(report.warningCount == 1 ? "" : "s"), \(report.noteCount) note\(report.noteCount == 1 ? "" : "s") in \(report.bundles.count) bundle\(report.bundles.count == 1 ? "" : "s")\n"
        )
        guard !shown.isEmpty else { return }
        sink.write("\n| | location | finding | rule |\n|---|---|---|---|\n")
        for d in shown {
            let icon = d.severity == .error ? "❌" : "⚠️"
            let position = paths.path(d.file) + (d.line.map { ":\($0)" } ?? "")
            sink.write(
                "| \(icon) \(d.severity.rawValue) | `\(Self.code(position))` | \(Self.cell(d.message))<br>fix: \(Self.cell(d.fix)) | `\(d.ruleId)` |\n"
            )
        }
    }

    /// Text for a table cell: controls replaced, every character Markdown gives meaning escaped, and what GitHub
    /// turns into a mention or a link after rendering (`@team`, `https://`, `www.`) broken by a zero-width space:
    /// a model's names must not ping a team or link anywhere from a pull-request comment.
    package static func cell(_ text: String) -> String {
        var out = ""
        for ch in ReportText.escaped(text) {
            switch ch {
            case "|", "\\", "`", "*", "_", "[", "]", "<", "#", "!", "~", "&": out += "\\" + String(ch)
            case "@": out += "@\u{200B}"
            default: out.append(ch)
            }
        }
        guard out.contains("://") || out.range(of: "www.", options: .caseInsensitive) != nil else { return out }
        return out.replacingOccurrences(of: "://", with: ":\u{200B}//")
            .replacingOccurrences(of: "www.", with: "w\u{200B}ww.", options: .caseInsensitive)
    }

    /// Text inside a code span: a backtick would end it, a pipe the cell.
    package static func code(_ text: String) -> String {
        ReportText.escaped(text).replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "|", with: "\\|")
    }
}
