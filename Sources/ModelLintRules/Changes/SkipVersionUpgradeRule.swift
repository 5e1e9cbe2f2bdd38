import ModelLintModel

/// Described here, produced by the linter: it needs the findings of every pair, not one diff.
public struct SkipVersionUpgradeRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        id: "skip-version-upgrade", category: .changes, severity: .error,
        summary: "a problem that appears only when an older version migrates directly to the current one",
        rationale: """
            Core Data has no notion of version order: a store of any older version is migrated in one hop to the \
            current model (NSPersistentContainer's default). A user who skipped updates gets an inferred mapping between \
            versions that were never adjacent. Example that passes every adjacent check and still bricks the store: v1 \
            `price: String`, v2 removes `price`, v3 adds `price: Integer 64`; a v1 store maps `price` to `price` and the \
            types are incompatible. Reported once per problem, at the severity of the underlying rule, listing every \
            affected older version.
            """,
        fix: "keep identifiers and types consistent across the whole history (give a reused name a new Renaming ID), or migrate progressively (`--migration progressive` once the app steps through versions)",
        examples: [
            RuleExample(
                versions: [
                    ("Near 1", .model("<entity name=\"Item\"><attribute name=\"price\" optional=\"YES\" attributeType=\"String\"/></entity>")),
                    ("Near 2", .model("<entity name=\"Item\"/>")),
                    ("Near 3", .model("<entity name=\"Item\">↓<attribute name=\"price\" optional=\"YES\" attributeType=\"Integer 64\" usesScalarValueType=\"YES\"/></entity>")),
                ],
                triggers: true),
            RuleExample(
                versions: [
                    ("Near 1", .model("<entity name=\"Item\"><attribute name=\"price\" optional=\"YES\" attributeType=\"String\"/></entity>")),
                    ("Near 2", .model("<entity name=\"Item\"/>")),
                    ("Near 3", .model("<entity name=\"Item\"><attribute name=\"amount\" optional=\"YES\" attributeType=\"Integer 64\" usesScalarValueType=\"YES\"/></entity>")),
                ],
                triggers: false),
        ])
}
