import ModelLintModel
import ModelLintDiff

package struct RenamingIDUnknownRule: ChangeRule {
    package init() {}
    package static let adjacentOnly = true

    package static let description = RuleDescription(
        id: "renaming-id-unknown", category: .renaming, severity: .error,
        summary: "an `elementID` that matches no identifier in the previous version",
        rationale: """
            A Renaming ID is meant to name the element's identifier in the previous version. One that matches nothing \
            there (a typo, or an identifier from an unrelated element) makes the element new to inferred migration: the \
            old element is dropped with its data. When the old element has the same name (only its identifier \
            changed), this finding is the drop: no removal is reported beside it for that step.
            """,
        fix:
            "set the Renaming ID to the identifier the element had in the previous version (its `elementID` there, else its name)",
        swiftDataFix:
            "set `originalName:` to the name the property had in the previous schema (or its `originalName` there, if it had one)",
        examples: [
            .triggering(
                before:
                    "<entity name=\"Thing\"><attribute name=\"payload\" optional=\"YES\" attributeType=\"Binary\"/></entity>",
                after:
                    "<entity name=\"Thing\">↓<attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\" elementID=\"paylod\"/></entity>"
            ),
            .passing(
                before:
                    "<entity name=\"Thing\"><attribute name=\"payload\" optional=\"YES\" attributeType=\"Binary\"/></entity>",
                after:
                    "<entity name=\"Thing\"><attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\" elementID=\"payload\"/><attribute name=\"note\" optional=\"YES\" attributeType=\"String\" elementID=\"note\"/></entity>"
            ),
        ])

    package func check(_ diff: ModelDiff, context: RuleContext) -> [ChangeFinding] {
        var findings: [ChangeFinding] = []
        for entity in diff.addedEntities {
            guard let id = entity.elementID, id != entity.name, diff.from.model.entityIndexByName[id] == nil else {
                continue
            }
            var finding = ChangeFinding.change(
                "\(entity.name)'s renaming identifier \"\(id)\" matches no entity in \(diff.from.name): \(entity.name) is treated as new and the entity it was meant to continue is dropped",
                entity: entity)
            // One problem, one finding: the removal of the older entity of the same name is this finding's drop.
            if let index = diff.from.model.entityIndexByName[entity.name] {
                finding.supersedes = [
                    (EntityRemovedRule.description.id, diff.from.model.entities[index].renamingIdentifier + "/")
                ]
            }
            findings.append(finding)
        }
        for pair in diff.matchedEntities where !pair.addedProperties.isEmpty {
            // The older entity's property names are listed only for an added property that names another.
            var oldNames: Set<String>?
            for property in pair.addedProperties {
                guard let id = property.elementID, id != property.name else { continue }
                let names =
                    oldNames ?? Set(diff.from.model.effectiveProperties(of: pair.old).map(\.property.name))
                oldNames = names
                guard !names.contains(id) else { continue }
                var finding = ChangeFinding.change(
                    "\(pair.new.name).\(property.name)'s renaming identifier \"\(id)\" matches no property of \(pair.old.name) in \(diff.from.name): it is treated as new, and the property it was meant to continue is dropped",
                    entity: pair.new, property: property)
                // One problem, one finding: the older property of the same name, whose identifier changed, is the one
                // dropped, and its removal is this finding's.
                if let old = pair.old.properties.first(where: { $0.name == property.name }) {
                    finding.supersedes = [
                        (PropertyRemovedRule.description.id, pair.old.renamingIdentifier + "/" + old.renamingIdentifier)
                    ]
                }
                findings.append(finding)
            }
        }
        return findings
    }
}
