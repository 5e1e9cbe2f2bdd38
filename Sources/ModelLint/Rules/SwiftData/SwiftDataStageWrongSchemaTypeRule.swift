import ModelLintModel
import ModelLintSwiftData

package struct SwiftDataStageWrongSchemaTypeRule: SwiftDataRule {
    package init() {}

    package static let description = RuleDescription(
        id: "swiftdata-stage-wrong-schema-type", category: .swiftData, severity: .warning,
        summary: "a custom stage's willMigrate or didMigrate uses another schema's model types",
        rationale: """
            A custom stage's `willMigrate` runs on the store as the stage's `fromVersion` wrote it, with that \
            schema's model; `didMigrate` runs after the migration, with `toVersion`'s. A fetch or insert of a type of \
            another schema (often the app's current type through a typealias) asks for an entity shape the context \
            does not have: the fetch fails or the app crashes in the middle of the migration. Read from the closure \
            and from a function it names in the same module.
            """,
        fix: "use the types of the stage's own schemas (`V1.Item` in willMigrate, `V2.Item` in didMigrate)",
        examples: [
            .swift(
                [
                    (
                        "Schemas.swift",
                        """
                        import SwiftData
                        typealias Item = V2.Item
                        enum V1: VersionedSchema {
                            static var versionIdentifier = Schema.Version(1, 0, 0)
                            static var models: [any PersistentModel.Type] { [Item.self] }
                            @Model final class Item { var name: String = ""; init() {} }
                        }
                        enum V2: VersionedSchema {
                            static var versionIdentifier = Schema.Version(2, 0, 0)
                            static var models: [any PersistentModel.Type] { [Item.self] }
                            @Model final class Item { var name: String = ""; var note: String?; init() {} }
                        }
                        enum Plan: SchemaMigrationPlan {
                            static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self] }
                            static var stages: [MigrationStage] { [v1ToV2] }
                            static let v1ToV2 = MigrationStage.custom(
                                fromVersion: V1.self, toVersion: V2.self,
                                willMigrate: { context in
                                    let items = try context.fetch(FetchDescriptor<↓Item>())
                                    for item in items { item.name = item.name.trimmingCharacters(in: .whitespaces) }
                                    try context.save()
                                },
                                didMigrate: nil)
                        }
                        """
                    )
                ], triggers: true),
            .swift(
                [
                    (
                        "Schemas.swift",
                        """
                        import SwiftData
                        typealias Item = V2.Item
                        enum V1: VersionedSchema {
                            static var versionIdentifier = Schema.Version(1, 0, 0)
                            static var models: [any PersistentModel.Type] { [Item.self] }
                            @Model final class Item { var name: String = ""; init() {} }
                        }
                        enum V2: VersionedSchema {
                            static var versionIdentifier = Schema.Version(2, 0, 0)
                            static var models: [any PersistentModel.Type] { [Item.self] }
                            @Model final class Item { var name: String = ""; var note: String?; init() {} }
                        }
                        enum Plan: SchemaMigrationPlan {
                            static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self] }
                            static var stages: [MigrationStage] { [v1ToV2] }
                            static let v1ToV2 = MigrationStage.custom(
                                fromVersion: V1.self, toVersion: V2.self,
                                willMigrate: { context in
                                    let items = try context.fetch(FetchDescriptor<V1.Item>())
                                    for item in items { item.name = item.name.trimmingCharacters(in: .whitespaces) }
                                    try context.save()
                                },
                                didMigrate: trim)
                            static func trim(_ context: ModelContext) throws {
                                for item in try context.fetch(FetchDescriptor<V2.Item>()) { item.note = item.name }
                            }
                        }
                        """
                    )
                ], triggers: false),
        ])

    package func check(_ set: SwiftSchemaSet, context: SwiftDataContext) -> [Finding] {
        var findings: [Finding] = []
        for stage in set.stages where stage.kind == .custom {
            for (closure, expected, uses) in [
                ("willMigrate", stage.from, stage.willMigrateTypes), ("didMigrate", stage.to, stage.didMigrateTypes),
            ] {
                guard let expected, let schema = set.schemas.first(where: { $0.qualifiedName == expected }) else {
                    continue
                }
                for (type, at) in uses where !schema.models.contains(where: { $0.qualifiedName == type }) {
                    let owner =
                        set.schemas.first { type.hasPrefix($0.qualifiedName + ".") }.map { "\($0.name)'s type" }
                        ?? "a type \(schema.name) does not list"
                    let side = closure == "willMigrate" ? "before" : "after"
                    findings.append(
                        Finding(
                            "\(closure) of the stage \(SwiftDataText.name(stage.from ?? "?")) -> \(SwiftDataText.name(stage.to ?? "?")) uses \(type), \(owner): it runs \(side) the migration, with \(schema.name)'s model, which has no such entity shape",
                            at: at.sourceLocation, entity: SwiftDataText.name(type), version: schema.name))
                }
            }
        }
        return findings
    }
}
