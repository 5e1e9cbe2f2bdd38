import ModelLintModel

package struct DerivedAttributeInvalidRule: EntityRule {
    package init() {}

    package static let readsOnlyItsEntity = true

    package static let description = RuleDescription(
        id: "derived-attribute-invalid", category: .singleVersion, severity: .error,
        summary: "a derived attribute with a default value or a renaming identifier",
        rationale: """
            A derived attribute's value is computed by the store from its derivation expression. A default value or a \
            renaming identifier has no meaning for it, and the model compiler rejects the model.
            """,
        fix: "remove the default value and the Renaming ID from the derived attribute",
        examples: [
            .triggering(
                """
                <entity name="Manga">
                    ↓<attribute name="chapterCount" optional="YES" attributeType="Integer 64" defaultValueString="0" derived="YES" derivationExpression="chapters.@count" usesScalarValueType="YES"/>
                </entity>
                """),
            .passing(
                """
                <entity name="Manga">
                    <attribute name="chapterCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="chapters.@count" usesScalarValueType="YES"/>
                </entity>
                """),
        ])

    package func check(_ entity: Entity, in model: Model, context: RuleContext) -> [Finding] {
        entity.attributes.compactMap { attribute in
            guard attribute.isDerived else { return nil }
            var extras: [String] = []
            if let value = attribute.defaultValueString { extras.append("a default value (\"\(value)\")") }
            if let id = attribute.elementID ?? attribute.renamingIdentifierAttribute {
                extras.append("a renaming identifier (\"\(id)\")")
            }
            guard !extras.isEmpty else { return nil }
            return Finding(
                "derived attribute \(entity.name).\(attribute.name) has \(extras.joined(separator: " and ")), which a derived attribute cannot have",
                at: attribute.location, entity: entity.name, property: attribute.name)
        }
    }
}
