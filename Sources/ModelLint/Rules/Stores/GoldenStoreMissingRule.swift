import ModelLintModel

package struct GoldenStoreMissingRule: StoreRule {
    package init() {}

    package static let description = RuleDescription(
        id: "golden-store-missing", category: .build, severity: .note,
        summary: "shipped versions that no golden store covers",
        rationale: """
            The surest test of a migration is a store written by each old app version, migrated by the current \
            build. With golden stores configured (`goldenStores`), the shipped versions none of them was written by \
            are the migrations nothing tests.
            """,
        fix: "add golden stores for them",
        examples: [
            RuleExample.store(
                [
                    ("Near 1", "<entity name=\"Item\"/>"),
                    (
                        "Near 2",
                        "<entity name=\"Item\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                    (
                        "Near 3",
                        "<entity name=\"Item\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"b\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                ],
                writtenBy: "<entity name=\"Item\"/>", golden: true, triggers: true,
                expectedFile: "Near 2.xcdatamodel/contents"),
            RuleExample.store(
                [
                    ("Near 1", "<entity name=\"Item\"/>"),
                    (
                        "Near 2",
                        "<entity name=\"Item\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                ],
                writtenBy: "<entity name=\"Item\"/>", golden: true, triggers: false),
        ])

    /// Judged once per bundle, on the last of its golden stores (`coveredVersions` holds what all of them cover).
    package func check(_ store: StoreCheck, context: RuleContext) -> [Finding] {
        guard store.isGolden, store.isLastGolden, let current = store.current else { return [] }
        let shipped = store.versions.prefix { $0.name != current.name }
        let missing = shipped.filter { !store.coveredVersions.contains($0.name) }
        guard let first = missing.first else { return [] }
        return [
            Finding(
                "no golden store was written by \(BuildText.list(missing.map(\.name))): their migrations to \(current.name) are tested by nothing",
                at: SourceLocation(file: first.contentsPath), version: first.name)
        ]
    }
}
