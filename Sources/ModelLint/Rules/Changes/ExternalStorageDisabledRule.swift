import ModelLintModel
import ModelLintDiff

package struct ExternalStorageDisabledRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
        id: "external-storage-disabled", category: .changes, severity: .error,
        summary: "`allowsExternalBinaryDataStorage` turned off",
        rationale: """
            With external storage on, large values live in files beside the store. Turning it off asks inference to \
            move them back into the store, which it cannot do (seen on iOS 26; older systems unverified): the migration \
            fails.
            """,
        fix: "keep it on, or add a new attribute without external storage and copy the values in a custom stage",
        examples: [
            .triggering(
                before:
                    "<entity name=\"Photo\"><attribute name=\"data\" optional=\"YES\" attributeType=\"Binary\" allowsExternalBinaryDataStorage=\"YES\"/></entity>",
                after:
                    "<entity name=\"Photo\">↓<attribute name=\"data\" optional=\"YES\" attributeType=\"Binary\"/></entity>"
            ),
            .passing(
                before:
                    "<entity name=\"Photo\"><attribute name=\"data\" optional=\"YES\" attributeType=\"Binary\"/></entity>",
                after:
                    "<entity name=\"Photo\"><attribute name=\"data\" optional=\"YES\" attributeType=\"Binary\" allowsExternalBinaryDataStorage=\"YES\"/></entity>"
            ),
        ])

    package func check(_ entity: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        entity.changedProperties.compactMap { pair in
            guard let old = pair.oldAttribute, let new = pair.newAttribute,
                old.allowsExternalBinaryDataStorage, !new.allowsExternalBinaryDataStorage
            else { return nil }
            return .change(
                "\(pair.label) no longer allows external storage \(versions.between); inference cannot move external data back into the store",
                entity: entity.new, property: pair.new)
        }
    }
}
