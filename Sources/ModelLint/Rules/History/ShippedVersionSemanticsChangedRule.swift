import ModelLintModel
import ModelLintHistory

package struct ShippedVersionSemanticsChangedRule: HistoryRule {
    package init() {}

    package static let description = RuleDescription(
        id: "shipped-version-semantics-changed", category: .shippedHistory, severity: .warning,
        summary:
            "a shipped version changed in a way Core Data cannot see (default, delete rule, transformer, renaming identifier, index, validation)",
        rationale: """
            Defaults, delete rules, transformers, renaming identifiers, indexes and validation are not part of the version \
            hashes: stores still match, no migration runs, and the new behaviour applies to data written under the old \
            one (a new transformer decodes old bytes, a new delete rule applies to old objects). The shipped version no \
            longer describes what shipped.
            """,
        fix: "revert the version to what shipped, and make the change in a new version (`modellint new-version`)",
        examples: [
            .history(
                shipped: [
                    (
                        "Near 1",
                        "<entity name=\"Prefs\"><attribute name=\"colors\" optional=\"YES\" attributeType=\"Transformable\" valueTransformerName=\"ColorTransformer\"/></entity>"
                    )
                ],
                now: [
                    (
                        "Near 1",
                        "<entity name=\"Prefs\"><attribute name=\"colors\" optional=\"YES\" attributeType=\"Transformable\" valueTransformerName=\"NSSecureUnarchiveFromData\"/></entity>"
                    )
                ],
                triggers: true, expectedFile: "Near 1.xcdatamodel/contents"),
            .history(
                shipped: [
                    (
                        "Near 1",
                        "<entity name=\"Prefs\"><attribute name=\"colors\" optional=\"YES\" attributeType=\"Transformable\" valueTransformerName=\"\"/></entity>"
                    )
                ],
                now: [
                    (
                        "Near 1",
                        "<entity name=\"Prefs\"><attribute name=\"colors\" optional=\"YES\" attributeType=\"Transformable\"/></entity>"
                    )
                ],
                triggers: false),
        ])

    package func check(_ comparisons: [ShippedVersionComparison], bundle: ModelBundle) -> [Finding] {
        comparisons.compactMap { c in
            guard c.status == .contentChanged else { return nil }
            return Finding(
                "\(c.name) shipped (\(c.source.label)) and was edited in a way its version hashes do not show\(HistoryMessages.list(c.changes)): existing data gets the new behaviour with no migration",
                at: c.location, version: c.name)
        }
    }
}
