import ModelLintSupport
import ModelLintRules
import ModelLintGather

/// Turns a report into bytes in one format. Reporters know diagnostics and, as data, rule descriptions;
/// never a rule's logic.
package protocol Reporter: Sendable {
    func write(_ report: LintReport, to sink: OutputSink)
}

extension Reporter {
    /// The whole report as one string (tests, and small reports).
    package func render(_ report: LintReport) -> String {
        let sink = OutputSink()
        write(report, to: sink)
        return sink.string
    }
}
