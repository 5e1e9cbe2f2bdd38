import ModelLintModel
import ModelLintDiff

package struct ToManyBecameToOneRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
        id: "to-many-became-to-one", category: .changes, severity: .error,
        summary: "a to-many relationship became to-one",
        rationale:
            "Inferred migration cannot turn a set into a single reference: inference fails and the store never opens after the update.",
        fix: "add a new to-one relationship, fill it in a custom migration stage, and remove the to-many one later",
        examples: [
            .triggering(
                before: """
                    <entity name="Owner">
                        <relationship name="pets" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/>
                    </entity>
                    <entity name="Pet">
                        <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="pets" inverseEntity="Owner"/>
                    </entity>
                    """,
                after: """
                    <entity name="Owner">
                        ↓<relationship name="pets" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/>
                    </entity>
                    <entity name="Pet">
                        <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="pets" inverseEntity="Owner"/>
                    </entity>
                    """),
            .passing(
                before: """
                    <entity name="Owner">
                        <relationship name="pet" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/>
                    </entity>
                    <entity name="Pet">
                        <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="pet" inverseEntity="Owner"/>
                    </entity>
                    """,
                after: """
                    <entity name="Owner">
                        <relationship name="pet" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/>
                    </entity>
                    <entity name="Pet">
                        <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="pet" inverseEntity="Owner"/>
                    </entity>
                    """),
        ])

    package func check(_ entity: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        entity.changedProperties.compactMap { pair in
            guard let old = pair.oldRelationship, let new = pair.newRelationship, old.isToMany, !new.isToMany else {
                return nil
            }
            return .change(
                "\(pair.label) changed from to-many to to-one \(versions.between); inferred migration cannot convert it, and the store will fail to open",
                entity: entity.new, property: pair.new, failsToOpenStore: true)
        }
    }
}
