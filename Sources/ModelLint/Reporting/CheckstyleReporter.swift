import ModelLintSupport
import ModelLintRules
import ModelLintEngine
import ModelLintGather

/// The checkstyle XML most CI dashboards read: findings grouped by file.
package struct CheckstyleReporter: Reporter {
    package var paths: PathRelativizer

    package init(paths: PathRelativizer) { self.paths = paths }

    package func write(_ report: LintReport, to sink: OutputSink) {
        sink.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n")
        var files: [String] = []
        var byFile: [String: [Diagnostic]] = [:]
        for d in report.diagnostics {
            let file = paths.path(d.file)
            if byFile[file] == nil { files.append(file) }
            byFile[file, default: []].append(d)
        }
        for file in files {
            sink.write("  <file name=\"\(XMLEscape.escape(file))\">\n")
            for d in byFile[file]! {
                let severity = d.severity == .note ? "info" : d.severity.rawValue
                sink.write(
                    "    <error line=\"\(d.line ?? 1)\"\(d.column.map { " column=\"\($0)\"" } ?? "") severity=\"\(severity)\" message=\"\(XMLEscape.escape(d.message))\" source=\"modellint.\(d.ruleId)\"/>\n"
                )
            }
            sink.write("  </file>\n")
        }
        sink.write("</checkstyle>\n")
    }
}
