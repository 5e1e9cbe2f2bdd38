import ModelLintModel

/// Reported by the linter from the suppression entries it reads; described here like every rule.
public struct SuppressionUnknownRuleRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        id: "suppression-unknown-rule", category: .singleVersion, severity: .warning,
        summary: "a `modellint:disable` User Info entry names a rule id that does not exist",
        rationale: """
            A suppression that names no rule (a typo, or a rule that was renamed) silences nothing, so the finding it \
            was meant to silence keeps coming back, or worse, a later real problem is assumed to be covered.
            """,
        fix: "correct the rule id (modellint rules lists them), or use `all`",
        examples: [
            .triggering("↓<entity name=\"Thing\"><userInfo><entry key=\"modellint:disable\" value=\"missing-invers\"/></userInfo></entity>"),
            .passing("<entity name=\"Thing\"><userInfo><entry key=\"modellint:disable\" value=\"missing-inverse, placeholder-entity\"/></userInfo></entity>"),
        ])
}
