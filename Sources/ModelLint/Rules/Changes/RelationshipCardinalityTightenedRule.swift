import ModelLintModel
import ModelLintDiff

package struct RelationshipCardinalityTightenedRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
        id: "relationship-cardinality-tightened", category: .changes, severity: .warning,
        summary: "`maxCount` lowered, or the smallest allowed non-empty count raised",
        rationale: """
            Count limits are validation, not schema that migration enforces: the store opens, and objects that hold more \
            (or fewer) destinations than now allowed fail validation on their next save, far from the change that caused \
            it. Raising `minCount` from 0 to 1 on an optional relationship forbids nothing and is not reported; \
            to-many -> to-one and made-required have rules of their own.
            """,
        fix:
            "clean the existing data first (on launch or in a custom stage), then tighten the limit in a later version",
        examples: [
            .triggering(
                before: """
                    <entity name="Team">
                        <relationship name="members" optional="YES" toMany="YES" maxCount="10" deletionRule="Nullify" destinationEntity="Team" inverseName="members" inverseEntity="Team"/>
                    </entity>
                    """,
                after: """
                    <entity name="Team">
                        ↓<relationship name="members" optional="YES" toMany="YES" maxCount="5" deletionRule="Nullify" destinationEntity="Team" inverseName="members" inverseEntity="Team"/>
                    </entity>
                    """),
            .passing(
                before: """
                    <entity name="Team">
                        <relationship name="members" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Team" inverseName="members" inverseEntity="Team"/>
                    </entity>
                    """,
                after: """
                    <entity name="Team">
                        <relationship name="members" optional="YES" toMany="YES" minCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="members" inverseEntity="Team"/>
                    </entity>
                    """),
        ])

    package func check(_ entity: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        entity.changedProperties.compactMap { pair in
            guard let old = pair.oldRelationship, let new = pair.newRelationship, !(old.isToMany && !new.isToMany)
            else { return nil }
            var what: [String] = []
            if let newMax = new.effectiveMaxCount, newMax < (old.effectiveMaxCount ?? Int.max) {
                what.append(
                    "maxCount lowered from \(old.effectiveMaxCount.map(String.init) ?? "unbounded") to \(newMax)")
            }
            if new.smallestNonEmptyCount > old.smallestNonEmptyCount {
                what.append("minCount raised from \(old.minCount ?? 0) to \(new.minCount ?? 0)")
            }
            guard !what.isEmpty else { return nil }
            return .change(
                "\(pair.label): \(what.joined(separator: " and ")) \(versions.between); migration does not enforce it, and existing objects fail validation on their next save",
                entity: entity.new, property: pair.new)
        }
    }
}
