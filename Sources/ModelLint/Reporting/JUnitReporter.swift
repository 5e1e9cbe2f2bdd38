import ModelLintSupport
import ModelLintModel
import ModelLintRules
import ModelLintEngine
import ModelLintGather

/// JUnit XML, valid against the schema Jenkins' xUnit plugin validates with (junit-10.xsd): one test suite per
/// bundle, one test case per finding. What fails the run fails its case — errors, and warnings under `--strict`;
/// any other finding is a passing case whose text is in `system-out` (an exit-0 run has no failures). The location is in the failure text, since the schema has no
/// file or line attributes on a test case; names are unique within a suite.
package struct JUnitReporter: Reporter {
    package var paths: PathRelativizer
    /// `--strict`: warnings fail the run, so their cases fail too.
    package var strict: Bool

    package init(paths: PathRelativizer, strict: Bool = false) {
        self.paths = paths
        self.strict = strict
    }

    private func fails(_ d: Diagnostic) -> Bool { d.severity == .error || (strict && d.severity == .warning) }

    package func write(_ report: LintReport, to sink: OutputSink) {
        var findingsByBundle: [String: [Diagnostic]] = [:]
        for d in report.diagnostics { findingsByBundle[d.bundle, default: []].append(d) }
        func failing(_ list: [Diagnostic]) -> Int { list.filter(fails).count }
        let total = report.bundles.reduce(0) { $0 + max(findingsByBundle[$1.path]?.count ?? 0, 1) }
        let failures = failing(report.diagnostics)
        sink.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        sink.write("<testsuites name=\"modellint\" tests=\"\(total)\" failures=\"\(failures)\" errors=\"0\">\n")
        for bundle in report.bundles {
            let findings = findingsByBundle[bundle.path] ?? []
            let name = XMLEscape.escape(paths.path(bundle.path))
            sink.write(
                "  <testsuite name=\"\(name)\" tests=\"\(max(findings.count, 1))\" failures=\"\(failing(findings))\" errors=\"0\" skipped=\"0\">\n"
            )
            if findings.isEmpty {
                sink.write("    <testcase classname=\"\(name)\" name=\"no findings\"/>\n")
            }
            var usedNames: [String: Int] = [:]
            for d in findings {
                let subject = [d.version, [d.entity, d.property].compactMap { $0 }.joined(separator: ".")].compactMap {
                    $0
                }.filter { !$0.isEmpty }
                var caseName = ([d.ruleId] + subject).joined(separator: " ")
                let seen = usedNames[caseName, default: 0] + 1
                usedNames[caseName] = seen
                if seen > 1 { caseName += " (\(seen))" }
                let position = paths.path(d.file) + (d.line.map { ":\($0)" } ?? "") + (d.column.map { ":\($0)" } ?? "")
                let text = XMLEscape.escape("\(position): \(d.severity.rawValue): \(d.message)\nfix: \(d.fix)")
                sink.write("    <testcase classname=\"\(name)\" name=\"\(XMLEscape.escape(caseName))\">\n")
                if !fails(d) {
                    sink.write("      <system-out>\(text)</system-out>\n")
                } else {
                    sink.write(
                        "      <failure type=\"\(d.ruleId)\" message=\"\(XMLEscape.escape(d.severity.rawValue + ": " + d.message))\">\(text)</failure>\n"
                    )
                }
                sink.write("    </testcase>\n")
            }
            sink.write("  </testsuite>\n")
        }
        sink.write("</testsuites>\n")
    }
}
