import ModelLintModel

package struct StoreVersionUnknownRule: StoreRule {
    package init() {}

    /// The bundle every example's store is judged against: Near 2 adds a price to Near 1's Item.
    private static let bundle = [
        (
            "Near 1",
            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
        ),
        (
            "Near 2",
            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"price\" optional=\"YES\" attributeType=\"String\"/></entity>"
        ),
    ]

    package static let description = RuleDescription(
        id: "store-version-unknown", category: .build, severity: .error,
        summary: "a store whose entity hashes match no version of the bundle",
        rationale: """
            Core Data finds the model that wrote a store by its entity version hashes (Z_METADATA), first among the \
            app's model versions, then in the store itself: a SQLite store written since iOS 11 caches its model \
            (Z_MODELCACHE). When no version of the bundle has the hashes, the store was written by a version that \
            has since been edited, or by one that was deleted. With a cached model it still opens, migrated in one \
            inferred hop from that model (a warning: no mapping model made for its version can apply, and what the \
            hop does is listed with it), unless the app migrates step by step: a step migrator looks the store's \
            version up among the bundle's versions and fails (an error). A cache modellint cannot read is named, \
            with why, and judged no further (a warning). Without a cache there is no source model, and the store \
            does not open (Core Data error 134130, "Can't find model for source store"). A store written by a model the app merges from \
            several bundles holds one version's entities exactly and others besides: a note, naming the other \
            bundle's version when the repository has it.
            """,
        fix: "restore the version that wrote it",
        examples: [
            // Written by a Near 1 that was edited afterwards (title made required): no version has its hashes.
            RuleExample.store(
                bundle,
                writtenBy: "<entity name=\"Item\"><attribute name=\"title\" attributeType=\"String\"/></entity>",
                triggers: true),
            RuleExample.store(
                bundle,
                writtenBy:
                    "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>",
                triggers: false),
            // The same store, caching the model that wrote it: it opens, migrated from that model.
            RuleExample.store(
                bundle,
                writtenBy: "<entity name=\"Item\"><attribute name=\"title\" attributeType=\"String\"/></entity>",
                triggers: true
            ).cachingItsModel().expecting(.warning).expectingMessage(
                "Store.sqlite was written by no version of Near.xcdatamodeld: its entity hashes match none, so Core Data migrates it from the model cached in it (Z_MODELCACHE) and it opens if inferring from that model to Near 2 works (store-migration-fails says when it does not); no mapping model made for its version can apply. The nearest version is Near 2, which differs in Item."
            ),
            // The same store in an app that migrates step by step: the migrator finds no version to start from.
            RuleExample.store(
                bundle,
                writtenBy: "<entity name=\"Item\"><attribute name=\"title\" attributeType=\"String\"/></entity>",
                triggers: true
            ).cachingItsModel().migratingStepByStep().expectingMessage(
                "Store.sqlite was written by no version of Near.xcdatamodeld: its entity hashes match none. Core Data's automatic migration would open it from the model cached in it (Z_MODELCACHE), but this app migrates step by step, and a step migrator looks the store's version up among the bundle's versions: it finds none and fails, as a staged migration does, whose stages start from the bundle's versions. The nearest version is Near 2, which differs in Item."
            ),
        ])

    package func check(_ store: StoreCheck, context: RuleContext) -> [Finding] {
        guard store.matching.isEmpty, !store.isGolden else { return [] }
        let nearest =
            store.nearest.map {
                " The nearest version is \($0.version.name), which differs in \(BuildText.list($0.differing))."
            } ?? ""
        if let merged = store.merged {
            // Not unknown: written by this bundle's version merged with another model's entities.
            let from =
                merged.elsewhere.isEmpty
                ? "another model"
                : BuildText.list(merged.elsewhere.map { "\($0.version) (\($0.bundle))" })
            let whose =
                merged.elsewhere.isEmpty
                ? "come from a model this repository does not have"
                : "are \(BuildText.list(merged.elsewhere.map { $0.version + "'s" }))"
            return [
                Finding(
                    "\(store.path) was written by a model merged from \(merged.version.name) and \(from): its entities of \(merged.version.name) have \(merged.version.name)'s hashes, and its other entities (\(BuildText.list(merged.others))) \(whose). Core Data opens it with the model the app merges (NSManagedObjectModel.mergedModel), so \(store.bundle) alone cannot say what migrating it does.",
                    at: SourceLocation(file: store.path), severity: .note)
            ]
        }
        if store.migratesFromCache, context.migration == .progressive {
            // A step migrator (or a staged migration) starts from one of the bundle's versions: there is none.
            return [
                Finding(
                    "\(store.path) was written by no version of \(store.bundle): its entity hashes match none. Core Data's automatic migration would open it from the model cached in it (Z_MODELCACHE), but this app migrates step by step, and a step migrator looks the store's version up among the bundle's versions: it finds none and fails, as a staged migration does, whose stages start from the bundle's versions.\(nearest)",
                    at: SourceLocation(file: store.path))
            ]
        }
        if store.migratesFromCache, let current = store.current {
            // Core Data's second source: the model the store caches. It opens; what the hop does is listed.
            return [
                Finding(
                    "\(store.path) was written by no version of \(store.bundle): its entity hashes match none, so Core Data migrates it from the model cached in it (Z_MODELCACHE) and it opens if inferring from that model to \(current.name) works (store-migration-fails says when it does not); no mapping model made for its version can apply.\(nearest)",
                    at: SourceLocation(file: store.path), severity: .warning)
            ]
        }
        if let cause = store.unusableModelCache {
            // Core Data reads its own cache: that modellint cannot is no evidence the store fails to open.
            return [
                Finding(
                    "\(store.path) was written by no version of \(store.bundle): its entity hashes match none, so Core Data migrates it from the model cached in it (Z_MODELCACHE); modellint cannot use that model (\(cause)), so whether the store opens and what migrating it does are not judged.\(nearest)",
                    at: SourceLocation(file: store.path), severity: .warning)
            ]
        }
        return [
            Finding(
                "\(store.path) was written by no version of \(store.bundle): its entity hashes match none, so Core Data finds no source model and the store does not open (134130).\(nearest)",
                at: SourceLocation(file: store.path))
        ]
    }
}
