import ModelLintModel
import ModelLintDiff

package struct PropertyRenamedWithoutRenamingIDRule: ChangeRule {
    package init() {}
    package static let adjacentOnly = true

    package static let description = RuleDescription(
        id: "property-renamed-without-renaming-id", category: .renaming, severity: .warning,
        summary: "in one entity, a property removed and another of the same kind and type added in the same step",
        rationale: """
            A renamed property without the old identifier as its Renaming ID is a different property to inferred \
            migration: the old column is dropped and the new one starts empty, and the attribute reads nil after the \
            update with no error anywhere. modellint cannot know your intent, so it reports a removed and an added \
            property of the same kind and type (relationships: same destination) in one entity, pairing the most similar \
            names first.
            """,
        fix:
            "give the new property `elementID` = the old identifier, or confirm it is a delete plus an add by declaring the old one `retired` in .modellint.json",
        swiftDataFix:
            "give the new property `@Attribute(originalName: \"old\")` (`@Relationship(originalName:)` for a relationship), or confirm it is a delete plus an add by declaring the old one `retired` in .modellint.json",
        examples: [
            .triggering(
                before: """
                    <entity name="Thing">
                        <attribute name="payload" optional="YES" attributeType="Binary"/>
                    </entity>
                    """,
                after: """
                    <entity name="Thing">
                        ↓<attribute name="payloadBlob" optional="YES" attributeType="Binary"/>
                    </entity>
                    """),
            .passing(
                before: """
                    <entity name="Thing">
                        <attribute name="payload" optional="YES" attributeType="Binary"/>
                    </entity>
                    """,
                after: """
                    <entity name="Thing">
                        <attribute name="payloadText" optional="YES" attributeType="String"/>
                    </entity>
                    """),
        ])

    package func check(_ diff: ModelDiff, context: RuleContext) -> [ChangeFinding] {
        diff.matchedEntities.flatMap { pair in
            RenameHeuristics.propertyRenames(in: pair).compactMap { old, new in
                let retired = context.retired.contains { $0.entity == pair.old.name && $0.property == old.name }
                guard !retired else { return nil }
                // A SwiftData schema has no Renaming ID field: the same identifier is its `originalName:`.
                let identifier = context.source.isSwiftData ? "`originalName`" : "a Renaming ID"
                let macro = if case .attribute = new { "Attribute" } else { "Relationship" }
                let rename =
                    context.source.isSwiftData
                    ? "Give \(new.name) `@\(macro)(originalName: \"\(old.renamingIdentifier)\")`"
                    : "Set \(new.name)'s Renaming ID to \"\(old.renamingIdentifier)\""
                var finding = ChangeFinding.change(
                    "\(pair.new.name).\(old.name) was removed and \(pair.new.name).\(new.name) added \(diff.between), both \(Self.kind(new)): without \(identifier) this is a removal, and if it is a rename, \(old.name)'s data is dropped. \(rename); if it is not a rename, declare \(pair.old.name).\(old.name) retired in .modellint.json",
                    entity: pair.new, property: new)
                // The removal of the old property is this finding's other half.
                finding.supersedes = [
                    (PropertyRemovedRule.description.id, pair.old.renamingIdentifier + "/" + old.renamingIdentifier)
                ]
                return finding
            }
        }
    }

    package static func kind(_ property: Property) -> String {
        switch property {
        case .attribute(let a): return "\(a.type.xmlValue) attributes"
        case .relationship(let r): return "relationships to \(r.destinationEntity ?? "the same entity")"
        }
    }
}
