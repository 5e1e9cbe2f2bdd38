import ModelLintSupport
import ModelLintModel
import ModelLintSwiftData

package struct SwiftDataLiveTypeInHistoricalSchemaRule: SwiftDataRule {
    package init() {}

    package static let description = RuleDescription(
        id: "swiftdata-live-type-in-historical-schema", category: .swiftData, severity: .warning,
        summary: "a schema that is not the newest lists a @Model type declared outside it",
        rationale: """
            A `VersionedSchema`'s checksum is computed from the types its `models` resolve to. A type declared \
            outside every schema is live: it has the shape the current source gives it. When a later release adds a \
            property to it, every schema that lists it changes its checksum too, and stores written by the release \
            that shipped the older schema match no schema of the plan: the app dies at launch with 134504 ("Cannot \
            use staged migration with an unknown model version"). Only the newest schema may list live types. When \
            history (`--released`, `--against`) shows the live type has already changed since the schema shipped, \
            the crash is no longer a risk but a fact, and the finding is an error naming what changed.
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
            RuleExample.swift(
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
                            @Model final class Tag { var label: String = ""; init() {} }
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
                    @Model final class Item {
                        var name: String = ""
                        init() {}
                    }
                    enum V1: VersionedSchema {
                        static var versionIdentifier = Schema.Version(1, 0, 0)
                        static var models: [any PersistentModel.Type] { [Item.self] }
                    }
                    enum Plan: SchemaMigrationPlan {
                        static var schemas: [any VersionedSchema.Type] { [V1.self] }
                        static var stages: [MigrationStage] { [] }
                    }
                    """
                )
            ]).expecting(.error)
                .expectingMessage(
                    "V1 lists Item, a live @Model type declared outside it (Schemas.swift:2), and Item has changed since V1 shipped (release v1.0): rating added. Stores written by the release that shipped V1 match no schema now (134504)"
                ),
        ])

    package func check(_ set: SwiftSchemaSet, context: SwiftDataContext) -> [Finding] {
        // An unversioned app's model at a revision is history, not a schema that lists anything.
        guard set.schemas.count > 1, !set.isUnversioned else { return [] }
        var findings: [Finding] = []
        for schema in set.schemas.dropLast() {
            for type in schema.models where type.isLive {
                let at = schema.listing[type.qualifiedName] ?? schema.location
                let reached = schema.listing[type.qualifiedName] == nil ? " (reached through a relationship)" : ""
                if let shipped = context.shipped[schema.name],
                    let changes = Self.changes(of: type.entityName, in: schema.model, since: shipped)
                {
                    var finding = Finding(
                        "\(schema.name) lists \(type.qualifiedName)\(reached), a live @Model type declared outside it (\(SwiftDataText.place(type.location))), and \(type.entityName) has changed since \(schema.name) shipped (\(shipped.source.label))\(changes). Stores written by the release that shipped \(schema.name) match no schema now (134504)",
                        at: at.sourceLocation, entity: type.entityName, severity: .error, version: schema.name)
                    // The change that made the risk a crash is a problem of its own: new in the change that made it.
                    finding.identity = "\(type.entityName)|changed since shipped"
                    findings.append(finding)
                    continue
                }
                findings.append(
                    Finding(
                        "\(schema.name) lists \(type.qualifiedName)\(reached), a live @Model type declared outside it (\(SwiftDataText.place(type.location))): when \(type.entityName) changes, \(schema.name)'s checksum changes with it and stores written by the release that shipped \(schema.name) match no schema (134504)",
                        at: at.sourceLocation, entity: type.entityName, version: schema.name))
            }
        }
        return findings
    }

    /// Which properties of an entity were added, removed or changed (by Core Data's property hashes), in words;
    /// nil when none did (the entity itself changed: a constraint, a modifier).
    static func propertyChanges(from before: Entity, to after: Entity) -> String? {
        func hashes(_ e: Entity) -> [String: [UInt8]] {
            Dictionary(e.properties.map { ($0.name, CoreDataHash.hash(of: $0, declaredBy: e.name)) }) { a, _ in a }
        }
        let (old, new) = (hashes(before), hashes(after))
        var parts: [String] = []
        let added = new.keys.filter { old[$0] == nil }.sorted()
        let removed = old.keys.filter { new[$0] == nil }.sorted()
        let changed = new.keys.filter { old[$0] != nil && old[$0] != new[$0] }.sorted()
        if !added.isEmpty { parts.append(ReportText.list(added) + " added") }
        if !removed.isEmpty { parts.append(ReportText.list(removed) + " removed") }
        if !changed.isEmpty { parts.append(ReportText.list(changed) + " changed") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// How the entity differs from the shipped record (": a added, b changed"), or nil when its hash is the same.
    static func changes(of entity: String, in now: Model, since shipped: SwiftDataContext.Shipped) -> String? {
        let hash = now.versionHashes.base64(entity)
        if let model = shipped.model {
            guard model.versionHashes.base64(entity) != hash else { return nil }
            guard let before = model.entity(named: entity), let after = now.entity(named: entity),
                let described = propertyChanges(from: before, to: after)
            else { return "" }
            return ": " + described
        }
        guard let recorded = shipped.digest.entityHashes?[entity], recorded != hash else { return nil }
        return ""
    }
}
