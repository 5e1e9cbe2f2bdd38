import ModelLintSupport
import ModelLintRules
import ModelLintEngine
import ModelLintGather

/// GitLab's Code Quality report (`artifacts: reports: codequality:`): a JSON array of issues, each with the fields
/// GitLab documents as required (`description`, `check_name`, `fingerprint`, `severity`, `location.path`,
/// `location.lines.begin`), paths relative to the repository (with `..` for a bundle outside it, which GitLab
/// lists without a link). GitLab shows the issues in the merge request's widget and diff.
package struct GitLabCodeQualityReporter: Reporter {
    package var paths: PathRelativizer

    package init(paths: PathRelativizer) { self.paths = paths }

    package func write(_ report: LintReport, to sink: OutputSink) {
        let writer = JSONStreamWriter(sink: sink)
        writer.beginArray()
        // GitLab keys an issue by its fingerprint, and two issues with one fingerprint show as one: the second
        // finding with the same stable key (the same rule on the same element) is told apart by its occurrence.
        var seen: [String: Int] = [:]
        for d in report.diagnostics {
            let key = d.stableKey(bundle: paths.path(d.bundle))
            let occurrence = seen[key, default: 0]
            seen[key] = occurrence + 1
            let fingerprint = SHA256.hex(occurrence == 0 ? key : "\(key)\u{1F}\(occurrence)")
            writer.element(
                .object([
                    ("type", .string("issue")),
                    ("check_name", .string(d.ruleId)),
                    ("description", .string(d.message)),
                    ("content", .object([("body", .string("Fix: \(d.fix)"))])),
                    ("categories", .array([.string("Bug Risk")])),
                    ("severity", .string(Self.severity(d.severity))),
                    ("fingerprint", .string(String(fingerprint.prefix(32)))),
                    (
                        "location",
                        .object([
                            ("path", .string(paths.relativePath(d.file))),
                            ("lines", .object([("begin", .number(Double(d.line ?? 1)))])),
                        ])
                    ),
                ]))
        }
        writer.end()
    }

    /// GitLab's five levels: an error loses or locks away user data, so it is `critical`; a warning is `major`
    /// (it fails the run under `--strict`); a note is `info`.
    package static func severity(_ severity: Severity) -> String {
        switch severity {
        case .error: return "critical"
        case .warning: return "major"
        case .note: return "info"
        }
    }
}
