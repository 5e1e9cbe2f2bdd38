import ModelLintModel

package struct StoreMigrationFailsRule: StoreRule {
    package init() {}

    package static let description = RuleDescription(
        id: "store-migration-fails", category: .build, severity: .error,
        summary: "a store whose migration to the current version meets an error",
        rationale: """
            A store of a known version is migrated to the current one when it opens (in one hop in direct mode, step \
            by step in progressive mode). A store no version wrote is migrated in one hop from the model it caches \
            (Z_MODELCACHE). When that migration meets an error-severity change finding, this store, and every \
            device holding one like it, fails to migrate or loses data.
            """,
        fix:
            "fix the underlying finding (listed with it), or add a mapping model or a custom migration stage for that step",
        swiftDataFix:
            "fix the underlying finding (listed with it), or make that step a `.custom` stage whose `willMigrate` prepares the data the inferred migration cannot carry",
        examples: [
            // A Near 1 store meets price's type change on its way to Near 3 (in one hop, as Core Data migrates).
            RuleExample.store(
                [
                    (
                        "Near 1",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"price\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                    (
                        "Near 2",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                    (
                        "Near 3",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"price\" optional=\"YES\" attributeType=\"Integer 64\" usesScalarValueType=\"YES\"/></entity>"
                    ),
                ],
                writtenBy:
                    "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"price\" optional=\"YES\" attributeType=\"String\"/></entity>",
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
            // Written by a Near 1 that was edited since: migrated from its cached model, it meets title becoming
            // required without a default.
            RuleExample.store(
                [
                    (
                        "Near 1",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"note\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                    ("Near 2", "<entity name=\"Item\"><attribute name=\"title\" attributeType=\"String\"/></entity>"),
                ],
                writtenBy:
                    "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>",
                triggers: true
            ).cachingItsModel().expectingMessage(
                "Store.sqlite was written by no version of Near.xcdatamodeld; migrating it from the model cached in it (Z_MODELCACHE) to Near 2 meets 1 error (required-attribute-without-default), listed with it"
            ),
        ])

    package func check(_ store: StoreCheck, context: RuleContext) -> [Finding] {
        let errors = store.migration.filter { $0.severity == .error }
        guard let current = store.current, !errors.isEmpty else { return [] }
        let rules = Array(Set(errors.map(\.ruleId))).sorted()
        let meets =
            "meets \(errors.count) error\(errors.count == 1 ? "" : "s") (\(rules.joined(separator: ", "))), listed with it"
        if let version = store.matching.first {
            return [
                Finding(
                    "\(store.path) was written by \(version.name); migrating it to \(current.name) \(meets)",
                    at: SourceLocation(file: store.path), version: version.name)
            ]
        }
        guard store.migratesFromCache else { return [] }
        return [
            Finding(
                "\(store.path) was written by no version of \(store.bundle); migrating it from the model cached in it (Z_MODELCACHE) to \(current.name) \(meets)",
                at: SourceLocation(file: store.path))
        ]
    }
}
