import Foundation
import ModelLintRules
import ModelLintEngine
import ModelLintReporting
import ModelLintGather

package enum RulesCommand {
    enum Format: String, CaseIterable { case text, markdown }
    static let format = ValueOption<Format>(
        "--format", value: "F", help: "text (default) or a markdown table per catalog section")
    static let markdownPages = ValueOption<String>(
        "--markdown", value: "DIR", help: "write docs/rules-style pages, one per rule plus an index, into DIR")

    package static let options = [format.spec, markdownPages.spec, helpFlag.spec]

    package static func run(_ arguments: [String]) -> CommandOutput {
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, options: options, command: "rules")
        } catch {
            return .usageError("\(error)")
        }
        if parsed[helpFlag] {
            return CommandOutput(
                exitCode: 0,
                standardOutput: ArgumentParser.helpText(
                    usage: "modellint rules [--format text|markdown]",
                    summary: "List every rule: id, default severity, one-line summary, by catalog section.",
                    options: options))
        }
        if let extra = parsed.positionals.first {
            return .usageError("rules takes no arguments (got '\(extra)')")
        }
        if let directory = parsed[markdownPages] {
            do {
                try RuleDocumentation.write(to: URL(fileURLWithPath: directory))
            } catch {
                return .usageError("cannot write \(directory): \(error.localizedDescription)")
            }
            return CommandOutput(
                exitCode: 0, standardOutput: "wrote \(RuleRegistry.descriptions.count + 1) files to \(directory)\n")
        }
        let markdown = parsed[format] == .markdown
        return CommandOutput(
            exitCode: 0,
            standardOutput: markdown ? RuleDocumentation.markdownTable() : render(RuleRegistry.descriptions))
    }

    package static func render(_ descriptions: [RuleDescription]) -> String {
        let width = (descriptions.map(\.id.count).max() ?? 0) + 2
        var out = ""
        for category in RuleCategory.allCases {
            let rules = descriptions.filter { $0.category == category }
            guard !rules.isEmpty else { continue }
            if !out.isEmpty { out += "\n" }
            out += category.rawValue + "\n"
            for rule in rules {
                out +=
                    "  " + rule.id.padding(toLength: width, withPad: " ", startingAt: 0)
                    + rule.severity.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0) + rule.summary + "\n"
            }
        }
        return out
    }
}
