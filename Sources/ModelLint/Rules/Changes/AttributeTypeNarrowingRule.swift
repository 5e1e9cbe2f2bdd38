import ModelLintModel
import ModelLintDiff

package struct AttributeTypeNarrowingRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
        id: "attribute-type-narrowing", category: .changes, severity: .warning,
        summary: "a numeric/Boolean type change that can lose values",
        rationale: """
            Inferred migration accepts any change inside {Integer 16/32/64, Decimal, Double, Float, Boolean}, but what \
            it does to values that do not fit is undocumented: Integer 64 -> 32 can truncate, Double -> Integer drops \
            fractions, Decimal <-> Double rounds, number -> Boolean collapses to 0/1. The store opens; the values may not \
            be the ones your users saved.
            """,
        fix:
            "add a new attribute with the new type and convert explicitly (in a custom stage or on first launch); remove the old one in a later version",
        examples: [
            .triggering(
                before: """
                    <entity name="OrderItem">
                        <attribute name="quantity" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                    </entity>
                    """,
                after: """
                    <entity name="OrderItem">
                        ↓<attribute name="quantity" attributeType="Decimal" defaultValueString="0"/>
                    </entity>
                    """),
            .passing(
                before: """
                    <entity name="OrderItem">
                        <attribute name="quantity" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                    </entity>
                    """,
                after: """
                    <entity name="OrderItem">
                        <attribute name="quantity" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                    </entity>
                    """),
        ])

    package func check(_ entity: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        entity.changedProperties.compactMap { pair in
            guard let old = pair.oldAttribute, let new = pair.newAttribute, old.type != new.type,
                old.type.isNumericOrBoolean, new.type.isNumericOrBoolean, !old.type.widens(to: new.type)
            else { return nil }
            return .change(
                "\(pair.label) changed type from \(old.type.xmlValue) to \(new.type.xmlValue) \(versions.between); migration converts it, but values that do not fit can be rounded or truncated",
                entity: entity.new, property: pair.new)
        }
    }
}
