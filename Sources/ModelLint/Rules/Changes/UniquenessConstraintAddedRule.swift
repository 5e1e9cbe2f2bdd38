import ModelLintModel
import ModelLintDiff

package struct UniquenessConstraintAddedRule: ChangeRule {
    package init() {}

    package static let description = RuleDescription(
        id: "uniqueness-constraint-added", category: .changes, severity: .warning,
        summary: "a new or stricter uniqueness constraint on an existing entity",
        rationale: """
            A uniqueness constraint is checked when the migrated store opens: any device that already holds two objects \
            with the same values fails to open the store. A constraint is stricter when no older constraint was a subset \
            of it.
            """,
        fix: "de-duplicate in an earlier release, or in a custom stage's `willMigrate`, before adding the constraint",
        examples: [
            .triggering(
                before: """
                    <entity name="Tag">
                        <attribute name="title" attributeType="String" defaultValueString=""/>
                    </entity>
                    """,
                after: """
                    <entity name="Tag">
                        <attribute name="title" attributeType="String" defaultValueString=""/>
                        <uniquenessConstraints>
                            ↓<uniquenessConstraint>
                                <constraint value="title"/>
                            </uniquenessConstraint>
                        </uniquenessConstraints>
                    </entity>
                    """),
            .passing(
                before: """
                    <entity name="Tag">
                        <attribute name="title" attributeType="String" defaultValueString=""/>
                        <attribute name="owner" optional="YES" attributeType="String"/>
                        <uniquenessConstraints>
                            <uniquenessConstraint>
                                <constraint value="title"/>
                            </uniquenessConstraint>
                        </uniquenessConstraints>
                    </entity>
                    """,
                after: """
                    <entity name="Tag">
                        <attribute name="title" attributeType="String" defaultValueString=""/>
                        <attribute name="owner" optional="YES" attributeType="String"/>
                        <uniquenessConstraints>
                            <uniquenessConstraint>
                                <constraint value="title"/>
                                <constraint value="owner"/>
                            </uniquenessConstraint>
                        </uniquenessConstraints>
                    </entity>
                    """),
        ])

    package func check(_ diff: ModelDiff, context: RuleContext) -> [ChangeFinding] {
        // An unchanged pair (equal lineage: the same constraints over the same properties) gains none.
        diff.matchedEntities.filter { !$0.isUnchanged }.flatMap { pair -> [ChangeFinding] in
            // Compare by renaming identifier, so renaming a constrained property is not a new constraint.
            func ids(_ names: [String], _ entity: Entity, _ model: Model) -> Set<String> {
                Set(names.map { model.effectiveProperty(named: $0, in: entity)?.renamingIdentifier ?? $0 })
            }
            let old = pair.old.uniquenessConstraints.map { ids($0.properties, pair.old, diff.from.model) }
            return pair.new.uniquenessConstraints.compactMap { constraint in
                let new = ids(constraint.properties, pair.new, diff.to.model)
                guard !old.contains(where: { $0.isSubset(of: new) }) else { return nil }
                return .change(
                    "\(pair.new.name) gained the uniqueness constraint (\(constraint.properties.joined(separator: ", "))) \(diff.between): the store fails to open on any device holding duplicates",
                    entity: pair.new, at: constraint.location,
                    // Two constraints added to one entity are two problems, on every pair they appear in.
                    aspect: "(" + new.sorted().joined(separator: ",") + ")", failsToOpenStore: true)
            }
        }
    }
}
