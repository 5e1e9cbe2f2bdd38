import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintRules
import ModelLintEngine
import ModelLintGather

/// Renders `modellint diff`: grouped by entity, readable in a terminal; or JSON for tools.
package enum DiffReporter {
    /// `useColor`: each classification in the colour of its risk (data loss red, custom migration and data-dependent
    /// yellow, lightweight green, no migration dim).
    package static func text(_ entries: [ChangeEntry], bundle: String, from: String, to: String, useColor: Bool = false)
        -> String
    {
        func label(_ impact: ChangeImpact) -> String {
            let text = "[\(impact.label)]"
            guard useColor else { return text }
            let code: String
            switch impact {
            case .dataLoss: code = "1;31"
            case .customMigration, .dataDependent: code = "33"
            case .lightweight: code = "32"
            case .noMigration: code = "2"
            }
            return ANSI.paint(text, code)
        }
        // Names come from the model files: every piece is made log-safe (ReportText.logLine) before a colour code
        // goes beside it.
        func safe(_ text: String) -> String { ReportText.logLine(ReportText.boundedMessage(text)) }
        var lines = [safe("\(from) -> \(to) (\(bundle))")]
        if entries.isEmpty { return render(lines + ["", "no changes"]) }
        var currentEntity: String?
        for entry in entries {
            let details = safe(entry.details.joined(separator: "; "))
            if entry.property == nil {
                lines += [
                    "",
                    safe("\(entry.entity)\(entry.kind == .changed ? "" : " (\(entry.kind.rawValue))")") + "  "
                        + label(entry.impact) + "  " + details,
                ]
                currentEntity = entry.entity
                continue
            }
            if currentEntity != entry.entity {
                lines += ["", safe(entry.entity)]
                currentEntity = entry.entity
            }
            let sign = entry.kind == .added ? "+" : entry.kind == .removed ? "-" : "~"
            lines.append("  \(sign) " + safe(entry.property!) + "  " + label(entry.impact) + "  " + details)
        }
        let counts = ChangeImpact.allCases.reversed().compactMap { impact -> String? in
            let n = entries.filter { $0.impact == impact }.count
            return n == 0 ? nil : "\(n) \(impact.label)"
        }
        lines += ["", "\(entries.count) change\(entries.count == 1 ? "" : "s"): \(counts.joined(separator: ", "))"]
        return render(lines)
    }

    /// For a pull-request comment: one table row per change, the worst first; cells escaped as in `check`'s.
    package static func markdown(_ entries: [ChangeEntry], bundle: String, from: String, to: String) -> String {
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

    /// Lines already made log-safe, piece by piece.
    private static func render(_ lines: [String]) -> String {
        lines.map { $0 + "\n" }.joined()
    }

    package static func json(_ entries: [ChangeEntry], bundle: String, from: String, to: String) -> String {
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
