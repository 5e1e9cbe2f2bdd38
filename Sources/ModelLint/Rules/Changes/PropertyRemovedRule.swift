import ModelLintModel
import ModelLintDiff

package struct PropertyRemovedRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
        id: "property-removed", category: .changes, severity: .warning,
        summary: "a persistent property is gone: its data is dropped on every device",
        rationale: """
            A persistent property of the older version that matches nothing in the newer one is dropped with its data \
            when the store migrates. If it was renamed, the new property needs the old identifier as its Renaming ID; \
            if it is being retired, the data should have been copied by an interim build first. What a removal loses \
            depends on the property: removing the to-many side of a one-to-many whose to-one inverse remains loses \
            nothing (the links live on the to-one side; the delete rule it carried stops applying), nor does removing a \
            derived attribute (its value was computed): both are notes. Removing either side of a many-to-many drops the \
            join table. A property that kept its name but changed its renaming identifier is another property to Core \
            Data: its data is dropped too once the store migrates, and the message says so (with identical entity \
            hashes no migration runs, and nothing is reported; when the new identifier names nothing in the older \
            version, `renaming-id-unknown` reports the drop instead). A relationship to an entity removed in the same \
            step is not reported on its own: the entity's removal (`entity-removed`) explains it.
            """,
        fix:
            "confirm it is retired (declare it in `retired` in .modellint.json), or rename with a renaming identifier (`elementID`)",
        swiftDataFix:
            "confirm it is retired (declare it in `retired` in .modellint.json), or, if it was renamed, give the new property `@Attribute(originalName: \"old\")` (`@Relationship(originalName:)` for a relationship)",
        examples: [
            // The to-many side of a one-to-many, its inverse still there: a note.
            RuleExample.triggering(
                before: """
                    <entity name="Owner">
                        ↓<relationship name="pets" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/>
                    </entity>
                    <entity name="Pet">
                        <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="pets" inverseEntity="Owner"/>
                    </entity>
                    """,
                after: """
                    <entity name="Owner"/>
                    <entity name="Pet">
                        <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner"/>
                    </entity>
                    """
            ).expecting(.note),
            // A derived attribute: a note.
            RuleExample.triggering(
                before: """
                    <entity name="Manga">
                        ↓<attribute name="chapterCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="chapters.@count" usesScalarValueType="YES"/>
                    </entity>
                    """,
                after: "<entity name=\"Manga\"/>"
            ).expecting(.note),
            // One side of a many-to-many: the join table goes.
            .triggering(
                before: """
                    <entity name="Tag">
                        ↓<relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/>
                    </entity>
                    <entity name="Note">
                        <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="notes" inverseEntity="Tag"/>
                    </entity>
                    """,
                after: """
                    <entity name="Tag"/>
                    <entity name="Note">
                        <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag"/>
                    </entity>
                    """),
            // Same name, new identifier (another property's: an identifier that names nothing is renaming-id-unknown's
            // finding alone): another property to Core Data, once a schema change makes the store migrate.
            .triggering(
                before: """
                    <entity name="Thing">
                        <attribute name="heading" optional="YES" attributeType="String"/>
                        ↓<attribute name="title" optional="YES" attributeType="String"/>
                    </entity>
                    """,
                after: """
                    <entity name="Thing">
                        <attribute name="added" optional="YES" attributeType="Date"/>
                        <attribute name="title" optional="YES" attributeType="String" elementID="heading"/>
                    </entity>
                    """),
            // The identifier alone: renaming identifiers are not hashed, so no migration runs and nothing is dropped.
            .passing(
                before: """
                    <entity name="Thing">
                        <attribute name="title" optional="YES" attributeType="String"/>
                    </entity>
                    """,
                after: """
                    <entity name="Thing">
                        <attribute name="title" optional="YES" attributeType="String" elementID="heading"/>
                    </entity>
                    """),
            .triggering(
                before: """
                    <entity name="Thing">
                        <attribute name="title" optional="YES" attributeType="String"/>
                        ↓<attribute name="payload" optional="YES" attributeType="Binary"/>
                    </entity>
                    """,
                after: """
                    <entity name="Thing">
                        <attribute name="title" optional="YES" attributeType="String"/>
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
                        <attribute name="payloadBlob" optional="YES" attributeType="Binary" elementID="payload"/>
                    </entity>
                    """),
        ])

    package func check(_ entity: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        entity.removedProperties.compactMap { property in
            let retired = context.retired.contains { $0.entity == entity.old.name && $0.property == property.name }
            guard !retired else { return nil }
            let label = "\(entity.old.name).\(property.name)"
            // A relationship to an entity removed in the same step: that entity's removal explains it (one problem,
            // one finding).
            if case .relationship(let r) = property,
                let destination = versions.from.model.entity(named: r.destinationEntity),
                versions.to.model.entityIndexByRenamingID[destination.renamingIdentifier] == nil
            {
                return nil
            }
            // Still there under its name: only its identifier changed, which makes it another property.
            if let same = versions.to.model.effectiveProperty(named: property.name, in: entity.new),
                same.renamingIdentifier != property.renamingIdentifier
            {
                // Identical hashes: the store opens without migrating, so the identifier decides nothing yet.
                guard !versions.from.model.hashesEqual(versions.to.model) else { return nil }
                return .change(
                    "\(label) (\(property.kindName)) \(versions.between) kept its name but its renaming identifier changed from \"\(property.renamingIdentifier)\" to \"\(same.renamingIdentifier)\": Core Data treats it as another \(property.kindName), and its data is dropped on every device",
                    entity: entity.old, property: property)
            }
            switch property {
            case .attribute(let a) where a.isDerived:
                return .change(
                    "\(label) (a derived attribute) was removed \(versions.between): its value was computed from \(a.derivationExpression ?? "other data"), so nothing stored is lost",
                    entity: entity.old, property: property, severity: .note)
            case .relationship(let r) where r.isToMany:
                if let inverse = versions.from.model.inverse(of: r), !inverse.isToMany,
                    Self.stillPresent(inverse, of: r, versions: versions)
                {
                    let rule =
                        r.deleteRule == .nullify
                        ? "" : "; the \(r.deleteRule.xmlValue) delete rule it carried no longer applies"
                    return .change(
                        "\(label) (the to-many side of a one-to-many relationship) was removed \(versions.between): the links are stored on the to-one side, \(r.destinationEntity ?? "?").\(inverse.name), which remains, so no data is lost\(rule)",
                        entity: entity.old, property: property, severity: .note)
                }
                if let inverse = versions.from.model.inverse(of: r), inverse.isToMany {
                    return .change(
                        "\(label) (one side of a many-to-many relationship) was removed \(versions.between): the join table is dropped, and with it every link between \(entity.old.name) and \(r.destinationEntity ?? "?")",
                        entity: entity.old, property: property)
                }
            default:
                break
            }
            return .change(
                "\(label) (\(property.kindName)) was removed \(versions.between): its data is dropped on every device",
                entity: entity.old, property: property)
        }
    }

    /// Whether the inverse of a removed relationship is still in the newer version, still to-one.
    package static func stillPresent(_ inverse: Relationship, of removed: Relationship, versions: ComparedVersions)
        -> Bool
    {
        guard let destination = versions.from.model.entity(named: removed.destinationEntity),
            let i = versions.to.model.entityIndexByRenamingID[destination.renamingIdentifier]
        else { return false }
        let newDestination = versions.to.model.entities[i]
        return versions.to.model.effectiveProperties(of: newDestination).contains { candidate in
            if case .relationship(let r) = candidate.property, r.renamingIdentifier == inverse.renamingIdentifier,
                !r.isToMany, !r.isTransient
            {
                return true
            }
            return false
        }
    }
}
