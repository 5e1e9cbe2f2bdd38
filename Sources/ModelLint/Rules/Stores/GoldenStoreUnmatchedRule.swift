import ModelLintModel

package struct GoldenStoreUnmatchedRule: StoreRule {
    package init() {}

    package static let description = RuleDescription(
        id: "golden-store-unmatched", category: .build, severity: .warning,
        summary: "a golden store fixture that matches no version",
        rationale: """
            A golden store (a store written by a shipped build, kept to test migrations) proves something only while \
            it matches the version it was written by. When its entity hashes match no version, that version was \
            edited after the fixture was made: the migration test it feeds runs from a model no device has.
            """,
        fix: "re-create the fixture from the shipped build",
        examples: [
            RuleExample.store(
                [
                    (
                        "Near 1",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                    (
                        "Near 2",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"price\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                ], writtenBy: "<entity name=\"Item\"><attribute name=\"title\" attributeType=\"String\"/></entity>",
                golden: true, triggers: true),
            RuleExample.store(
                [
                    (
                        "Near 1",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                    (
                        "Near 2",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"price\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                ],
                writtenBy:
                    "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>",
                golden: true, triggers: false),
        ])

    package func check(_ store: StoreCheck, context: RuleContext) -> [Finding] {
        guard store.isGolden, store.matching.isEmpty else { return [] }
        let nearest =
            store.nearest.map { " (nearest: \($0.version.name), which differs in \(BuildText.list($0.differing)))" }
            ?? ""
        return [
            Finding(
                "the golden store \(store.path) matches no version of \(store.bundle)\(nearest): the migration tests it feeds start from a model no device has",
                at: SourceLocation(file: store.path))
        ]
    }
}
