import ModelLintModel
import ModelLintHistory

package struct VersionEditedAfterSupersededRule: HistoryRule {
    package init() {}

    package static let description = RuleDescription(
        id: "version-edited-after-superseded", category: .shippedHistory, severity: .error,
        summary:
            "with `--against`: a version that was already older than the current one at the base revision had its schema edited",
        rationale: """
            At the base revision this version had already been superseded by a newer current version, so it has most \
            likely shipped. Editing its schema changes its version hashes, and stores written by it stop matching. A \
            hash-neutral edit of such a version is reported as `shipped-version-semantics-changed`.
            """,
        fix: "revert it, and make the change in the current version",
        examples: [
            .history(
                shipped: [
                    (
                        "Near 1",
                        "<entity name=\"Thing\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    )
                ],
                now: [
                    (
                        "Near 1",
                        "<entity name=\"Thing\"><attribute name=\"a\" optional=\"YES\" attributeType=\"Integer 64\" usesScalarValueType=\"YES\"/></entity>"
                    ),
                    (
                        "Near 2",
                        "<entity name=\"Thing\"><attribute name=\"a\" optional=\"YES\" attributeType=\"Integer 64\" usesScalarValueType=\"YES\"/></entity>"
                    ),
                ],
                source: .against("origin/main"), triggers: true, expectedFile: "Near 1.xcdatamodel/contents"),
            .history(
                shipped: [
                    (
                        "Near 1",
                        "<entity name=\"Thing\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\" defaultValueString=\"x\"/></entity>"
                    )
                ],
                now: [
                    (
                        "Near 1",
                        "<entity name=\"Thing\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\" defaultValueString=\"y\"/></entity>"
                    ),
                    (
                        "Near 2",
                        "<entity name=\"Thing\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                ],
                source: .against("origin/main"), triggers: false),
        ])

    package func check(_ comparisons: [ShippedVersionComparison], bundle: ModelBundle) -> [Finding] {
        // A SwiftData schema's edit is swiftdata-frozen-schema-edited's.
        guard bundle.source == .xcdatamodeld else { return [] }
        return comparisons.compactMap { c in
            guard c.status == .schemaChanged, c.source.isAgainst else { return nil }
            return Finding(
                "\(c.name) was already superseded at \(c.source.label) and its schema was edited\(HistoryMessages.list(c.changes)): stores written by \(c.name) no longer match it",
                at: c.location, version: c.name)
        }
    }
}
