import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintRules
import ModelLintEngine

/// Renders `modellint diff`: grouped by entity, readable in a terminal; or JSON for tools.
public enum DiffReporter {
    public static func text(_ entries: [ChangeEntry], bundle: String, from: String, to: String) -> String {
        // Names come from the model files: every line is made log-safe (ReportText.logLine).
        var lines = ["\(from) -> \(to) (\(bundle))"]
        if entries.isEmpty { return render(lines + ["", "no changes"]) }
        var currentEntity: String?
        for entry in entries {
            if entry.property == nil {
                lines += [
                    "",
                    "\(entry.entity)\(entry.kind == .changed ? "" : " (\(entry.kind.rawValue))")  [\(entry.impact.label)]  \(entry.details.joined(separator: "; "))",
                ]
                currentEntity = entry.entity
                continue
            }
            if currentEntity != entry.entity {
                lines += ["", entry.entity]
                currentEntity = entry.entity
            }
            let sign = entry.kind == .added ? "+" : entry.kind == .removed ? "-" : "~"
            lines.append(
                "  \(sign) \(entry.property!)  [\(entry.impact.label)]  \(entry.details.joined(separator: "; "))")
        }
        let counts = ChangeImpact.allCases.reversed().compactMap { impact -> String? in
            let n = entries.filter { $0.impact == impact }.count
            return n == 0 ? nil : "\(n) \(impact.label)"
        }
        lines += ["", "\(entries.count) change\(entries.count == 1 ? "" : "s"): \(counts.joined(separator: ", "))"]
        return render(lines)
    }

    /// For a pull-request comment: one table row per change, the worst first; cells escaped as in `check`'s.
    public static func markdown(_ entries: [ChangeEntry], bundle: String, from: String, to: String) -> String {
        var out =
            "### \(MarkdownReporter.cell(from)) -> \(MarkdownReporter.cell(to)) (`\(MarkdownReporter.code(bundle))`)\n\n"
        guard !entries.isEmpty else { return out + "no changes\n" }
        out += "| element | change | Core Data | details |\n|---|---|---|---|\n"
        for entry in entries.enumerated().sorted(by: { ($0.element.impact, $1.offset) > ($1.element.impact, $0.offset) }
        ).map(\.element) {
            let element = entry.entity + (entry.property.map { "." + $0 } ?? "")
            out +=
                "| \(MarkdownReporter.cell(element)) | \(entry.kind.rawValue) | \(entry.impact.label) | \(MarkdownReporter.cell(entry.details.joined(separator: "; "))) |\n"
        }
        return out
    }

    private static func render(_ lines: [String]) -> String {
        lines.map { ReportText.logLine(ReportText.boundedMessage($0)) + "\n" }.joined()
    }

    public static func json(_ entries: [ChangeEntry], bundle: String, from: String, to: String) -> String {
        let changes: [JSONValue] = entries.map { entry in
            var pairs: [(String, JSONValue)] = [("entity", .string(ReportText.shortenedName(entry.entity)))]
            if let property = entry.property { pairs.append(("property", .string(ReportText.shortenedName(property)))) }
            pairs += [
                ("change", .string(entry.kind.rawValue)), ("impact", .string(entry.impact.key)),
                ("details", .array(entry.details.map { .string(ReportText.boundedMessage($0)) })),
                ("file", .string(entry.location.file)),
            ]
            if let line = entry.location.line { pairs.append(("line", .number(Double(line)))) }
            if let column = entry.location.column { pairs.append(("column", .number(Double(column)))) }
            return .object(pairs)
        }
        let summary: [(String, JSONValue)] = ChangeImpact.allCases.map { impact in
            (impact.key, .number(Double(entries.filter { $0.impact == impact }.count)))
        }
        return JSONValue.object([
            ("bundle", .string(bundle)), ("from", .string(from)), ("to", .string(to)),
            ("changes", .array(changes)), ("summary", .object(summary)),
        ]).serialized() + "\n"
    }
}
