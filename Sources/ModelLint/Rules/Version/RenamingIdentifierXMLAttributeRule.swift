import ModelLintModel

package struct RenamingIdentifierXMLAttributeRule: EntityRule {
    package init() {}

    package static let readsOnlyItsEntity = true

    package static let description = RuleDescription(
        id: "renaming-identifier-xml-attribute", category: .singleVersion, severity: .error,
        summary: "a hand-written `renamingIdentifier=\"...\"` XML attribute, which the model compiler ignores",
        rationale: """
            Xcode writes the Renaming ID field as `elementID`. A `renamingIdentifier` XML attribute is not part of the \
            format: `momc` drops it, the compiled property's renaming identifier is its own name, and the rename it was \
            meant to carry silently does not happen. After the upgrade the attribute reads nil and no error is raised \
            anywhere.
            """,
        fix:
            "use Xcode's Renaming ID field (`elementID`) and verify the compiled model keeps it; or use the two-build sequence (interim build with both attributes, copy on launch; retiring build removes the old one)",
        examples: [
            .triggering(
                """
                <entity name="Thing">
                    ↓<attribute name="payloadBlob" optional="YES" attributeType="Binary" renamingIdentifier="payload"/>
                </entity>
                """),
            .triggering("↓<entity name=\"Item\" renamingIdentifier=\"Thing\"/>"),
            .passing(
                """
                <entity name="Thing">
                    <attribute name="payloadBlob" optional="YES" attributeType="Binary" elementID="payload"/>
                </entity>
                """),
        ])

    package func check(_ entity: Entity, in model: Model, context: RuleContext) -> [Finding] {
        var findings: [Finding] = []
        if let value = entity.renamingIdentifierAttribute {
            findings.append(
                Finding(
                    "entity \(entity.name) has renamingIdentifier=\"\(value)\", an XML attribute the model compiler ignores: the rename from \(value) will not happen and its rows are dropped",
                    at: entity.location, entity: entity.name))
        }
        for property in entity.properties {
            guard let value = property.renamingIdentifierAttribute else { continue }
            findings.append(
                Finding(
                    "\(entity.name).\(property.name) has renamingIdentifier=\"\(value)\", an XML attribute the model compiler ignores: the rename from \(value) will not happen, and after the upgrade \(property.name) reads nil",
                    at: property.location, entity: entity.name, property: property.name))
        }
        return findings
    }
}
