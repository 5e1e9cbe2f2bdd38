public enum RulesCommand {
    public static func run(_ arguments: [String]) -> CommandOutput {
        if arguments.contains("--help") {
            return CommandOutput(exitCode: 0, standardOutput: "USAGE: modellint rules\n\nList every rule: id, default severity, one-line summary, by catalog section.\n")
        }
        if let extra = arguments.first {
            return CommandOutput(exitCode: CommandOutput.usage, standardError: "modellint: rules takes no arguments (got '\(extra)')\n")
        }
        return CommandOutput(exitCode: 0, standardOutput: render(RuleRegistry.descriptions))
    }

    static func render(_ descriptions: [RuleDescription]) -> String {
        let width = (descriptions.map(\.id.count).max() ?? 0) + 2
        var out = ""
        for category in RuleCategory.allCases {
            let rules = descriptions.filter { $0.category == category }
            guard !rules.isEmpty else { continue }
            if !out.isEmpty { out += "\n" }
            out += category.rawValue + "\n"
            for rule in rules {
                out += "  " + rule.id.padding(toLength: width, withPad: " ", startingAt: 0)
                    + rule.severity.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0) + rule.summary + "\n"
            }
        }
        return out
    }
}
