import ModelLintModel
import ModelLintDiff

package struct EntityRenamedWithoutRenamingIDRule: ChangeRule {
    package init() {}
    package static let adjacentOnly = true

    package static let description = RuleDescription(
        id: "entity-renamed-without-renaming-id", category: .renaming, severity: .error,
        summary: "an entity removed and another added in the same step whose persistent properties mostly match",
        rationale: """
            Inferred migration matches entities by renaming identifier (`elementID`, else the name). Renaming an entity \
            without giving the new one the old identifier makes it a different entity: the old table is dropped with \
            every row, the new one starts empty, and no error is raised. modellint guesses a rename when a removed and \
            an added entity share at least two persistent properties by name, kind and type, and more than half of the \
            larger one's.
            """,
        fix:
            "give the new entity `elementID` = the old entity's identifier (Xcode: Data Model inspector, Renaming ID); if it really is a new entity, declare the old one retired",
        swiftDataFix:
            "keep the class name (the entity is named after it; a `typealias` gives your code the new name), or keep both models for one schema and copy the rows in its `.custom` stage's `didMigrate`; if it really is a new model, declare the old one retired",
        examples: [
            .triggering(
                before: """
                    <entity name="OrderMetaData">
                        <attribute name="key" optional="YES" attributeType="String"/>
                        <attribute name="value" optional="YES" attributeType="String"/>
                    </entity>
                    """,
                after: """
                    ↓<entity name="MetaData">
                        <attribute name="key" optional="YES" attributeType="String"/>
                        <attribute name="value" optional="YES" attributeType="String"/>
                    </entity>
                    """),
            .passing(
                before: """
                    <entity name="OrderMetaData">
                        <attribute name="key" optional="YES" attributeType="String"/>
                        <attribute name="value" optional="YES" attributeType="String"/>
                    </entity>
                    """,
                after: """
                    <entity name="MetaData" elementID="OrderMetaData">
                        <attribute name="key" optional="YES" attributeType="String"/>
                        <attribute name="value" optional="YES" attributeType="String"/>
                    </entity>
                    """),
        ])

    package func check(_ diff: ModelDiff, context: RuleContext) -> [ChangeFinding] {
        RenameHeuristics.entityRenames(in: diff).map { old, new, shared in
            // SwiftData names an entity after its class and has no renaming identifier for one.
            let advice =
                context.source.isSwiftData
                ? "If it is a rename, keep the class name \(old.name) (SwiftData names the entity after the class); if not, declare \(old.name) retired"
                : "If it is a rename, set \(new.name)'s Renaming ID to \"\(old.renamingIdentifier)\"; if not, declare \(old.name) retired or disable this rule for \(new.name) with the userInfo key modellint:disable"
            var finding = ChangeFinding.change(
                "\(old.name) was removed and \(new.name) added \(diff.between), sharing \(shared) persistent properties by name and type: this looks like a rename without a renaming identifier, and \(old.name)'s rows are dropped. \(advice)",
                entity: new)
            finding.supersedes = [(EntityRemovedRule.description.id, old.renamingIdentifier + "/")]
            return finding
        }
    }
}
