/// Xcode-style lines (`path:line:col: severity: message [rule-id]`) that editors make clickable.
public struct TextReporter: Reporter {
    public var useColor: Bool
    /// Notes are listed too (`--notes`); otherwise they are counted in the summary line.
    public var listNotes: Bool

    public init(useColor: Bool, listNotes: Bool = true) {
        self.useColor = useColor
        self.listNotes = listNotes
    }

    public func write(_ report: LintReport, to sink: OutputSink) {
        for d in report.diagnostics where listNotes || d.severity != .note {
            var position = d.file
            if let line = d.line {
                position += ":\(line)"
                if let column = d.column { position += ":\(column)" }
            }
            // Every piece that came from a file is made log-safe before the colour codes go around the severity.
            sink.write(ReportText.logLine(position) + ": " + paint(d.severity.rawValue, d.severity) + ": "
                       + ReportText.logLine(d.message) + " [\(d.ruleId)]\n")
            sink.write("    fix: " + ReportText.logLine(d.fix) + " (modellint explain \(d.ruleId))\n")
        }
        sink.write(summary(report) + "\n")
    }

    public func summary(_ report: LintReport) -> String {
        let counts = [
            plural(report.errorCount, "error"), plural(report.warningCount, "warning"), plural(report.noteCount, "note"),
        ].joined(separator: ", ")
        let hidden = listNotes || report.noteCount == 0 ? "" : " (--notes to list them)"
        return "\(counts)\(hidden) in \(plural(report.bundles.count, "bundle")) (\(plural(report.versionCount, "version")))"
    }

    private func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

    private func paint(_ text: String, _ severity: Severity) -> String {
        guard useColor else { return text }
        let code: String
        switch severity {
        case .error: code = "1;31"
        case .warning: code = "1;33"
        case .note: code = "1;36"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
