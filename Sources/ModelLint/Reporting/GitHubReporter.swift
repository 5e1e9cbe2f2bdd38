import ModelLintSupport
import ModelLintRules
import ModelLintEngine
import ModelLintGather

/// GitHub Actions workflow commands: each finding becomes an annotation on the pull request's diff.
package struct GitHubReporter: Reporter {
    package var paths: PathRelativizer
    /// Notes as notices too. `--format github` writes every finding; the annotations `check` adds by itself on
    /// GitHub Actions follow the text report beside them, which lists notes only with `--notes`.
    package var includesNotes: Bool

    package init(paths: PathRelativizer, includesNotes: Bool = true) {
        self.paths = paths
        self.includesNotes = includesNotes
    }

    package func write(_ report: LintReport, to sink: OutputSink) {
        // Workflow commands on purpose: every value in them is escaped by `data` and `property`.
        sink.passing {
            for d in report.diagnostics where includesNotes || d.severity != .note { sink.write(line(d)) }
        }
    }

    package func line(_ d: Diagnostic) -> String {
        let command: String
        switch d.severity {
        case .error: command = "error"
        case .warning: command = "warning"
        case .note: command = "notice"
        }
        var properties = ["file=" + Self.property(paths.path(d.file))]
        if let line = d.line { properties.append("line=\(line)") }
        if let column = d.column { properties.append("col=\(column)") }
        properties.append("title=" + Self.property(d.ruleId))
        return "::\(command) \(properties.joined(separator: ","))::\(Self.data(d.message + "\nfix: " + d.fix))\n"
    }

    /// The runner's escaping for a message (`%`, CR, LF), and every other unsafe character (ESC, C1 controls,
    /// bidi overrides) as a visible `\u{…}` escape: the runner passes those through to the log raw.
    package static func data(_ text: String) -> String { escape(text, property: false) }

    /// For a property value also `:` and `,`, which would otherwise end the value.
    package static func property(_ text: String) -> String { escape(text, property: true) }

    private static func escape(_ text: String, property: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            case ":" where property: out += "%3A"
            case "," where property: out += "%2C"
            case _ where ReportText.isUnsafe(scalar.value):
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
