import ModelLintModel
import ModelLintDiff

package struct RedundantVersionRule: ChangeRule {
    package init() {}
    package static let adjacentOnly = true

    package static let description = RuleDescription(
        id: "redundant-version", category: .changes, severity: .note,
        summary: "a version whose content is identical to its predecessor's",
        rationale: """
            Two adjacent versions with the same content (everything but tooling metadata: tools and system versions, the \
            diagram layout, element and attribute order, `syncable`) are one model under two names. It is usually a \
            version added for a change that was never made, or a copy left behind.
            """,
        fix: "remove it if it never shipped, or make the change it was meant for",
        examples: [
            RuleExample(
                versions: [
                    (
                        "Near 1",
                        .model(
                            "<entity name=\"Thing\" syncable=\"YES\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"b\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        )
                    ),
                    (
                        "Near 2",
                        .model(
                            "<entity name=\"Thing\"><attribute name=\"b\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>\n<elements><element name=\"Thing\" positionX=\"1\" positionY=\"2\" width=\"3\" height=\"4\"/></elements>"
                        )
                    ),
                ],
                triggers: true, expectedFile: "Near 2.xcdatamodel/contents"
            ).aboutUnchanged(),
            .passing(
                before:
                    "<entity name=\"Thing\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>",
                after:
                    "<entity name=\"Thing\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\" defaultValueString=\"x\"/></entity>"
            ).aboutUnchanged(),
        ])

    package func check(_ diff: ModelDiff, context: RuleContext) -> [ChangeFinding] {
        // The diff already shows most differences; the full comparison runs only when it shows none.
        guard diff.addedEntities.isEmpty, diff.removedEntities.isEmpty,
            diff.matchedEntities.allSatisfy({
                $0.facets.isEmpty && $0.addedProperties.isEmpty && $0.removedProperties.isEmpty
                    && $0.becameTransient.isEmpty && $0.kindChanged.isEmpty
                    && $0.changedProperties.isEmpty
            }),
            Fingerprint.content(diff.from.model) == Fingerprint.content(diff.to.model)
        else { return [] }
        return [
            .aboutVersions(
                "\(diff.to.name) has the same content as \(diff.from.name) (only tooling metadata differs): one model under two names",
                at: diff.to.model.location)
        ]
    }
}
