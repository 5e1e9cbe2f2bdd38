import ModelLintModel

package struct SuspiciousDefaultValueRule: EntityRule {
    package init() {}

    package static let readsOnlyItsEntity = true

    package static let description = RuleDescription(
        id: "suspicious-default-value", category: .singleVersion, severity: .warning,
        summary: "a default written in another type's spelling, usually left behind by a type change",
        rationale: """
            `YES`/`NO` on a numeric attribute converts to 0, so the default the model editor shows is not the one the \
            app gets; `true` or `2` on a Boolean and `0.0` on an integer type are read in ways that depend on the \
            conversion. These are almost always left behind when an attribute's type was changed.
            """,
        fix:
            "write the default in the attribute's own type (`0`/`1` for integers, `YES`/`NO` for Booleans, `0` for `0.0`)",
        examples: [
            .triggering(
                """
                <entity name="Manga">
                    ↓<attribute name="nsfw" attributeType="Integer 16" defaultValueString="NO" usesScalarValueType="YES"/>
                    ↓<attribute name="pages" attributeType="Integer 32" defaultValueString="0.0" usesScalarValueType="YES"/>
                    ↓<attribute name="done" attributeType="Boolean" defaultValueString="true" usesScalarValueType="YES"/>
                </entity>
                """),
            .passing(
                """
                <entity name="Manga">
                    <attribute name="nsfw" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
                    <attribute name="neverUpdate" attributeType="Boolean" defaultValueString="0" usesScalarValueType="YES"/>
                    <attribute name="ratio" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                </entity>
                """),
        ])

    package func check(_ entity: Entity, in model: Model, context: RuleContext) -> [Finding] {
        entity.attributes.compactMap { attribute in
            guard !attribute.isDerived, case .suspicious(let why) = DefaultValueVerdict.judge(attribute) else {
                return nil
            }
            return Finding(
                "\(entity.name).\(attribute.name) has a suspicious default: \(why)",
                at: attribute.location, entity: entity.name, property: attribute.name)
        }
    }
}
