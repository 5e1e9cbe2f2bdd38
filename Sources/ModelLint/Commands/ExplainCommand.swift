import ModelLintSupport
import ModelLintModel
import ModelLintRules
import ModelLintReporting
import ModelLintRepair
import ModelLintGather

package enum ExplainCommand {
    package static func run(_ arguments: [String]) -> CommandOutput {
        if arguments.contains("--help") || arguments.contains("-h") {
            return CommandOutput(
                exitCode: 0,
                standardOutput:
                    "USAGE: modellint explain RULE-ID\n\nA rule's rationale, the safe alternative, and a before/after example.\n"
            )
        }
        guard arguments.count == 1, let id = arguments.first else {
            return .usageError("explain takes one rule id (modellint rules lists them)")
        }
        guard let rule = RuleRegistry.description(for: id) else {
            var message = "modellint: unknown rule id '\(id)'"
            if let suggestion = Spelling.closest(to: id, in: RuleRegistry.descriptions.map(\.id)) {
                message += " (did you mean '\(suggestion)'?)"
            }
            return CommandOutput(
                exitCode: CommandOutput.usage, standardError: message + "; modellint rules lists them\n")
        }
        return CommandOutput(exitCode: 0, standardOutput: render(rule))
    }

    package static func render(_ rule: RuleDescription) -> String {
        var out = "\(rule.id) (\(rule.severity.rawValue), \(rule.category.rawValue))\n\n\(rule.summary)\n\n"
        out += "Why:\n\(indent(rule.rationale))\n\nFix:\n\(indent(rule.fix))\n"
        if let swiftDataFix = rule.swiftDataFix { out += "\nFix in a SwiftData schema:\n\(indent(swiftDataFix))\n" }
        out += "\n\(indent(Repairs.explanation(for: rule.id)))\n"
        func show(_ example: RuleExample, _ title: String) {
            out += "\n\(title):\n"
            for (name, contents) in example.shipped {
                if case .model(let body) = contents {
                    out += "  \(name), as shipped (\(example.shippedSource.label)):\n" + indent(body, by: 4) + "\n"
                }
            }
            for (name, text) in example.shippedSwiftFiles {
                out += "  \(name), as shipped (\(example.shippedSource.label)):\n" + indent(text, by: 4) + "\n"
            }
            for (name, text) in example.swiftFiles {
                out += "  \(name):\n" + indent(text, by: 4) + "\n"
            }
            for (name, contents) in example.versions {
                guard let text = RuleExample.markedText(of: contents) else { continue }
                let body: String
                if case .model(let inner) = contents { body = inner } else { body = text }
                out += "  \(name):\n" + indent(body, by: 4) + "\n"
            }
        }
        if let bad = rule.examples.first(where: { $0.triggers }) { show(bad, "Triggers (↓ marks where)") }
        if let good = rule.examples.first(where: { !$0.triggers }) { show(good, "Does not trigger") }
        return out
    }

    package static func indent(_ text: String, by n: Int = 2) -> String {
        let pad = String(repeating: " ", count: n)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : pad + $0 }.joined(
            separator: "\n")
    }
}
