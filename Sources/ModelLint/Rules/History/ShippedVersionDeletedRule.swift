import ModelLintModel
import ModelLintHistory

package struct ShippedVersionDeletedRule: HistoryRule {
    package init() {}

    package static let description = RuleDescription(
        id: "shipped-version-deleted", category: .shippedHistory, severity: .error,
        summary: "a shipped version is gone from the bundle",
        rationale: """
            To migrate a store, Core Data needs the model whose hashes match it. Deleting a shipped version (\"it only \
            creates warnings\") leaves every device still on that version with a store no model matches: on older \
            systems the store fails to open.
            """,
        fix: "restore the version folder from version control",
        examples: [
            .history(
                shipped: [
                    ("Near 1", "<entity name=\"Thing\"/>"),
                    (
                        "Near 2",
                        "<entity name=\"Thing\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                ],
                now: [
                    (
                        "Near 2",
                        "<entity name=\"Thing\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    )
                ],
                triggers: true, expectedFile: "Near 1.xcdatamodel"),
            .history(
                shipped: [("Near 1", "<entity name=\"Thing\"/>")],
                now: [
                    ("Near 1", "<entity name=\"Thing\"/>"),
                    (
                        "Near 2",
                        "<entity name=\"Thing\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                ],
                triggers: false),
        ])

    package func check(_ comparisons: [ShippedVersionComparison], bundle: ModelBundle) -> [Finding] {
        comparisons.compactMap { c in
            guard c.status == .deleted else { return nil }
            var finding = Finding(
                "\(c.name) shipped (\(c.source.label)) and is gone from \(bundle.name).xcdatamodeld: stores of \(c.name) can no longer be matched to a model",
                at: c.location, version: c.name)
            // The project still listing the deleted folder is this deletion's consequence: listed under it.
            finding.groups = [ProjectVersionStaleRule.description.id]
            return finding
        }
    }
}
