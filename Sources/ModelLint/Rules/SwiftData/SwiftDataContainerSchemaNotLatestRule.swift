import ModelLintModel
import ModelLintSwiftData

package struct SwiftDataContainerSchemaNotLatestRule: SwiftDataRule {
    package init() {}

    package static let description = RuleDescription(
        id: "swiftdata-container-schema-not-latest", category: .swiftData, severity: .error,
        summary: "the app builds its container from a schema that is not the plan's newest, or without the plan",
        rationale: """
            The container's schema is the one stores are migrated to. Built from an older schema than the plan's \
            newest, it asks SwiftData to migrate stores backwards (or leaves the newest schema's stores \
            unreadable); built from model types with no `migrationPlan:` while versioned schemas exist, it migrates \
            by inference alone and never runs the plan's custom stages. Containers in test targets and in `#if \
            DEBUG` branches are not the app's and are not judged.
            """,
        fix: "build the container from the newest schema's types with `migrationPlan:` naming the plan",
        examples: [
            .swift(
                [
                    (
                        "Schemas.swift",
                        """
                        import SwiftData
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
                            static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: V2.self)] }
                        }
                        """
                    ),
                    (
                        "App.swift",
                        """
                        import SwiftData
                        let container = try! ↓ModelContainer(for: Schema(versionedSchema: V1.self), migrationPlan: Plan.self)
                        """
                    ),
                ], triggers: true),
            .swift(
                [
                    (
                        "Schemas.swift",
                        """
                        import SwiftData
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
                            static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: V2.self)] }
                        }
                        """
                    ),
                    (
                        "App.swift",
                        """
                        import SwiftData
                        let container = try! ModelContainer(for: Schema(versionedSchema: V2.self), migrationPlan: Plan.self)
                        #if DEBUG
                        let preview = try! ModelContainer(for: V1.Item.self)
                        #endif
                        """
                    ),
                ], triggers: false),
        ])

    package func check(_ set: SwiftSchemaSet, context: SwiftDataContext) -> [Finding] {
        guard set.plan != nil, let newest = set.current,
            // A plan whose schemas could not all be read says nothing certain about order or what is missing.
            set.unresolvedSchemas.isEmpty
        else { return [] }
        var findings: [Finding] = []
        for container in set.containers {
            let what = container.isSchemaOnly ? "Schema(versionedSchema:)" : "the container"
            if let schema = container.schema, schema != newest.qualifiedName,
                set.schemas.contains(where: { $0.qualifiedName == schema })
            {
                findings.append(
                    Finding(
                        "\(what) is built from \(SwiftDataText.name(schema)), not \(set.name)'s newest schema \(newest.name): stores are migrated to \(SwiftDataText.name(schema)), and stores \(newest.name) wrote cannot be opened",
                        at: container.location.sourceLocation, version: newest.name))
                continue
            }
            if container.schema == nil, !container.models.isEmpty {
                let owners = Set(
                    container.models.compactMap { model in
                        set.schemas.first { schema in schema.models.contains { $0.qualifiedName == model && !$0.isLive }
                        }?
                        .qualifiedName
                    })
                if let older = owners.first(where: { $0 != newest.qualifiedName }) {
                    findings.append(
                        Finding(
                            "the container is built from \(SwiftDataText.name(older))'s types, not \(set.name)'s newest schema \(newest.name): stores are migrated to \(SwiftDataText.name(older)), and stores \(newest.name) wrote cannot be opened",
                            at: container.location.sourceLocation, version: newest.name))
                    continue
                }
            }
            if !container.isSchemaOnly, container.plan == nil, set.schemas.count > 1,
                container.schema != nil || !container.models.isEmpty
            {
                findings.append(
                    Finding(
                        "the container is built without migrationPlan: while \(set.name) has \(set.schemas.count) schemas: SwiftData migrates by inference alone and never runs the plan's stages",
                        at: container.location.sourceLocation, version: newest.name))
            }
        }
        return findings
    }
}
