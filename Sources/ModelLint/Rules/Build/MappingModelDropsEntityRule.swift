import ModelLintSupport
import ModelLintModel

package struct MappingModelDropsEntityRule: PickedMappingModelRule {
    package init() {}

    private static let items =
        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity><entity name=\"Tag\"><attribute name=\"label\" optional=\"YES\" attributeType=\"String\"/></entity>"
    private static let itemsWithNote =
        "<entity name=\"Item\"><attribute name=\"note\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity><entity name=\"Tag\"><attribute name=\"label\" optional=\"YES\" attributeType=\"String\"/></entity>"

    package static let description = RuleDescription(
        id: "mapping-model-drops-entity", category: .build, severity: .warning,
        summary:
            "a mapping model Core Data picks for a store has no entity mapping for one of the store's entities, whose rows it drops",
        rationale: """
            A mapping model migrates exactly the entities its entity mappings name: Core Data creates the destination \
            store from them, and a source entity no mapping names is not copied — every row of it is gone after the \
            migration, with no error. Xcode makes a mapping for every entity when the mapping model is created; one \
            goes missing when it is deleted in the editor, or when the entity was added to the source version after \
            the mapping model was made (Core Data still picks the mapping model: its recorded hashes are in the \
            version's). Abstract entities have no rows of their own and need none, and an entity the destination \
            version no longer has is the model's own removal (`entity-removed`). Reported once per mapping model and \
            entity, naming the source versions whose stores it migrates.
            """,
        fix:
            "add an entity mapping for it in the mapping model's editor (Xcode adds one when you re-select the source and destination models), or remove the entity in a model version first if dropping its rows is intended",
        examples: [
            RuleExample(
                versions: [("Near 1", .model(items)), ("Near 2", .model(itemsWithNote))], triggers: true,
                expectedFile: "../Near1ToNear2.xcmappingmodel/xcmapping.xml"
            )
            .mapping("Near1ToNear2", from: "Near 1", to: "Near 2", linking: [("Item", "Item")])
            .expectingMessage(
                "Near1ToNear2 has no entity mapping for Tag, an entity of Near 1: Core Data picks it to migrate stores of Near 1, and every Tag row is dropped"
            ),
            RuleExample(versions: [("Near 1", .model(items)), ("Near 2", .model(itemsWithNote))], triggers: false)
                .mapping("Near1ToNear2", from: "Near 1", to: "Near 2", linking: [("Item", "Item"), ("Tag", "Tag")]),
        ])

    package func check(_ mapping: MappingModel, line: VersionLine) -> [Finding] {
        guard let linked = mapping.linkedSources.map(Set.init), let path = mapping.path else { return [] }
        // The source versions it migrates: those it is picked for with a later destination.
        var migrated: [String] = []
        for pair in mapping.forwardPairs(along: line.names) where !migrated.contains(pair.from) {
            migrated.append(pair.from)
        }
        // An entity the destination no longer has is removed by the model itself (entity-removed says so): only one
        // the destination keeps loses rows it was meant to keep.
        guard let destination = line.versions.first(where: { $0.name == mapping.destination })?.model else {
            return []
        }
        let kept = Set(destination.entities.map(\.renamingIdentifier))
        var dropped: [(entity: String, versions: [String])] = []
        for source in migrated {
            guard let model = line.versions.first(where: { $0.name == source })?.model else { continue }
            for entity in model.entities
            where !entity.isAbstract && !linked.contains(entity.name) && kept.contains(entity.renamingIdentifier) {
                if let i = dropped.firstIndex(where: { $0.entity == entity.name }) {
                    dropped[i].versions.append(source)
                } else {
                    dropped.append((entity.name, [source]))
                }
            }
        }
        return dropped.map { entity, versions in
            Finding(
                "\(mapping.name) has no entity mapping for \(entity), an entity of \(ReportText.list(versions)): Core Data picks it to migrate stores of \(ReportText.list(versions)), and every \(entity) row is dropped",
                at: SourceLocation(file: path), entity: entity, version: mapping.destination)
        }
    }
}
