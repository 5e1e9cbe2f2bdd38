import ModelLintModel

package struct DuplicateRenamingIDRule: EntityRule {
    package init() {}

    package static let description = RuleDescription(
        id: "duplicate-renaming-id", category: .singleVersion, severity: .error,
        summary: "two entities, or two properties of one entity, with the same effective renaming identifier",
        rationale: """
            Inferred migration matches old and new elements by renaming identifier (`elementID`, else the name). Two \
            elements with one identifier make the match ambiguous: inference fails (134190) and the store does not open. \
            Transient properties take no part in matching and are not counted.
            """,
        fix: "make the identifiers unique: clear the Renaming ID of the element that is not the renamed one",
        swiftDataFix:
            "make the identifiers unique: remove the `originalName` of the property that is not the renamed one",
        examples: [
            .triggering(
                """
                <entity name="Thing">
                    <attribute name="payload" optional="YES" attributeType="Binary"/>
                    ↓<attribute name="payloadBlob" optional="YES" attributeType="Binary" elementID="payload"/>
                </entity>
                """),
            .triggering(
                """
                <entity name="Thing"/>
                ↓<entity name="Item" elementID="Thing"/>
                """),
            .triggering(
                """
                <entity name="Base">
                    <attribute name="title" optional="YES" attributeType="String" elementID="heading"/>
                </entity>
                <entity name="Thing" parentEntity="Base">
                    ↓<attribute name="heading" optional="YES" attributeType="String"/>
                </entity>
                """),
            .passing(
                """
                <entity name="Thing">
                    <attribute name="payload" optional="YES" attributeType="Binary" transient="YES"/>
                    <attribute name="payloadBlob" optional="YES" attributeType="Binary" elementID="payload"/>
                </entity>
                """),
        ])

    package func checkModel(_ model: Model, context: RuleContext) -> [Finding] {
        model.entities.indices.compactMap { i in
            let entity = model.entities[i]
            let other = model.entities[model.firstIndexOfRenamingID[i]]
            // Same names are duplicate-name's finding.
            guard other.name != entity.name else { return nil }
            return Finding(
                "entities \(other.name) and \(entity.name) share the renaming identifier \"\(entity.renamingIdentifier)\": inference fails and the store does not open",
                at: entity.location, entity: entity.name)
        }
    }

    package func check(_ entity: Entity, in model: Model, context: RuleContext) -> [Finding] {
        guard let i = model.index(of: entity) else { return [] }
        // A property without an element ID is identified by its name: with none in the entity's chain, two that
        // share an identifier share a name, duplicate-name's finding (the usual entity, judged at no cost).
        guard
            model.hierarchy.chain(from: i).contains(where: { owner in
                model.entities[owner].properties.contains { $0.elementID != nil }
            })
        else { return [] }
        return model.earlierDeclarations(ofEntityAt: i, by: .persistentRenamingID).compactMap { position, first in
            let property = entity.properties[position]
            let other = first.property
            // Same name too: that is duplicate-name's finding.
            guard other.name != property.name else { return nil }
            return Finding(
                "\(entity.name).\(other.name) and \(entity.name).\(property.name) share the renaming identifier \"\(property.renamingIdentifier)\": inference fails and the store does not open",
                at: property.location, entity: entity.name, property: property.name)
        }
    }
}
