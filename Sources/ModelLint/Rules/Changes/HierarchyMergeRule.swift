import ModelLintModel
import ModelLintDiff

package struct HierarchyMergeRule: ChangeRule {
    package init() {}

    package static let description = RuleDescription(
        id: "hierarchy-merge", category: .changes, severity: .error,
        summary: "two entities that had different root entities now share one",
        rationale: """
            In a SQLite store every entity hierarchy is one table, owned by its root. Giving two previously separate \
            roots a common root asks the migration to merge two source tables into one, which it cannot do: the store \
            cannot be migrated.
            """,
        fix:
            "create the new entities, copy the data into them in a custom migration stage, and remove the old ones later",
        examples: [
            .triggering(
                before: """
                    <entity name="Photo">
                        <attribute name="url" optional="YES" attributeType="URI"/>
                    </entity>
                    <entity name="Video">
                        <attribute name="url" optional="YES" attributeType="URI"/>
                    </entity>
                    """,
                after: """
                    ↓<entity name="Media" isAbstract="YES">
                        <attribute name="url" optional="YES" attributeType="URI"/>
                    </entity>
                    <entity name="Photo" parentEntity="Media"/>
                    <entity name="Video" parentEntity="Media"/>
                    """),
            .passing(
                before: """
                    <entity name="Photo">
                        <attribute name="url" optional="YES" attributeType="URI"/>
                    </entity>
                    """,
                after: """
                    <entity name="Media" isAbstract="YES"/>
                    <entity name="Photo" parentEntity="Media">
                        <attribute name="url" optional="YES" attributeType="URI"/>
                    </entity>
                    """),
        ])

    package func check(_ diff: ModelDiff, context: RuleContext) -> [ChangeFinding] {
        diff.hierarchyMerges.map { root, oldRoots in
            .change(
                "\(oldRoots.joined(separator: " and ")) had separate root entities in \(diff.from.name) and share the root \(root.name) in \(diff.to.name); their tables cannot be merged by migration",
                entity: root)
        }
    }
}
