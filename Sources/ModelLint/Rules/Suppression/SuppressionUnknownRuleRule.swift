import ModelLintSupport
import ModelLintModel

package struct SuppressionUnknownRuleRule: SuppressionRule {
    package init() {}

    package static let description = RuleDescription(
        id: "suppression-unknown-rule", category: .singleVersion, severity: .warning,
        summary: "a `modellint:disable` User Info entry names a rule id that does not exist",
        rationale: """
            A suppression that names no rule (a typo, or a rule that was renamed) silences nothing, so the finding it \
            was meant to silence keeps coming back, or worse, a later real problem is assumed to be covered.
            """,
        fix: "correct the rule id (modellint rules lists them), or use `all`",
        examples: [
            .triggering(
                "↓<entity name=\"Thing\"><userInfo><entry key=\"modellint:disable\" value=\"missing-invers\"/></userInfo></entity>"
            ),
            .passing(
                "<entity name=\"Thing\"><userInfo><entry key=\"modellint:disable\" value=\"missing-inverse, placeholder-entity\"/></userInfo></entity>"
            ),
        ])

    package func check(_ names: [SuppressionName], knownRuleIDs: Set<String>) -> [Finding] {
        names.filter { !knownRuleIDs.contains($0.id) }.map { name in
            Finding(
                "the modellint:disable entry on \(name.entity)\(name.property.map { ".\($0)" } ?? "") names \"\(name.id)\", which is not a rule id\(Spelling.closest(to: name.id, in: knownRuleIDs.sorted()).map { " (did you mean \($0)?)" } ?? ""); it silences nothing",
                at: name.location, entity: name.entity, property: name.property, version: name.version)
        }
    }
}
