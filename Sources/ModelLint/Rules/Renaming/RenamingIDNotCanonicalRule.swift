import ModelLintModel
import ModelLintDiff

package struct RenamingIDNotCanonicalRule: ChangeRule {
    package init() {}
    package static let adjacentOnly = true

    package static let description = RuleDescription(
        id: "renaming-id-not-canonical", category: .renaming, severity: .error,
        summary: "an `elementID` equal to the previous name while that element already carried a different identifier",
        rationale: """
            A renaming identifier is a permanent id. If `a` was renamed to `b` with `elementID="a"`, a later rename of \
            `b` to `c` must still say `elementID="a"`: in the version where the property is called `b`, its identifier \
            is `a`, so `elementID="b"` matches nothing and the data is dropped.
            """,
        fix: "reuse the original identifier: the previous version's `elementID`, not its name",
        swiftDataFix:
            "reuse the original identifier: the previous schema's `originalName`, not its name",
        examples: [
            .triggering(
                before:
                    "<entity name=\"Thing\"><attribute name=\"b\" optional=\"YES\" attributeType=\"String\" elementID=\"a\"/></entity>",
                after:
                    "<entity name=\"Thing\">↓<attribute name=\"c\" optional=\"YES\" attributeType=\"String\" elementID=\"b\"/></entity>"
            ),
            .passing(
                before:
                    "<entity name=\"Thing\"><attribute name=\"b\" optional=\"YES\" attributeType=\"String\" elementID=\"a\"/></entity>",
                after:
                    "<entity name=\"Thing\"><attribute name=\"c\" optional=\"YES\" attributeType=\"String\" elementID=\"a\"/></entity>"
            ),
        ])

    package func check(_ diff: ModelDiff, context: RuleContext) -> [ChangeFinding] {
        var findings: [ChangeFinding] = []
        for entity in diff.addedEntities {
            guard let id = entity.elementID, let previous = diff.from.model.entity(named: id),
                previous.renamingIdentifier != id
            else { continue }
            findings.append(
                .change(
                    "\(entity.name)'s renaming identifier is \"\(id)\", \(previous.name)'s name in \(diff.from.name), but that entity's identifier is \"\(previous.renamingIdentifier)\": nothing matches, and its rows are dropped",
                    entity: entity))
        }
        for pair in diff.matchedEntities {
            for property in pair.addedProperties {
                guard let id = property.elementID,
                    let previous = diff.from.model.effectiveProperty(named: id, in: pair.old),
                    previous.renamingIdentifier != id
                else { continue }
                findings.append(
                    .change(
                        "\(pair.new.name).\(property.name)'s renaming identifier is \"\(id)\", the property's name in \(diff.from.name), but its identifier there is \"\(previous.renamingIdentifier)\": nothing matches, and the data is dropped",
                        entity: pair.new, property: property))
            }
        }
        return findings
    }
}
