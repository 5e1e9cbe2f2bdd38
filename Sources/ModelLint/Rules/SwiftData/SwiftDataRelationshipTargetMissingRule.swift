import ModelLintModel
import ModelLintSwiftData

package struct SwiftDataRelationshipTargetMissingRule: SwiftDataRule {
    package init() {}

    package static let description = RuleDescription(
        id: "swiftdata-relationship-target-missing", category: .swiftData, severity: .error,
        summary: "a model in a schema has a relationship to a type of another schema",
        rationale: """
            A schema's model is the types its `models` list and every type their relationships reach. A \
            relationship whose type is another schema's (`var shelf: V1.Shelf?` inside `V2`) brings that schema's \
            shape into this one: the schema no longer has the shape it declares, its checksum is not the one its \
            stores carry, and a schema that also lists its own copy holds two entities of one name, which SwiftData \
            rejects at launch.
            """,
        fix: "point the relationship at the schema's own type, and list that type in the schema's `models`",
        examples: [
            .swift(
                [
                    (
                        "Schemas.swift",
                        """
                        import SwiftData
                        enum V1: VersionedSchema {
                            static var versionIdentifier = Schema.Version(1, 0, 0)
                            static var models: [any PersistentModel.Type] { [Book.self, Shelf.self] }
                            @Model final class Book { var title: String = ""; var shelf: Shelf?; init() {} }
                            @Model final class Shelf { var code: String = ""; init() {} }
                        }
                        enum V2: VersionedSchema {
                            static var versionIdentifier = Schema.Version(2, 0, 0)
                            static var models: [any PersistentModel.Type] { [Book.self] }
                            @Model final class Book {
                                var title: String = ""
                                var ↓shelf: V1.Shelf?
                                var note: String?
                                init() {}
                            }
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
                            static var models: [any PersistentModel.Type] { [Book.self, Shelf.self] }
                            @Model final class Book { var title: String = ""; var shelf: Shelf?; init() {} }
                            @Model final class Shelf { var code: String = ""; init() {} }
                        }
                        enum V2: VersionedSchema {
                            static var versionIdentifier = Schema.Version(2, 0, 0)
                            static var models: [any PersistentModel.Type] { [Book.self, Shelf.self] }
                            @Model final class Book { var title: String = ""; var shelf: Shelf?; var note: String?; init() {} }
                            @Model final class Shelf { var code: String = ""; init() {} }
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
        set.schemas.flatMap { schema in
            schema.crossSchemaRelationships.map { cross in
                Finding(
                    "\(schema.name).\(cross.entity).\(cross.property) points at \(cross.destination), a type of another schema: \(schema.name)'s model takes that schema's shape of \(SwiftDataText.name(cross.destination)), not its own",
                    at: cross.at.sourceLocation, entity: cross.entity, property: cross.property, version: schema.name)
            }
        }
    }
}
