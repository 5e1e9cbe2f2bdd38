/// The checkstyle XML most CI dashboards read: findings grouped by file.
public struct CheckstyleReporter: Reporter {
    public var paths: PathRelativizer

    public init(paths: PathRelativizer) { self.paths = paths }

    public func render(_ report: LintReport) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n"
        var files: [String] = []
        var byFile: [String: [Diagnostic]] = [:]
        for d in report.diagnostics {
            let file = paths.path(d.file)
            if byFile[file] == nil { files.append(file) }
            byFile[file, default: []].append(d)
        }
        for file in files {
            out += "  <file name=\"\(XMLEscape.escape(file))\">\n"
            for d in byFile[file]! {
                let severity = d.severity == .note ? "info" : d.severity.rawValue
                out += "    <error line=\"\(d.line ?? 1)\"\(d.column.map { " column=\"\($0)\"" } ?? "") severity=\"\(severity)\" message=\"\(XMLEscape.escape(d.message))\" source=\"modellint.\(d.ruleId)\"/>\n"
            }
            out += "  </file>\n"
        }
        return out + "</checkstyle>\n"
    }
}
