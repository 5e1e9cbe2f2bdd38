import ModelLintModel

package struct PlaceholderEntityRule: VersionRule {
    package init() {}

    package static let description = RuleDescription(
        id: "placeholder-entity", category: .singleVersion, severity: .warning,
        summary: "an entity with Xcode's default name (`Entity`, `Entity1`, ...) and no properties",
        rationale: """
            Clicking Add Entity in the model editor creates `Entity` with no properties. Left in, it changes the model's \
            version hashes: in a version that already shipped, every store written by earlier releases stops matching.
            """,
        fix: "delete the entity (in a version that has not shipped)",
        examples: [
            .triggering(
                """
                <entity name="Thing">
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                ↓<entity name="Entity" representedClassName="Entity" syncable="YES" codeGenerationType="class"/>
                ↓<entity name="Entity2"/>
                """),
            .passing(
                """
                <entity name="Entity">
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                <entity name="Entityish"/>
                """),
        ])

    package func check(_ model: Model, context: RuleContext) -> [Finding] {
        model.entities.compactMap { entity in
            guard entity.name.hasPrefix("Entity"), entity.name.dropFirst("Entity".count).allSatisfy(\.isASCIIDigit),
                entity.properties.isEmpty, entity.fetchedProperties.isEmpty,
                model.descendants(of: entity).isEmpty
            else { return nil }
            return Finding(
                "\(entity.name) has Xcode's default entity name and no properties: almost always an accidental Add Entity, and it changes the model's version hashes",
                at: entity.location, entity: entity.name)
        }
    }
}
