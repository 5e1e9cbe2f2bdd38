import ModelLintModel
import ModelLintDiff

package struct ParentEntityChangedRule: ChangeRule {
    package init() {}

    package static let description = RuleDescription(
        id: "parent-entity-changed", category: .changes, severity: .warning,
        summary: "an entity gained, lost or changed its parent (not a merge)",
        rationale: """
            Apple documents a new parent for one root entity, and moving an entity out of a hierarchy, as supported by \
            inferred migration. Each rewrites tables, and it is the kind of change that works on an empty test store and \
            surprises on a real one.
            """,
        fix: "test the migration on a store written by the older version, with real data",
        examples: [
            .triggering(
                before: """
                    <entity name="Photo">
                        <attribute name="url" optional="YES" attributeType="URI"/>
                    </entity>
                    """,
                after: """
                    <entity name="Media" isAbstract="YES"/>
                    ↓<entity name="Photo" parentEntity="Media">
                        <attribute name="url" optional="YES" attributeType="URI"/>
                    </entity>
                    """),
            .passing(
                before: """
                    <entity name="Media" isAbstract="YES"/>
                    <entity name="Photo" parentEntity="Media"/>
                    """,
                after: """
                    <entity name="Media" isAbstract="YES"/>
                    <entity name="Photo" parentEntity="Media"/>
                    """),
        ])

    package func check(_ diff: ModelDiff, context: RuleContext) -> [ChangeFinding] {
        guard diff.matchedEntities.contains(where: { $0.facets.contains(.parent) }) else { return [] }
        let merged = Set(diff.hierarchyMerges.map { $0.0.name })
        return diff.matchedEntities.compactMap { pair in
            guard pair.facets.contains(.parent), !merged.contains(diff.to.model.root(of: pair.new).name) else {
                return nil
            }
            let before = pair.old.parentEntity.map { "parent \($0)" } ?? "no parent"
            let after = pair.new.parentEntity.map { "parent \($0)" } ?? "no parent"
            return .change(
                "\(pair.new.name) changed from \(before) to \(after) \(diff.between); supported, but the migration rewrites tables: test it on a real store",
                entity: pair.new)
        }
    }
}
