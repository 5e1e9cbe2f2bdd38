import ModelLintModel
import ModelLintDiff

package struct AttributeTypeWideningRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
        id: "attribute-type-widening", category: .changes, severity: .note,
        summary: "a numeric change that cannot lose values",
        rationale: """
            Integer 16 -> 32/64, Integer 32 -> 64, Float -> Double and Boolean -> any integer keep every value. \
            Inferred migration handles them; the note records that the store is rewritten on update.
            """,
        fix: "nothing to do; test the migration on a store written by the older version",
        examples: [
            .triggering(
                before: """
                    <entity name="Thing">
                        <attribute name="count" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
                    </entity>
                    """,
                after: """
                    <entity name="Thing">
                        ↓<attribute name="count" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                    </entity>
                    """),
            .passing(
                before: """
                    <entity name="Thing">
                        <attribute name="count" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                    </entity>
                    """,
                after: """
                    <entity name="Thing">
                        <attribute name="count" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
                    </entity>
                    """),
        ])

    package func check(_ entity: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        entity.changedProperties.compactMap { pair in
            guard let old = pair.oldAttribute, let new = pair.newAttribute, old.type.widens(to: new.type) else {
                return nil
            }
            return .change(
                "\(pair.label) widened from \(old.type.xmlValue) to \(new.type.xmlValue) \(versions.between); every value fits",
                entity: entity.new, property: pair.new)
        }
    }
}
