import ModelLintModel
import ModelLintHistory

package struct ShippedVersionEditedRule: HistoryRule {
    package init() {}

    package static let description = RuleDescription(
        id: "shipped-version-edited", category: .shippedHistory, severity: .error,
        summary: "a shipped version's schema changed in place",
        rationale: """
            Stores written by a shipped version record its version hashes. Editing that version's schema changes the \
            hashes, so those stores no longer match any model in the app: custom mapping models and staged-migration \
            checksums keyed to it stop working, and the store may fail to open after the update. Checked against \
            `modellint.lock` and `--released REF`; re-saving in a newer Xcode is not an edit.
            """,
        fix: "revert the version to what shipped, and make the change in a new version (`modellint new-version`)",
        examples: [
            .history(
                shipped: [
                    (
                        "Near 1",
                        "<entity name=\"Thing\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    )
                ],
                now: [
                    (
                        "Near 1",
                        "<entity name=\"Thing\"><attribute name=\"title\" attributeType=\"String\" defaultValueString=\"\"/></entity>"
                    ),
                    (
                        "Near 2",
                        "<entity name=\"Thing\"><attribute name=\"title\" attributeType=\"String\" defaultValueString=\"\"/></entity>"
                    ),
                ],
                triggers: true, expectedFile: "Near 1.xcdatamodel/contents"),
            .history(
                shipped: [
                    (
                        "Near 1",
                        "<entity name=\"Thing\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"b\" optional=\"YES\" attributeType=\"Date\"/></entity>"
                    )
                ],
                now: [
                    (
                        "Near 1",
                        "<entity name=\"Thing\" syncable=\"YES\"><attribute name=\"b\" optional=\"YES\" attributeType=\"Date\"/><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>\n<elements><element name=\"Thing\" positionX=\"0\" positionY=\"0\" width=\"128\" height=\"60\"/></elements>"
                    )
                ],
                triggers: false),
        ])

    package func check(_ comparisons: [ShippedVersionComparison], bundle: ModelBundle) -> [Finding] {
        // A SwiftData schema's edit is swiftdata-frozen-schema-edited's.
        guard bundle.source == .xcdatamodeld else { return [] }
        return comparisons.compactMap { c in
            guard c.status == .schemaChanged, !c.source.isAgainst else { return nil }
            return Finding(
                "\(c.name) shipped (\(c.source.label)) and its schema was edited in place\(HistoryMessages.list(c.changes)): stores written by \(c.name) no longer match it",
                at: c.location, version: c.name)
        }
    }
}
