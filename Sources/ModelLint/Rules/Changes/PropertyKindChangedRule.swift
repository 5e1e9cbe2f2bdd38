import ModelLintModel
import ModelLintDiff

package struct PropertyKindChangedRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
        id: "property-kind-changed", category: .changes, severity: .error,
        summary: "an attribute became a relationship or the reverse under the same identifier",
        rationale: """
            Inferred migration treats an attribute matched with a relationship as a drop plus an add: the old values \
            are discarded on every device, with no error.
            """,
        fix:
            "give the new property a new name, copy the data in a custom migration stage, and remove the old one later",
        examples: [
            .triggering(
                before: """
                    <entity name="Thing">
                        <attribute name="owner" optional="YES" attributeType="String"/>
                    </entity>
                    <entity name="Owner"/>
                    """,
                after: """
                    <entity name="Thing">
                        ↓<relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="things" inverseEntity="Owner"/>
                    </entity>
                    <entity name="Owner">
                        <relationship name="things" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Thing" inverseName="owner" inverseEntity="Thing"/>
                    </entity>
                    """),
            .passing(
                before: """
                    <entity name="Thing">
                        <attribute name="ownerName" optional="YES" attributeType="String"/>
                    </entity>
                    """,
                after: """
                    <entity name="Thing">
                        <attribute name="ownerName" optional="YES" attributeType="String"/>
                    </entity>
                    """),
        ])

    package func check(_ entity: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        entity.kindChanged.map { pair in
            .change(
                "\(pair.label) changed from \(pair.old.kindName == "attribute" ? "an attribute" : "a relationship") to \(pair.new.kindName == "attribute" ? "an attribute" : "a relationship") \(versions.between); inferred migration drops the old values",
                entity: entity.new, property: pair.new)
        }
    }
}
