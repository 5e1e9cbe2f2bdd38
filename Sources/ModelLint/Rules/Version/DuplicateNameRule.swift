import ModelLintModel

package struct DuplicateNameRule: EntityRule {
    package init() {}

    package static let description = RuleDescription(
        id: "duplicate-name", category: .singleVersion, severity: .error,
        summary: "two entities with one name, or two properties of one entity (inherited included) with one name",
        rationale: """
            Names are keys: the model compiler refuses a model where two entities, or two properties visible on one \
            entity (its own or inherited from a parent), share a name. A merge conflict resolved by keeping both sides \
            is the usual cause.
            """,
        fix: "rename or remove one of them",
        examples: [
            .triggering(
                """
                <entity name="Thing">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    ↓<attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                ↓<entity name="Thing"/>
                """),
            .triggering(
                """
                <entity name="Base">
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                <entity name="Thing" parentEntity="Base">
                    ↓<attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                """),
            .passing(
                """
                <entity name="Thing">
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                <entity name="Other">
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                """),
        ])

    package func checkModel(_ model: Model, context: RuleContext) -> [Finding] {
        model.entities.indices.filter { model.firstIndexOfName[$0] != $0 }.map { i in
            Finding(
                "entity \(model.entities[i].name) is declared more than once", at: model.entities[i].location,
                entity: model.entities[i].name)
        }
    }

    package func check(_ entity: Entity, in model: Model, context: RuleContext) -> [Finding] {
        guard let i = model.index(of: entity) else { return [] }
        // Inherited names come first, so the finding lands on the redeclaration in this entity.
        return model.earlierDeclarations(ofEntityAt: i, by: .name).map { position, first in
            let property = entity.properties[position]
            let owner = model.entities[first.owner].name
            let origin = owner == entity.name ? "" : " (inherited from \(owner))"
            return Finding(
                "\(entity.name).\(property.name) is declared more than once\(origin)",
                at: property.location, entity: entity.name, property: property.name)
        }
    }
}
