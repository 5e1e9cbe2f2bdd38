import ModelLintSupport
import ModelLintRules
import ModelLintEngine
import ModelLintGather

/// The JSON shape of cli.md, keys in the documented order.
package struct JSONReporter: Reporter {
    package init() {}

    package func write(_ report: LintReport, to sink: OutputSink) {
        let bundles: [JSONValue] = report.bundles.map { bundle in
            var pairs: [(String, JSONValue)] = [("path", .string(bundle.path))]
            if let kind = bundle.kind { pairs.append(("kind", .string(kind))) }
            if let current = bundle.currentVersion { pairs.append(("currentVersion", .string(current))) }
            pairs.append(("versions", .array(bundle.versions.map(JSONValue.string))))
            return .object(pairs)
        }
        let tool: JSONValue = .object([("name", .string("modellint")), ("version", .string(ModelLintVersion.current))])
        let summary: JSONValue = .object([
            ("errors", .number(Double(report.errorCount))),
            ("warnings", .number(Double(report.warningCount))),
            ("notes", .number(Double(report.noteCount))),
            ("bundles", .number(Double(report.bundles.count))),
            ("versions", .number(Double(report.versionCount))),
        ])
        // The shape `JSONValue.serialized` gives the whole object, written a diagnostic at a time.
        let writer = JSONStreamWriter(sink: sink)
        writer.beginObject()
        writer.member("tool", tool)
        writer.member("bundles", .array(bundles))
        writer.beginArray("diagnostics")
        for d in report.diagnostics { writer.element(Self.json(d)) }
        writer.end()
        writer.member("summary", summary)
        writer.end()
    }

    package static func json(_ d: Diagnostic) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("ruleId", .string(d.ruleId)), ("severity", .string(d.severity.rawValue)),
            ("message", .string(d.message)), ("fix", .string(d.fix)),
            ("bundle", .string(d.bundle)), ("file", .string(d.file)),
        ]
        func add(_ key: String, _ value: String?) { if let value { pairs.append((key, .string(value))) } }
        if let line = d.line { pairs.append(("line", .number(Double(line)))) }
        if let column = d.column { pairs.append(("column", .number(Double(column)))) }
        add("version", d.version)
        add("fromVersion", d.fromVersion)
        add("entity", d.entity)
        add("property", d.property)
        add("mappingModel", d.mappingModel)
        add("underlyingRuleId", d.underlyingRuleId)
        add("groupedUnder", d.groupedUnder)
        if let affected = d.affectedVersions {
            pairs.append(("affectedVersions", .array(affected.map(JSONValue.string))))
        }
        if let versions = d.versions { pairs.append(("versions", .array(versions.map(JSONValue.string)))) }
        return .object(pairs)
    }
}
