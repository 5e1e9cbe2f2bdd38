/// GitHub Actions workflow commands: each finding becomes an annotation on the pull request's diff.
public struct GitHubReporter: Reporter {
    public var paths: PathRelativizer

    public init(paths: PathRelativizer) { self.paths = paths }

    public func render(_ report: LintReport) -> String {
        report.diagnostics.map(line).joined()
    }

    func line(_ d: Diagnostic) -> String {
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

    /// The runner's escaping for a message: `%`, CR, LF.
    public static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// For a property value also `:` and `,`, which would otherwise end the value.
    public static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
