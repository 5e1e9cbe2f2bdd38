import ModelLintModel
import ModelLintDiff

package struct RenamingIDRelianceRule: ChangeRule {
    package init() {}
    package static let adjacentOnly = true

    package static let description = RuleDescription(
        id: "renaming-id-reliance", category: .renaming, severity: .note,
        summary: "a rename that relies on a renaming identifier (a note: the rename is declared as Core Data expects)",
        rationale: """
            A rename carried by a Renaming ID (`elementID`) is the safe way to rename, and works when the compiled \
            model keeps the identifier, as Xcode's model compiler does. Only in a hand-edited or generated model may it \
            never reach the compiled `.mom`; then the rename drops the data with no error (the compiled property \
            reports its own name as its renaming identifier). So the finding is a note that says what the rename rests \
            on; `modellint verify-build` checks the compiled model itself (`compiled-renaming-id-lost`).
            """,
        fix:
            "verify the compiled model keeps the identifier (read `renamingIdentifier` from the compiled NSManagedObjectModel in a test), or use the two-build sequence: an interim build with both, copying on launch; a retiring build that removes the old one",
        swiftDataFix:
            "test the rename on a store the older schema wrote (open it with the new container and read the renamed property), or use the two-step sequence: an interim schema with both properties, copying in its `.custom` stage's `didMigrate`; a later schema that removes the old one",
        examples: [
            .triggering(
                before:
                    "<entity name=\"OrderMetaData\"><attribute name=\"key\" optional=\"YES\" attributeType=\"String\"/></entity>",
                after:
                    "↓<entity name=\"MetaData\" elementID=\"OrderMetaData\"><attribute name=\"key\" optional=\"YES\" attributeType=\"String\"/></entity>"
            ),
            .triggering(
                before:
                    "<entity name=\"Thing\"><attribute name=\"payload\" optional=\"YES\" attributeType=\"Binary\"/></entity>",
                after:
                    "<entity name=\"Thing\">↓<attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\" elementID=\"payload\"/></entity>"
            ),
            .passing(
                before: "<entity name=\"MetaData\" elementID=\"OrderMetaData\"/>",
                after: "<entity name=\"MetaData\" elementID=\"OrderMetaData\"/>"),
        ])

    package func check(_ diff: ModelDiff, context: RuleContext) -> [ChangeFinding] {
        var findings: [ChangeFinding] = []
        for pair in diff.matchedEntities {
            if pair.old.name != pair.new.name {
                findings.append(
                    .change(
                        "\(pair.old.name) was renamed to \(pair.new.name) \(diff.between) through its renaming identifier \"\(pair.new.renamingIdentifier)\": if the compiled model loses it, every \(pair.old.name) row is dropped with no error",
                        entity: pair.new))
            }
            for property in pair.changedProperties where property.old.name != property.new.name {
                // A SwiftData schema is not compiled: what can lose the identifier is the migration, not a build.
                let risk =
                    context.source.isSwiftData
                    ? "through `originalName: \"\(property.new.renamingIdentifier)\"`: if the migration does not match it, the data is dropped and \(property.new.name) reads nil (test the stage on a store \(diff.from.name) wrote)"
                    : "through its renaming identifier \"\(property.new.renamingIdentifier)\": if the compiled model loses it, the data is dropped and \(property.new.name) reads nil"
                findings.append(
                    .change(
                        "\(pair.new.name).\(property.old.name) was renamed to \(property.new.name) \(diff.between) \(risk)",
                        entity: pair.new, property: property.new))
            }
        }
        return findings
    }
}
