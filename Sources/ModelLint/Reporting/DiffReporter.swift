/// Renders `modellint diff`: grouped by entity, readable in a terminal; or JSON for tools.
public enum DiffReporter {
    public static func text(_ entries: [ChangeEntry], bundle: String, from: String, to: String) -> String {
        var out = "\(from) -> \(to) (\(bundle))\n"
        if entries.isEmpty { return out + "\nno changes\n" }
        var currentEntity: String?
        for entry in entries {
            if entry.property == nil {
                out += "\n\(entry.entity)\(entry.kind == .changed ? "" : " (\(entry.kind.rawValue))")  [\(entry.impact.label)]  \(entry.details.joined(separator: "; "))\n"
                currentEntity = entry.entity
                continue
            }
            if currentEntity != entry.entity {
                out += "\n\(entry.entity)\n"
                currentEntity = entry.entity
            }
            let sign = entry.kind == .added ? "+" : entry.kind == .removed ? "-" : "~"
            out += "  \(sign) \(entry.property!)  [\(entry.impact.label)]  \(entry.details.joined(separator: "; "))\n"
        }
        let counts = ChangeImpact.allCases.reversed().compactMap { impact -> String? in
            let n = entries.filter { $0.impact == impact }.count
            return n == 0 ? nil : "\(n) \(impact.label)"
        }
        out += "\n\(entries.count) change\(entries.count == 1 ? "" : "s"): \(counts.joined(separator: ", "))\n"
        return out
    }

    public static func json(_ entries: [ChangeEntry], bundle: String, from: String, to: String) -> String {
        let changes: [JSONValue] = entries.map { entry in
            var pairs: [(String, JSONValue)] = [("entity", .string(entry.entity))]
            if let property = entry.property { pairs.append(("property", .string(property))) }
            pairs += [("change", .string(entry.kind.rawValue)), ("impact", .string(entry.impact.key)),
                      ("details", .array(entry.details.map(JSONValue.string))), ("file", .string(entry.location.file))]
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
