import ModelLintModel
import ModelLintDiff

package struct RelationshipBecameRequiredRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
        id: "relationship-became-required", category: .changes, severity: .error,
        summary:
            "a required relationship that older rows may lack: added to an existing entity, or tightened from optional",
        rationale: """
            Required means no `optional="YES"`, and for a to-many also `minCount >= 1`. Rows written by older versions \
            have no destination for a relationship that did not exist or was optional: the store fails to open on \
            devices that have such rows.
            """,
        fix: "add it optional, populate it (on launch or in a custom stage), and make it required in a later version",
        examples: [
            .triggering(
                before: """
                    <entity name="Visit">
                        <attribute name="at" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                    </entity>
                    <entity name="Place"/>
                    """,
                after: """
                    <entity name="Visit">
                        <attribute name="at" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                        ↓<relationship name="place" maxCount="1" deletionRule="Nullify" destinationEntity="Place" inverseName="visits" inverseEntity="Place"/>
                    </entity>
                    <entity name="Place">
                        <relationship name="visits" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Visit" inverseName="place" inverseEntity="Visit"/>
                    </entity>
                    """),
            .passing(
                before: """
                    <entity name="Visit"/>
                    <entity name="Place"/>
                    """,
                after: """
                    <entity name="Visit">
                        <relationship name="place" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Place" inverseName="visits" inverseEntity="Place"/>
                    </entity>
                    <entity name="Place">
                        <relationship name="visits" toMany="YES" deletionRule="Nullify" destinationEntity="Visit" inverseName="place" inverseEntity="Visit"/>
                    </entity>
                    """),
        ])

    package func check(_ entity: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        var findings: [ChangeFinding] = []
        for case .relationship(let relationship) in entity.addedProperties where relationship.isRequired {
            findings.append(
                .change(
                    "\(entity.new.name).\(relationship.name) is a required relationship added to existing entity \(entity.new.name) \(versions.between): older rows have no \(relationship.destinationEntity ?? "destination"), and the store fails to open on devices that have them",
                    entity: entity.new, property: .relationship(relationship), failsToOpenStore: true))
        }
        for pair in entity.changedProperties {
            guard let old = pair.oldRelationship, let new = pair.newRelationship, !old.isRequired, new.isRequired else {
                continue
            }
            findings.append(
                .change(
                    "\(pair.label) became required \(versions.between): rows without a \(new.destinationEntity ?? "destination") make the store fail to open",
                    entity: entity.new, property: pair.new, failsToOpenStore: true))
        }
        return findings
    }
}
