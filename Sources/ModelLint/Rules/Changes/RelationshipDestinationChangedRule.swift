import ModelLintModel
import ModelLintDiff

package struct RelationshipDestinationChangedRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
        id: "relationship-destination-changed", category: .changes, severity: .warning,
        summary: "a matched relationship points at a different entity",
        rationale: """
            The relationship keeps its identifier but now points at another entity (compared by the destination's \
            renaming identifier, so renaming the destination with a Renaming ID is not a change). Only links to objects \
            that migrate into the new destination survive; the rest are dropped.
            """,
        fix: "add a new relationship to the new destination and copy the links in a custom migration stage",
        examples: [
            .triggering(
                before: """
                    <entity name="Visit">
                        <relationship name="place" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Place"/>
                    </entity>
                    <entity name="Place"/>
                    <entity name="Venue"/>
                    """,
                after: """
                    <entity name="Visit">
                        ↓<relationship name="place" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Venue"/>
                    </entity>
                    <entity name="Place"/>
                    <entity name="Venue"/>
                    """),
            .passing(
                before: """
                    <entity name="Visit">
                        <relationship name="place" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Place"/>
                    </entity>
                    <entity name="Place"/>
                    """,
                after: """
                    <entity name="Visit">
                        <relationship name="place" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Venue"/>
                    </entity>
                    <entity name="Venue" elementID="Place"/>
                    """),
        ])

    package func check(_ entity: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        entity.changedProperties.compactMap { pair in
            guard pair.facets.contains(.destination), let old = pair.oldRelationship, let new = pair.newRelationship
            else { return nil }
            return .change(
                "\(pair.label) now points at \(new.destinationEntity ?? "nothing") instead of \(old.destinationEntity ?? "nothing") \(versions.between); only links to objects that become \(new.destinationEntity ?? "the new destination") survive",
                entity: entity.new, property: pair.new)
        }
    }
}
