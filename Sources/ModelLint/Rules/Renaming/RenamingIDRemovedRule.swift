import ModelLintModel
import ModelLintDiff

package struct RenamingIDRemovedRule: ChangeRule {
    package init() {}
    package static let adjacentOnly = true

    package static let description = RuleDescription(
        id: "renaming-id-removed", category: .renaming, severity: .error,
        summary: "an element's renaming identifier was dropped or changed after a version that relied on it",
        rationale: """
            Once a version matched an element through a Renaming ID, stores of that version know the element by that \
            identifier. Clearing or changing it later (often an innocent-looking cleanup) makes the element unmatched: \
            stores from that version drop its data.
            """,
        fix: "keep renaming identifiers forever: restore the previous `elementID`",
        swiftDataFix:
            "keep renaming identifiers forever: restore the previous schema's `originalName:`",
        examples: [
            .triggering(
                before:
                    "<entity name=\"MetaData\" elementID=\"OrderMetaData\"><attribute name=\"key\" optional=\"YES\" attributeType=\"String\"/></entity>",
                after:
                    "↓<entity name=\"MetaData\"><attribute name=\"key\" optional=\"YES\" attributeType=\"String\"/></entity>"
            ),
            .passing(
                before:
                    "<entity name=\"MetaData\" elementID=\"OrderMetaData\"><attribute name=\"key\" optional=\"YES\" attributeType=\"String\"/></entity>",
                after:
                    "<entity name=\"MetaData\" elementID=\"OrderMetaData\"><attribute name=\"key\" optional=\"YES\" attributeType=\"String\"/></entity>"
            ),
        ])

    package func check(_ diff: ModelDiff, context: RuleContext) -> [ChangeFinding] {
        var findings: [ChangeFinding] = []
        for old in diff.removedEntities {
            guard let id = old.elementID, id != old.name,
                let new = diff.addedEntities.first(where: { $0.name == old.name })
            else { continue }
            findings.append(
                .change(
                    "\(new.name) had the renaming identifier \"\(id)\" in \(diff.from.name) and has \(new.elementID.map { "\"\($0)\"" } ?? "none") in \(diff.to.name): stores that know it as \"\(id)\" no longer match, and its rows are dropped",
                    entity: new))
        }
        for pair in diff.matchedEntities {
            for old in pair.removedProperties {
                guard let id = old.elementID, id != old.name,
                    let new = pair.addedProperties.first(where: { $0.name == old.name })
                else { continue }
                findings.append(
                    .change(
                        "\(pair.new.name).\(new.name) had the renaming identifier \"\(id)\" in \(diff.from.name) and has \(new.elementID.map { "\"\($0)\"" } ?? "none") in \(diff.to.name): stores that know it as \"\(id)\" no longer match, and its data is dropped",
                        entity: pair.new, property: new))
            }
        }
        return findings
    }
}
