import ModelLintModel
import ModelLintSwiftData

package struct SwiftDataPlanMissingSchemaRule: SwiftDataRule {
    package init() {}

    package static let description = RuleDescription(
        id: "swiftdata-plan-missing-schema", category: .swiftData, severity: .error,
        summary: "a schema a stage or container names is not in the plan's schemas",
        rationale: """
            SwiftData finds the schema that wrote a store among the plan's `schemas`, by checksum. A schema a stage \
            migrates from, or a container opens with, that the list leaves out is one whose stores cannot be \
            migrated: the app dies at launch with 134504 ("Cannot use staged migration with an unknown model \
            version"). A `VersionedSchema` the plan does not list at all, ordered before its newest by \
            `versionIdentifier`, may have shipped: modellint cannot tell, and says so in a note.
            """,
        fix: "add the schema to `schemas`, in order",
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
                            static var schemas: [any VersionedSchema.Type] { [V2.self] }
                            static var stages: [MigrationStage] { [.↓lightweight(fromVersion: V1.self, toVersion: V2.self)] }
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
                    )
                ], triggers: false),
        ])

    package func check(_ set: SwiftSchemaSet, context: SwiftDataContext) -> [Finding] {
        guard set.plan != nil,
            // A plan whose schemas could not all be read says nothing certain about order or what is missing.
            set.unresolvedSchemas.isEmpty
        else { return [] }
        let listed = Set(set.schemas.map(\.qualifiedName))
        let declared = Set(set.unlisted.map(\.qualifiedName))
        var findings: [Finding] = []
        var reported = Set<String>()
        for stage in set.stages {
            for (side, name) in [("from", stage.from), ("to", stage.to)] {
                guard let name, !listed.contains(name), declared.contains(name) else { continue }
                reported.insert(name)
                let short = SwiftDataText.name(name)
                findings.append(
                    Finding(
                        "\(set.name)'s \(stage.kind.rawValue) stage migrates \(side) \(short), which is not in \(set.name).schemas: stores \(short) wrote match no schema of the plan (134504)",
                        at: stage.location.sourceLocation, version: short))
            }
        }
        for container in set.containers {
            guard let name = container.schema, !listed.contains(name), declared.contains(name),
                reported.insert(name).inserted
            else { continue }
            let short = SwiftDataText.name(name)
            findings.append(
                Finding(
                    "the container is built with \(short), which is not in \(set.name).schemas: stores it wrote match no schema of the plan (134504)",
                    at: container.location.sourceLocation, version: short))
        }
        if let newest = set.current?.versionTuple, !newest.isEmpty {
            for schema in set.unlisted where !reported.contains(schema.qualifiedName) {
                guard !schema.versionTuple.isEmpty, schema.versionTuple.lexicographicallyPrecedes(newest) else {
                    continue
                }
                findings.append(
                    Finding(
                        "\(schema.name) (version \(schema.versionIdentifier ?? "?")) is not in \(set.name).schemas, and its versionIdentifier orders it before \(set.current?.name ?? "the newest"): if a release shipped it, its stores match no schema (134504); modellint cannot tell whether it shipped",
                        at: schema.location.sourceLocation, severity: .note, version: schema.name))
            }
        }
        return findings
    }
}
