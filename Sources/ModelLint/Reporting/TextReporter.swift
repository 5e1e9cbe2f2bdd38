import ModelLintSupport
import ModelLintModel
import ModelLintRules
import ModelLintEngine
import ModelLintGather

/// Xcode-style lines (`path:line:col: severity: message [rule-id]`) that editors make clickable.
package struct TextReporter: Reporter {
    package var useColor: Bool
    /// Notes are listed too (`--notes`); otherwise they are counted in the summary line.
    package var listNotes: Bool
    /// `--statistics`: a table of findings per rule and severity after the findings.
    package var statistics: Bool

    package init(useColor: Bool, listNotes: Bool = true, statistics: Bool = false) {
        self.useColor = useColor
        self.listNotes = listNotes
        self.statistics = statistics
    }

    package func write(_ report: LintReport, to sink: OutputSink) {
        let shown = report.diagnostics.filter { listNotes || $0.severity != .note }
        // A finding grouped under another of its bundle (`groupedUnder`) is listed, indented, after its heading:
        // the finding of that rule about the same step and element, else one of that rule about the whole bundle.
        func element(_ d: Diagnostic) -> String {
            [d.fromVersion ?? "", d.version ?? "", d.entity ?? "", d.property ?? ""].joined(separator: "\u{1F}")
        }
        var headings: [String: Int] = [:]
        for (i, d) in shown.enumerated() where d.groupedUnder == nil {
            let key = [d.bundle, d.ruleId, d.entity == nil && d.fromVersion == nil ? "" : element(d)]
                .joined(separator: "\u{1F}")
            if headings[key] == nil { headings[key] = i }
        }
        var members: [Int: [Diagnostic]] = [:]
        var listed: [(index: Int, diagnostic: Diagnostic)] = []
        for (i, d) in shown.enumerated() {
            let rule = d.groupedUnder.map { d.bundle + "\u{1F}" + $0 + "\u{1F}" }
            if let rule, let heading = headings[rule + element(d)] ?? headings[rule] {
                members[heading, default: []].append(d)
            } else {
                listed.append((i, d))
            }
        }
        for (i, d) in listed {
            write(d, indent: "", to: sink)
            for member in members[i] ?? [] { write(member, indent: "    ", to: sink) }
        }
        if statistics { sink.write(Self.statisticsTable(report)) }
        sink.write(summary(report) + "\n")
    }

    private func write(_ d: Diagnostic, indent: String, to sink: OutputSink) {
        var position = d.file
        if let line = d.line {
            position += ":\(line)"
            if let column = d.column { position += ":\(column)" }
        }
        // Every piece that came from a file is made log-safe before the colour codes go around it. One rule id a
        // line: a finding made of another rule's (skip-version) is shown by that rule's id, which is what
        // `--disable`, `--only` and `modellint:disable` take to silence it, with "(skip-version)" after it.
        let ids = d.underlyingRuleId.map { "\($0) (skip-version)" } ?? d.ruleId
        sink.write(
            indent + paint(ReportText.logLine(position) + ":", Self.bold) + " "
                + paint(d.severity.rawValue + ":", d.severity)
                + " " + ReportText.logLine(d.message) + " " + paint("[\(ids)]", Self.dim) + "\n")
        sink.write(indent + "    fix: " + ReportText.logLine(d.fix) + "\n")
    }

    /// Per rule, most findings first: errors, warnings and notes (notes counted even when not listed).
    package static func statisticsTable(_ report: LintReport) -> String {
        var counts: [String: [Severity: Int]] = [:]
        for d in report.diagnostics { counts[d.ruleId, default: [:]][d.severity, default: 0] += 1 }
        guard !counts.isEmpty else { return "" }
        struct Row {
            var id: String
            var errors: Int
            var warnings: Int
            var notes: Int
            var total: Int { errors + warnings + notes }
        }
        let rows = counts.map { id, c in
            Row(id: id, errors: c[.error] ?? 0, warnings: c[.warning] ?? 0, notes: c[.note] ?? 0)
        }
        .sorted { $0.total != $1.total ? $0.total > $1.total : $0.id < $1.id }
        let width = max(rows.map(\.id.count).max() ?? 0, "rule".count)
        func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
        func num(_ n: Int) -> String { String(repeating: " ", count: max(0, 8 - String(n).count)) + String(n) }
        var out = "\n" + pad("rule", width) + "  errors  warnings     notes\n"
        for row in rows {
            out += pad(row.id, width) + num(row.errors) + "  " + num(row.warnings) + "  " + num(row.notes) + "\n"
        }
        return out + "\n"
    }

    package func summary(_ report: LintReport) -> String {
        let counts = [
            plural(report.errorCount, "error"), plural(report.warningCount, "warning"),
            plural(report.noteCount, "note"),
        ].joined(separator: ", ")
        let hidden = listNotes || report.noteCount == 0 ? "" : " (--notes to list them)"
        return
            "\(counts)\(hidden) in \(plural(report.bundles.count, "bundle")) (\(plural(report.versionCount, "version")))"
    }

    private func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

    /// As compilers and SwiftLint colour a diagnostic: the location bold, the severity in its colour, the rule dim.
    static let bold = "1"
    static let dim = "2"

    private func paint(_ text: String, _ severity: Severity) -> String {
        switch severity {
        case .error: return paint(text, "1;31")
        case .warning: return paint(text, "1;33")
        case .note: return paint(text, "1;36")
        }
    }

    private func paint(_ text: String, _ code: String) -> String {
        useColor ? ANSI.paint(text, code) : text
    }
}

/// Terminal colour: SGR codes around text that is already log-safe (the only escape a report writes itself).
enum ANSI {
    static func paint(_ text: String, _ code: String) -> String { "\u{1B}[\(code)m\(text)\u{1B}[0m" }
}
