import ModelLintModel
import ModelLintHistory
import ModelLintSwiftData

package struct SwiftDataFrozenSchemaEditedRule: SwiftDataRule {
    package init() {}

    package static let description = RuleDescription(
        id: "swiftdata-frozen-schema-edited", category: .swiftData, severity: .error,
        summary: "a shipped VersionedSchema's shape changed",
        rationale: """
            Stores written by the release that shipped a schema carry its entity hashes, and SwiftData finds their \
            schema in the plan by checksum. A shipped schema whose types were edited afterwards (a property added \
            to a frozen copy, or to a live type it lists) no longer has that checksum: those stores match no schema \
            and the app dies at launch with 134504 ("Cannot use staged migration with an unknown model version"). \
            Checked against the lock file, `--released REF` and `--against REF` (the schemas before REF's newest). \
            In a schema older than the newest, a change that comes from a live type it lists is \
            swiftdata-live-type-in-historical-schema's to report; the newest schema's live types are its own. An app \
            without versioned schemas evolves its one model in place and is not judged by this rule.
            """,
        fix: "revert the schema to the shape that shipped, and make the change in a new schema with a stage to it",
        examples: [
            RuleExample.swift(
                [
                    (
                        "Schemas.swift",
                        """
                        import SwiftData
                        ↓enum V1: VersionedSchema {
                            static var versionIdentifier = Schema.Version(1, 0, 0)
                            static var models: [any PersistentModel.Type] { [Item.self] }
                            @Model final class Item { var name: String = ""; var note: String?; init() {} }
                        }
                        enum V2: VersionedSchema {
                            static var versionIdentifier = Schema.Version(2, 0, 0)
                            static var models: [any PersistentModel.Type] { [Item.self] }
                            @Model final class Item { var name: String = ""; var note: String?; var done: Bool = false; init() {} }
                        }
                        enum Plan: SchemaMigrationPlan {
                            static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self] }
                            static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: V2.self)] }
                        }
                        """
                    )
                ], triggers: true
            ).shipped(swift: [
                (
                    "Schemas.swift",
                    """
                    import SwiftData
                    enum V1: VersionedSchema {
                        static var versionIdentifier = Schema.Version(1, 0, 0)
                        static var models: [any PersistentModel.Type] { [Item.self] }
                        @Model final class Item { var name: String = ""; init() {} }
                    }
                    enum Plan: SchemaMigrationPlan {
                        static var schemas: [any VersionedSchema.Type] { [V1.self] }
                        static var stages: [MigrationStage] { [] }
                    }
                    """
                )
            ]),
            RuleExample.swift(
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
                ], triggers: false
            ).shipped(swift: [
                (
                    "Schemas.swift",
                    """
                    import SwiftData
                    enum V1: VersionedSchema {
                        static var versionIdentifier = Schema.Version(1, 0, 0)
                        static var models: [any PersistentModel.Type] { [Item.self] }
                        @Model final class Item { var name: String = ""; init() {} }
                    }
                    enum Plan: SchemaMigrationPlan {
                        static var schemas: [any VersionedSchema.Type] { [V1.self] }
                        static var stages: [MigrationStage] { [] }
                    }
                    """
                )
            ]),
        ])

    package func check(_ set: SwiftSchemaSet, context: SwiftDataContext) -> [Finding] {
        guard !set.isUnversioned else { return [] }
        return set.schemas.compactMap { schema in
            guard let shipped = context.shipped[schema.name] else { return nil }
            // A live type's change in an older schema is swiftdata-live-type-in-historical-schema's to report; in the
            // newest schema, which may list live types, it is this schema's own edit.
            let isNewest = schema.qualifiedName == set.current?.qualifiedName
            let live = isNewest ? [] : Set(schema.models.filter(\.isLive).map(\.entityName))
            let now = schema.model.versionHashes
            let then: [String: String]
            if let model = shipped.model {
                var hashes: [String: String] = [:]
                for name in model.versionHashes.orderedNames { hashes[name] = model.versionHashes.base64(name) }
                then = hashes
            } else if let recorded = shipped.digest.entityHashes {
                then = recorded
            } else {
                return nil
            }
            var changes: [String] = []
            for name in Set(then.keys).union(now.entities.keys).sorted() where !live.contains(name) {
                let before = then[name]
                let after = now.base64(name)
                guard before != after else { continue }
                if before == nil {
                    changes.append("\(name) added")
                } else if after == nil {
                    changes.append("\(name) removed")
                } else if let old = shipped.model.flatMap({ $0.entity(named: name) }),
                    let new = schema.model.entity(named: name),
                    let described = SwiftDataLiveTypeInHistoricalSchemaRule.propertyChanges(from: old, to: new)
                {
                    changes.append("\(name): \(described)")
                } else {
                    changes.append("\(name) changed")
                }
            }
            guard !changes.isEmpty else { return nil }
            return Finding(
                "\(schema.name) shipped (\(shipped.source.label)) and its shape changed since (\(changes.joined(separator: "; "))): stores written by the release that shipped it match no schema of the plan (134504)",
                at: schema.location.sourceLocation, version: schema.name)
        }
    }
}
