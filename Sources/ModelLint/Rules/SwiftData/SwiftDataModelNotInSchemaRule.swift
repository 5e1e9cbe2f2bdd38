import ModelLintModel
import ModelLintSwiftData

package struct SwiftDataModelNotInSchemaRule: SwiftDataRule {
    package init() {}

    package static let description = RuleDescription(
        id: "swiftdata-model-not-in-schema", category: .swiftData, severity: .warning,
        summary: "the app fetches, queries or inserts a @Model type no schema has",
        rationale: """
            With versioned schemas, a store's model is one of its schemas': their listed types and the types their \
            relationships reach. A `@Model` type the app fetches (`FetchDescriptor<X>`), queries (`@Query var x: \
            [X]`) or inserts (`.insert(X(…))`) that no schema has is no entity of any store: the fetch fails, or the \
            insert crashes, at run time. (An older schema's type is a migration stage's to use, and not this rule's \
            concern.) Read when the module holds one plan.
            """,
        fix: "list the type in the newest schema's `models` (and add a stage to it), or use the schema's own type",
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
                        enum Plan: SchemaMigrationPlan {
                            static var schemas: [any VersionedSchema.Type] { [V1.self] }
                            static var stages: [MigrationStage] { [] }
                        }
                        typealias Item = V1.Item
                        @Model final class Draft { var text: String = ""; init() {} }
                        """
                    ),
                    (
                        "Drafts.swift",
                        """
                        import SwiftData
                        func drafts(_ context: ModelContext) throws -> Int {
                            try context.fetch(FetchDescriptor<↓Draft>()).count
                        }
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
                            static var models: [any PersistentModel.Type] { [Item.self, Draft.self] }
                            @Model final class Item { var name: String = ""; init() {} }
                            @Model final class Draft { var text: String = ""; init() {} }
                        }
                        enum Plan: SchemaMigrationPlan {
                            static var schemas: [any VersionedSchema.Type] { [V1.self] }
                            static var stages: [MigrationStage] { [] }
                        }
                        typealias Item = V1.Item
                        typealias Draft = V1.Draft
                        """
                    ),
                    (
                        "Drafts.swift",
                        """
                        import SwiftData
                        import SwiftUI
                        struct DraftList: View {
                            @Query(sort: \\Draft.text) var drafts: [Draft]
                            @Environment(\\.modelContext) private var context
                            var body: some View { Button("New") { context.insert(Draft()) } }
                        }
                        """
                    ),
                ], triggers: false),
        ])

    package func check(_ set: SwiftSchemaSet, context: SwiftDataContext) -> [Finding] {
        guard !set.isUnversioned, let newest = set.current else { return [] }
        let known = Set(set.schemas.flatMap { $0.models.map(\.qualifiedName) })
        var reported = Set<String>()
        return set.usedModelTypes.compactMap { use in
            guard !known.contains(use.type), reported.insert("\(use.type)|\(use.at.file):\(use.at.line)").inserted
            else { return nil }
            let name = use.type.split(separator: ".").last.map(String.init) ?? use.type
            return Finding(
                "the app uses \(use.type), which no schema of \(set.name) lists or reaches (its newest is \(newest.name)): the store has no \(name) entity, and the fetch or insert fails at run time",
                at: use.at.sourceLocation, entity: name, version: newest.name)
        }
    }
}
