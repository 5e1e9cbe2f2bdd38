import ModelLintModel
import ModelLintDiff

package struct DeleteRuleChangedRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
        id: "delete-rule-changed", category: .changes, severity: .note,
        summary: "the delete rule changed",
        rationale:
            "Delete rules are not part of any hash: no migration runs, and the new rule applies to existing objects at once.",
        fix: "nothing to do if the new behaviour is right for existing data too",
        examples: [
            .triggering(
                before:
                    "<entity name=\"Owner\"><relationship name=\"pets\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"Owner\" inverseName=\"pets\" inverseEntity=\"Owner\"/></entity>",
                after:
                    "<entity name=\"Owner\">↓<relationship name=\"pets\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Cascade\" destinationEntity=\"Owner\" inverseName=\"pets\" inverseEntity=\"Owner\"/></entity>"
            ),
            .passing(
                before:
                    "<entity name=\"Owner\"><relationship name=\"pets\" optional=\"YES\" toMany=\"YES\" destinationEntity=\"Owner\" inverseName=\"pets\" inverseEntity=\"Owner\"/></entity>",
                after:
                    "<entity name=\"Owner\"><relationship name=\"pets\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"Owner\" inverseName=\"pets\" inverseEntity=\"Owner\"/></entity>"
            ),
        ])

    package func check(_ entity: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        entity.changedProperties.compactMap { pair in
            guard let old = pair.oldRelationship, let new = pair.newRelationship, old.deleteRule != new.deleteRule
            else { return nil }
            return .change(
                "\(pair.label) delete rule changed from \(old.deleteRule.xmlValue) to \(new.deleteRule.xmlValue) \(versions.between); it applies to existing objects at once",
                entity: entity.new, property: pair.new)
        }
    }
}
