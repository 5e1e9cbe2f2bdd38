import ModelLintModel
import ModelLintDiff

public struct EntityMadeAbstractRule: ChangeRule {
    public init() {}
    public static let judgesEachPairAlone = true

    public static let description = RuleDescription(
        id: "entity-made-abstract", category: .changes, severity: .warning,
        summary: "an entity with possible instances became abstract",
        rationale: """
            Objects of the entity already exist on devices. An abstract entity cannot have instances: the existing \
            objects have nowhere to migrate to, and fetching them fails.
            """,
        fix: "move the data to a concrete entity first (a custom stage or an earlier release), then make it abstract",
        examples: [
            .triggering(
                before: "<entity name=\"Media\"><attribute name=\"url\" optional=\"YES\" attributeType=\"URI\"/></entity>",
                after: "↓<entity name=\"Media\" isAbstract=\"YES\"><attribute name=\"url\" optional=\"YES\" attributeType=\"URI\"/></entity>"),
            .passing(
                before: "<entity name=\"Media\" isAbstract=\"YES\"/>",
                after: "<entity name=\"Media\"/>"),
        ])

    public func check(_ diff: ModelDiff, context: RuleContext) -> [Finding] {
        diff.matchedEntities.compactMap { pair in
            guard !pair.old.isAbstract, pair.new.isAbstract else { return nil }
            return .change("\(pair.new.name) became abstract \(diff.between): its existing objects cannot be migrated", entity: pair.new)
        }
    }
}
