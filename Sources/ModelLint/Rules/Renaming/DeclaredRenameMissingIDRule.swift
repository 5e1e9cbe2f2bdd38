import ModelLintModel

/// A rename the configuration declares (`renamed`) that the model does not carry: from the renaming version on, the
/// renamed element must have the old element's renaming identifier, or inferred migration drops its data.
package struct DeclaredRenameMissingIDRule: RetirementRule {
    package init() {}

    package static let description = RuleDescription(
        id: "declared-rename-missing-id", category: .renaming, severity: .error,
        summary: "a rename declared in the configuration that the model does not carry as a renaming identifier",
        rationale: """
            Inferred migration matches an element to the old one only by its renaming identifier (`elementID`, else \
            the name). The team declared that this element was renamed in this version, but the version (or a later \
            one) does not carry the old element's identifier: Core Data sees the old element removed and a new one \
            added, drops the old element's data on every device that migrates, and the renamed element reads nil.
            """,
        fix:
            "give the renamed element the old element's renaming identifier (Xcode's Renaming ID field, `elementID`) in the renaming version and every later one (`modellint fix` writes it); after `a` -> `b` with `elementID=\"a\"`, renaming `b` -> `c` keeps `elementID=\"a\"`",
        swiftDataFix:
            "give the renamed property `@Attribute(originalName: \"old\")` (or `@Relationship(originalName:)`) with the old property's name in the schema that renames it and every later one; a model class's rename is a custom stage",
        examples: [
            RuleExample(
                versions: [
                    (
                        "Near 1",
                        .model(
                            "<entity name=\"Book\"><attribute name=\"writer\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        )
                    ),
                    (
                        "Near 2",
                        .model(
                            "<entity name=\"Book\">↓<attribute name=\"author\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        )
                    ),
                ], triggers: true
            ).declaring(DeclaredRename(entity: "Book", property: "author", from: "writer", version: "Near 2"))
                .expectingMessage(
                    "Book.author is declared renamed from writer in Near 2, but Near 2 does not carry writer's renaming identifier \"writer\": the rename does not happen, writer's data is dropped and author reads nil"
                ),
            RuleExample(
                versions: [
                    ("Near 1", .model("<entity name=\"Writer\"/>")),
                    ("Near 2", .model("↓<entity name=\"Author\"/>")),
                ], triggers: true
            ).declaring(DeclaredRename(entity: "Author", property: nil, from: "Writer", version: "Near 2")),
            RuleExample(
                versions: [
                    (
                        "Near 1",
                        .model(
                            "<entity name=\"Book\"><attribute name=\"writer\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        )
                    ),
                    (
                        "Near 2",
                        .model(
                            "<entity name=\"Book\"><attribute name=\"author\" optional=\"YES\" attributeType=\"String\" elementID=\"writer\"/></entity>"
                        )
                    ),
                ], triggers: false
            ).declaring(DeclaredRename(entity: "Book", property: "author", from: "writer", version: "Near 2")),
        ])

    package func check(_ versions: [VersionRef], current: Int, context: RuleContext) -> [Finding] {
        context.renamed.compactMap { rename in
            guard let start = versions.firstIndex(where: { $0.name.isExactly(rename.version) }), start > 0,
                let old = Self.identifier(
                    of: rename, named: rename.from, in: versions[start - 1].model,
                    matching: versions[start].model)
            else { return nil }
            // From the renaming version on, while a version still has the element by its new name.
            var missing: [(version: String, location: SourceLocation)] = []
            for version in versions[start...] {
                guard let element = Self.element(of: rename, in: version.model) else { break }
                if element.identifier != old { missing.append((version.name, element.location)) }
            }
            guard let newest = missing.last else { return nil }
            let names = missing.map(\.version)
            let which =
                names.count == 1
                ? "\(names[0]) does"
                : names.count == 2
                    ? "\(names[0]) and \(names[1]) do"
                    : "\(names[0]) … \(names[names.count - 1]) do"
            let name = rename.property ?? rename.entity
            return Finding(
                "\(rename.label) is declared renamed from \(rename.from) in \(rename.version), but \(which) not carry \(rename.from)'s renaming identifier \"\(old)\": the rename does not happen, \(rename.from)'s data is dropped and \(name) reads nil",
                at: newest.location, entity: rename.entity, property: rename.property, version: newest.version)
        }
    }

    /// The renamed element in a version: its renaming identifier and where it is.
    package static func element(of rename: DeclaredRename, in model: Model) -> (
        identifier: String, location: SourceLocation
    )? {
        guard let entity = model.entity(named: rename.entity) else { return nil }
        guard let propertyName = rename.property else { return (entity.renamingIdentifier, entity.location) }
        guard let property = entity.properties.first(where: { $0.name == propertyName }) else { return nil }
        return (property.renamingIdentifier, property.location)
    }

    /// The old element's renaming identifier in the version before the rename (its `elementID`, else its name):
    /// what the renamed element must carry. A property's entity is the one the renamed element's entity matches.
    package static func identifier(
        of rename: DeclaredRename, named old: String, in before: Model, matching after: Model
    )
        -> String?
    {
        guard rename.property != nil else { return before.entity(named: old)?.renamingIdentifier }
        let newer = after.entity(named: rename.entity)
        let entity =
            newer.flatMap { n in before.entities.first { $0.renamingIdentifier == n.renamingIdentifier } }
            ?? before.entity(named: rename.entity)
        return entity?.properties.first { $0.name == old }?.renamingIdentifier
    }
}
