import ModelLintModel
import ModelLintSwiftData

public struct SwiftDataLiveTypeInHistoricalSchemaRule: SwiftDataRule {
    public init() {}

    public static let description = RuleDescription(
        id: "swiftdata-live-type-in-historical-schema", category: .swiftData, severity: .warning,
        summary: "a schema that is not the newest lists a @Model type declared outside it",
        rationale: """
            A `VersionedSchema`'s checksum is computed from the types its `models` resolve to. A type declared \
            outside every schema is live: it has the shape the current source gives it. When a later release adds a \
            property to it, every schema that lists it changes its checksum too, and stores written by the release \
            that shipped the older schema match no schema of the plan: the app dies at launch with 134504 ("Cannot \
            use staged migration with an unknown model version"). Only the newest schema may list live types.
            """,
        fix:
            "declare a frozen copy of the type inside the schema (`enum V1: VersionedSchema { @Model final class Item { … } }`) with the shape that shipped",
        examples: [
            .swift(
                [
                    (
                        "Schemas.swift",
                        """
                        import SwiftData
                        @Model final class Item {
                            var name: String = ""
                            var rating: Int = 0
                            init() {}
                        }
                        enum V1: VersionedSchema {
                            static var versionIdentifier = Schema.Version(1, 0, 0)
                            static var models: [any PersistentModel.Type] { [↓Item.self] }
                        }
                        enum V2: VersionedSchema {
                            static var versionIdentifier = Schema.Version(2, 0, 0)
                            static var models: [any PersistentModel.Type] { [Item.self] }
                        }
                        enum Plan: SchemaMigrationPlan {
                            static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self] }
                            static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: V2.self)] }
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
                        enum V1: VersionedSchema {
                            static var versionIdentifier = Schema.Version(1, 0, 0)
                            static var models: [any PersistentModel.Type] { [Item.self] }
                            @Model final class Item {
                                var name: String = ""
                                init() {}
                            }
                        }
                        enum V2: VersionedSchema {
                            static var versionIdentifier = Schema.Version(2, 0, 0)
                            static var models: [any PersistentModel.Type] { [Item.self] }
                            @Model final class Item {
                                var name: String = ""
                                var rating: Int = 0
                                init() {}
                            }
                        }
                        enum Plan: SchemaMigrationPlan {
                            static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self] }
                            static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: V2.self)] }
                        }
                        """
                    )
                ], triggers: false),
        ])

    public func check(_ set: SwiftSchemaSet, context: SwiftDataContext) -> [Finding] {
        guard set.schemas.count > 1 else { return [] }
        var findings: [Finding] = []
        for schema in set.schemas.dropLast() {
            for type in schema.models where type.isLive {
                let at = schema.listing[type.qualifiedName] ?? schema.location
                let reached = schema.listing[type.qualifiedName] == nil ? " (reached through a relationship)" : ""
                findings.append(
                    Finding(
                        "\(schema.name) lists \(type.qualifiedName)\(reached), a live @Model type declared outside it (\(SwiftDataText.place(type.location))): when \(type.entityName) changes, \(schema.name)'s checksum changes with it and stores written by the release that shipped \(schema.name) match no schema (134504)",
                        at: at.sourceLocation, entity: type.entityName, version: schema.name))
            }
        }
        return findings
    }
}
