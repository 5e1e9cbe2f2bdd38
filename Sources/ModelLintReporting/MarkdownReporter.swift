import ModelLintSupport
import ModelLintModel
import ModelLintRules
import ModelLintEngine

/// A Markdown table for a pull-request comment or `$GITHUB_STEP_SUMMARY`: errors and warnings listed, notes
/// counted. Cell text is escaped: a name from a model file cannot close the table, start a heading or a link.
public struct MarkdownReporter: Reporter {
    public var paths: PathRelativizer

    public init(paths: PathRelativizer) { self.paths = paths }

    public func write(_ report: LintReport, to sink: OutputSink) {
        let shown = report.diagnostics.filter { $0.severity != .note }
        sink.write("### modellint\n\n")
        sink.write("\(report.errorCount) error\(report.errorCount == 1 ? "" : "s"), \(report.warningCount) warning\(report.warningCount == 1 ? "" : "s"), \(report.noteCount) note\(report.noteCount == 1 ? "" : "s") in \(report.bundles.count) bundle\(report.bundles.count == 1 ? "" : "s")\n")
        guard !shown.isEmpty else { return }
        sink.write("\n| | location | finding | rule |\n|---|---|---|---|\n")
        for d in shown {
            let icon = d.severity == .error ? "❌" : "⚠️"
            let position = paths.path(d.file) + (d.line.map { ":\($0)" } ?? "")
            sink.write("| \(icon) \(d.severity.rawValue) | `\(Self.code(position))` | \(Self.cell(d.message))<br>fix: \(Self.cell(d.fix)) | `\(d.ruleId)` |\n")
        }
    }

    /// Text for a table cell: controls replaced, and every character Markdown gives meaning escaped.
    package static func cell(_ text: String) -> String {
        var out = ""
        for ch in ReportText.escaped(text) {
            switch ch {
            case "|", "\\", "`", "*", "_", "[", "]", "<", "#", "!", "~", "&": out += "\\" + String(ch)
            default: out.append(ch)
            }
        }
        return out
    }

    /// Text inside a code span: a backtick would end it, a pipe the cell.
    package static func code(_ text: String) -> String {
        ReportText.escaped(text).replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "|", with: "\\|")
    }
}
