import ModelLintModel

package struct InvalidDefaultValueRule: EntityRule {
    package init() {}

    package static let readsOnlyItsEntity = true

    package static let description = RuleDescription(
        id: "invalid-default-value", category: .singleVersion, severity: .error,
        summary: "a default value that cannot mean anything for the attribute's type, or is out of range",
        rationale: """
            Core Data converts `defaultValueString` to the attribute's type when it loads the model. A value that does \
            not convert (`maybe` for a Boolean, `abc` for a Date) or does not fit (`70000` for Integer 16) gives new \
            objects, and rows filled in by a migration, a value nobody wrote.
            """,
        fix: "correct the default in the attribute's own type",
        examples: [
            .triggering(
                """
                <entity name="Thing">
                    ↓<attribute name="count" attributeType="Integer 16" defaultValueString="70000" usesScalarValueType="YES"/>
                    ↓<attribute name="flag" attributeType="Boolean" defaultValueString="maybe" usesScalarValueType="YES"/>
                    ↓<attribute name="when" optional="YES" attributeType="Date" defaultValueString="abc"/>
                </entity>
                """),
            .passing(
                """
                <entity name="Thing">
                    <attribute name="count" attributeType="Integer 16" defaultValueString="-32768" usesScalarValueType="YES"/>
                    <attribute name="flag" attributeType="Boolean" defaultValueString="YES" usesScalarValueType="YES"/>
                    <attribute name="when" attributeType="Date" defaultDateTimeInterval="581550840" usesScalarValueType="NO"/>
                    <attribute name="title" attributeType="String" defaultValueString=""/>
                </entity>
                """),
        ])

    package func check(_ entity: Entity, in model: Model, context: RuleContext) -> [Finding] {
        entity.attributes.compactMap { attribute in
            guard !attribute.isDerived, case .invalid(let why) = DefaultValueVerdict.judge(attribute) else {
                return nil
            }
            return Finding(
                "\(entity.name).\(attribute.name) has an invalid default: \(why)",
                at: attribute.location, entity: entity.name, property: attribute.name)
        }
    }
}
