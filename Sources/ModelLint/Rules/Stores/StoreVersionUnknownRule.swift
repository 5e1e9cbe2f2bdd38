import ModelLintModel

public struct StoreVersionUnknownRule: StoreRule {
    public init() {}

    public static let description = RuleDescription(
        id: "store-version-unknown", category: .build, severity: .error,
        summary: "a store whose entity hashes match no version of the bundle",
        rationale: """
            Core Data finds the model that wrote a store by its entity version hashes (Z_METADATA). When no version \
            of the bundle has them, there is no source model: the store cannot be migrated and does not open \
            (Core Data error 134130, "Can't find model for source store"). It was written by a version that has \
            since been edited, or by one that was deleted.
            """,
        fix: "restore the version that wrote it",
        examples: [
            // Written by a Near 1 that was edited afterwards (title made required): no version has its hashes.
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
                triggers: true),
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
                triggers: false),
        ])

    public func check(_ store: StoreCheck, context: RuleContext) -> [Finding] {
        guard store.matching.isEmpty, !store.isGolden else { return [] }
        var nearest =
            store.nearest.map {
                " The nearest version is \($0.version.name), which differs in \(BuildText.list($0.differing))."
            } ?? ""
        if store.metadata.cachedModel != nil, let current = store.current {
            nearest +=
                " The store caches the model that wrote it (Z_MODELCACHE): `modellint store` diffs it against \(current.name)."
        }
        return [
            Finding(
                "\(store.path) was written by no version of \(store.bundle): its entity hashes match none, so Core Data finds no source model and the store does not open (134130).\(nearest)",
                at: SourceLocation(file: store.path))
        ]
    }
}
