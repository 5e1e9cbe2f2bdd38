public struct HierarchyMergeRule: ChangeRule {
    public init() {}

    public static let description = RuleDescription(
        id: "hierarchy-merge", category: .changes, severity: .error,
        summary: "two entities that had different root entities now share one",
        rationale: """
            In a SQLite store every entity hierarchy is one table, owned by its root. Giving two previously separate \
            roots a common root asks the migration to merge two source tables into one, which it cannot do: the store \
            cannot be migrated.
            """,
        fix: "create the new entities, copy the data into them in a custom migration stage, and remove the old ones later",
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

    public func check(_ diff: ModelDiff, context: RuleContext) -> [Finding] {
        Self.merges(in: diff).map { root, oldRoots in
            .change(
                "\(oldRoots.joined(separator: " and ")) had separate root entities in \(diff.from.name) and share the root \(root.name) in \(diff.to.name); their tables cannot be merged by migration",
                entity: root)
        }
    }

    /// Each new root whose matched descendants came from more than one old root, with those old roots.
    static func merges(in diff: ModelDiff) -> [(Entity, [String])] {
        // Without a changed parent no hierarchy can have been joined.
        guard diff.matchedEntities.contains(where: { $0.facets.contains(.parent) }) else { return [] }
        var oldRootsByNewRoot: [String: Set<String>] = [:]
        for pair in diff.matchedEntities {
            let newRoot = diff.to.model.root(of: pair.new).name
            let oldRoot = diff.from.model.root(of: pair.old).name
            oldRootsByNewRoot[newRoot, default: []].insert(oldRoot)
        }
        return diff.to.model.entities.compactMap { entity in
            guard let roots = oldRootsByNewRoot[entity.name], roots.count > 1 else { return nil }
            return (entity, roots.sorted())
        }
    }
}
