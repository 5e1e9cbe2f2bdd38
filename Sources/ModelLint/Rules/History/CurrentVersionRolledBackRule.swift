import ModelLintModel
import ModelLintHistory

package struct CurrentVersionRolledBackRule: HistoryRule {
    package init() {}

    package static let description = RuleDescription(
        id: "current-version-rolled-back", category: .shippedHistory, severity: .error,
        summary: "the current version is older than a version that already shipped",
        rationale: """
            `.xccurrentversion` names the model the app opens its store with. When it names a version older than one \
            that already shipped (the lock file, `--released` or `--against` records it), the devices whose stores \
            that newer version wrote would need a backward migration, which Core Data does not do: the store does \
            not open after the update. This is what a bad merge or a revert of the pointer does.
            """,
        fix: "point .xccurrentversion back at the newest version; make the change you meant in a new version",
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
                    ("Near 1", "<entity name=\"Thing\"/>"),
                    (
                        "Near 2",
                        "<entity name=\"Thing\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                ],
                triggers: true, expectedFile: ".xccurrentversion"
            ).pointing(at: "Near 1"),
            .history(
                shipped: [("Near 1", "<entity name=\"Thing\"/>")],
                now: [
                    ("Near 1", "<entity name=\"Thing\"/>"),
                    (
                        "Near 2",
                        "<entity name=\"Thing\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                ],
                triggers: false
            ).pointing(at: "Near 1"),
        ])

    package func check(_ comparisons: [ShippedVersionComparison], bundle: ModelBundle) -> [Finding] {
        guard let current = bundle.currentVersionIndex, bundle.declaredCurrentVersion != nil else { return [] }
        let later = comparisons.compactMap { c -> (Int, ShippedVersionComparison)? in
            guard c.status != .deleted, let i = bundle.versions.firstIndex(where: { $0.name.isExactly(c.name) }),
                i > current
            else { return nil }
            return (i, c)
        }
        guard let (_, newest) = later.max(by: { $0.0 < $1.0 }) else { return [] }
        let name = bundle.versions[current].name
        var finding = Finding(
            ".xccurrentversion names \(name), but \(newest.name), which comes after it, already shipped (\(newest.source.label)): stores \(newest.name) wrote would need a backward migration, which Core Data does not do, so they do not open after the update",
            at: SourceLocation(file: bundle.currentVersionFilePath), version: name)
        // Not a version added but not made current: one that shipped and was rolled back.
        finding.supersedes = [("current-version-not-latest", "")]
        return [finding]
    }
}
