import ModelLintModel
import ModelLintDiff

package struct AttributeTypeIncompatibleRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
        id: "attribute-type-incompatible", category: .changes, severity: .error,
        summary: "a matched attribute's type changed outside the numeric/Boolean family",
        rationale: """
            Inferred migration converts between numeric types and Boolean, and nothing else. String <-> anything, \
            Date <-> Double, UUID/URI <-> String, Binary <-> Transformable: inference fails and the store never opens \
            after the update. Matching is by renaming identifier, so this also catches a name reused for a different \
            type across versions.
            """,
        fix:
            "keep the old attribute, add a new one with the new type, copy the values in a custom migration stage, and remove the old one in a later version",
        examples: [
            .triggering(
                before: """
                    <entity name="Thing">
                        <attribute name="payload" optional="YES" attributeType="Binary"/>
                    </entity>
                    """,
                after: """
                    <entity name="Thing">
                        ↓<attribute name="payload" optional="YES" attributeType="String"/>
                    </entity>
                    """),
            .passing(
                before: """
                    <entity name="Thing">
                        <attribute name="count" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
                    </entity>
                    """,
                after: """
                    <entity name="Thing">
                        <attribute name="count" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                    </entity>
                    """),
        ])

    package func check(_ entity: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        entity.changedProperties.compactMap { pair in
            guard let old = pair.oldAttribute, let new = pair.newAttribute, old.type != new.type,
                !(old.type.isNumericOrBoolean && new.type.isNumericOrBoolean)
            else { return nil }
            if case .unknown = old.type { return nil }
            if case .unknown = new.type { return nil }
            return .change(
                "\(pair.label) changed type from \(old.type.xmlValue) to \(new.type.xmlValue) \(versions.between); lightweight migration cannot convert it, and the store will fail to open",
                entity: entity.new, property: pair.new, failsToOpenStore: true)
        }
    }
}
