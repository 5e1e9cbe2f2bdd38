import ModelLintModel
import ModelLintDiff

package struct EntityMadeAbstractRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
        id: "entity-made-abstract", category: .changes, severity: .warning,
        summary: "an entity with possible instances became abstract",
        rationale: """
            Objects of the entity already exist on devices. An abstract entity cannot have instances: the existing \
            objects have nowhere to migrate to, and fetching them fails.
            """,
        fix: "move the data to a concrete entity first (a custom stage or an earlier release), then make it abstract",
        examples: [
            .triggering(
                before:
                    "<entity name=\"Media\"><attribute name=\"url\" optional=\"YES\" attributeType=\"URI\"/></entity>",
                after:
                    "↓<entity name=\"Media\" isAbstract=\"YES\"><attribute name=\"url\" optional=\"YES\" attributeType=\"URI\"/></entity>"
            ),
            .passing(
                before: "<entity name=\"Media\" isAbstract=\"YES\"/>",
                after: "<entity name=\"Media\"/>"),
        ])

    package func check(_ pair: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        guard !pair.old.isAbstract, pair.new.isAbstract else { return [] }
        return [
            .change(
                "\(pair.new.name) became abstract \(versions.between): its existing objects cannot be migrated",
                entity: pair.new)
        ]
    }
}
