import ModelLintModel
import ModelLintDiff

package struct AttributeMinValueTightenedRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
        id: "attribute-min-value-tightened", category: .changes, severity: .warning,
        summary: "an attribute's minimum (a number's value, a string's length) was raised or newly set",
        rationale: """
            Validation rules are in no version hash: the store opens and nothing is migrated, so existing rows keep \
            values below the new minimum. Core Data validates an object only when it is saved: the first time a user \
            edits anything on such an object, the whole save fails (NSValidationNumberTooSmallError, \
            NSValidationStringTooShortError) and the edit is lost.
            """,
        fix:
            "bring existing values up to the new minimum (a custom migration stage, or a fix-up on first launch) before or together with the stricter rule",
        examples: [
            .triggering(
                before:
                    "<entity name=\"Order\"><attribute name=\"quantity\" attributeType=\"Integer 16\" minValueString=\"0\" defaultValueString=\"1\" usesScalarValueType=\"YES\"/></entity>",
                after:
                    "<entity name=\"Order\">↓<attribute name=\"quantity\" attributeType=\"Integer 16\" minValueString=\"1\" defaultValueString=\"1\" usesScalarValueType=\"YES\"/></entity>"
            )
            .expectingMessage(
                "Order.quantity's minimum rose from 0 to 1 between Near 1 and Near 2: existing objects below it fail validation the next time they are saved"
            ),
            .triggering(
                before: "<entity name=\"User\"><attribute name=\"handle\" attributeType=\"String\"/></entity>",
                after:
                    "<entity name=\"User\">↓<attribute name=\"handle\" attributeType=\"String\" minValueString=\"3\"/></entity>"
            )
            .expectingMessage(
                "User.handle's minimum length rose from none to 3 between Near 1 and Near 2: existing objects below it fail validation the next time they are saved"
            ),
            .passing(
                before:
                    "<entity name=\"Order\"><attribute name=\"quantity\" attributeType=\"Integer 16\" minValueString=\"1\" usesScalarValueType=\"YES\"/></entity>",
                after:
                    "<entity name=\"Order\"><attribute name=\"quantity\" attributeType=\"Integer 16\" minValueString=\"0\" usesScalarValueType=\"YES\"/></entity>"
            ),
        ])

    package func check(_ entity: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        entity.changedProperties.compactMap { pair in
            guard pair.facets.contains(.validation), let old = pair.oldAttribute, let new = pair.newAttribute,
                old.type == new.type,
                let raised = new.minValueString.flatMap(Double.init)
            else { return nil }
            let previous = old.minValueString.flatMap(Double.init)
            guard previous.map({ raised > $0 }) ?? true else { return nil }
            let what = new.type == .string ? "minimum length" : "minimum"
            return .change(
                "\(pair.label)'s \(what) rose from \(old.minValueString ?? "none") to \(new.minValueString ?? "") \(versions.between): existing objects below it fail validation the next time they are saved",
                entity: entity.new, property: pair.new)
        }
    }
}
