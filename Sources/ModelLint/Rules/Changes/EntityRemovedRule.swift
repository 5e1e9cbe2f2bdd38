import ModelLintModel
import ModelLintDiff

package struct EntityRemovedRule: ChangeRule {
    package init() {}

    package static let description = RuleDescription(
        id: "entity-removed", category: .changes, severity: .warning,
        summary: "an entity is gone: its table and rows are dropped on every device",
        rationale: """
            An entity of the older version that matches nothing in the newer one (by renaming identifier) is dropped \
            with all its rows when the store migrates. If it was renamed, the new entity needs the old identifier as its \
            Renaming ID, or the data is lost silently.
            """,
        fix:
            "restore it, or give its replacement `elementID` = the old entity's identifier; if it is meant to go, accept the finding (a baseline), or silence it with the User Info key `modellint:disable` on the entity in its last version",
        swiftDataFix:
            "restore the model in the schema's `models` (a class renamed in Swift keeps its rows only under its old name); if it is meant to go, accept the finding (a baseline)",
        examples: [
            .triggering(
                before: """
                    <entity name="Thing">
                        <attribute name="title" optional="YES" attributeType="String"/>
                    </entity>
                    ↓<entity name="Draft">
                        <attribute name="body" optional="YES" attributeType="String"/>
                    </entity>
                    """,
                after: """
                    <entity name="Thing">
                        <attribute name="title" optional="YES" attributeType="String"/>
                    </entity>
                    """),
            // Same name, new identifier (another entity's: an identifier that names nothing is renaming-id-unknown's
            // finding alone): another entity to Core Data, once a schema change makes the store migrate.
            .triggering(
                before:
                    "↓<entity name=\"Draft\"><attribute name=\"body\" optional=\"YES\" attributeType=\"String\"/></entity><entity name=\"Sketch\"><attribute name=\"body\" optional=\"YES\" attributeType=\"String\"/></entity>",
                after:
                    "<entity name=\"Draft\" elementID=\"Sketch\"><attribute name=\"body\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"added\" optional=\"YES\" attributeType=\"Date\"/></entity>"
            ),
            // The identifier alone: renaming identifiers are not hashed, so no migration runs and nothing is dropped.
            .passing(
                before:
                    "<entity name=\"Draft\"><attribute name=\"body\" optional=\"YES\" attributeType=\"String\"/></entity>",
                after:
                    "<entity name=\"Draft\" elementID=\"Sketch\"><attribute name=\"body\" optional=\"YES\" attributeType=\"String\"/></entity>"
            ),
            .passing(
                before: """
                    <entity name="OrderMetaData">
                        <attribute name="key" optional="YES" attributeType="String"/>
                    </entity>
                    """,
                after: """
                    <entity name="MetaData" elementID="OrderMetaData">
                        <attribute name="key" optional="YES" attributeType="String"/>
                    </entity>
                    """),
        ])

    package func check(_ diff: ModelDiff, context: RuleContext) -> [ChangeFinding] {
        diff.removedEntities.compactMap { entity in
            if let same = diff.to.model.entity(named: entity.name), same.renamingIdentifier != entity.renamingIdentifier
            {
                // Identical hashes: the store opens without migrating, so the identifier decides nothing yet.
                guard !diff.from.model.hashesEqual(diff.to.model) else { return nil }
                return .change(
                    "entity \(entity.name) \(diff.between) kept its name but its renaming identifier changed from \"\(entity.renamingIdentifier)\" to \"\(same.renamingIdentifier)\": Core Data treats it as another entity, and its table and every row in it are dropped on every device",
                    entity: entity)
            }
            return .change(
                "entity \(entity.name) was removed \(diff.between): its table and every row in it are dropped on every device",
                entity: entity)
        }
    }
}
