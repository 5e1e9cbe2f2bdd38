/// JUnit XML: one test suite per bundle, one failing test case per finding (a passing one for a clean bundle).
public struct JUnitReporter: Reporter {
    public var paths: PathRelativizer

    public init(paths: PathRelativizer) { self.paths = paths }

    public func write(_ report: LintReport, to sink: OutputSink) {
        sink.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        let total = report.bundles.reduce(0) { sum, bundle in sum + max(report.diagnostics.filter { $0.bundle == bundle.path }.count, 1) }
        sink.write("<testsuites name=\"modellint\" tests=\"\(total)\" failures=\"\(report.diagnostics.count)\" errors=\"0\">\n")
        for bundle in report.bundles {
            let findings = report.diagnostics.filter { $0.bundle == bundle.path }
            let name = XMLEscape.escape(paths.path(bundle.path))
            let tests = max(findings.count, 1)
            sink.write( "  <testsuite name=\"\(name)\" tests=\"\(tests)\" failures=\"\(findings.count)\" errors=\"0\" skipped=\"0\">\n")
            if findings.isEmpty {
                sink.write("    <testcase classname=\"\(name)\" name=\"no findings\"/>\n")
            }
            for d in findings {
                let subject = [d.version, [d.entity, d.property].compactMap { $0 }.joined(separator: ".")].compactMap { $0 }.filter { !$0.isEmpty }
                let caseName = XMLEscape.escape(([d.ruleId] + subject).joined(separator: " "))
                let position = paths.path(d.file) + (d.line.map { ":\($0)" } ?? "") + (d.column.map { ":\($0)" } ?? "")
                sink.write("    <testcase classname=\"\(name)\" name=\"\(caseName)\" file=\"\(XMLEscape.escape(paths.path(d.file)))\"\(d.line.map { " line=\"\($0)\"" } ?? "")>\n")
                sink.write("      <failure type=\"\(d.ruleId)\" message=\"\(XMLEscape.escape(d.severity.rawValue + ": " + d.message))\">")
                sink.write(XMLEscape.escape("\(position): \(d.severity.rawValue): \(d.message)\nfix: \(d.fix)") + "</failure>\n")
                sink.write("    </testcase>\n")
            }
            sink.write("  </testsuite>\n")
        }
        sink.write("</testsuites>\n")
    }
}
