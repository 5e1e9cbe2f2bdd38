import ModelLintModel
import ModelLintCompiled

package struct CompiledRenamingIDLostRule: BuildRule {
    package init() {}

    package static let description = RuleDescription(
        id: "compiled-renaming-id-lost", category: .build, severity: .error,
        summary: "a renaming identifier of the source is not in the compiled model",
        rationale: """
            Inferred migration matches a renamed element through the compiled model's renaming identifier \
            (`NSRenamingIdentifier`; Xcode's Renaming ID compiles to it, and it equals the name when unset). A \
            compiled element whose identifier is not the source's `elementID` was built without the rename (a \
            stale build, or a hand-written `renamingIdentifier` attribute the compiler ignores): the rename the \
            source relies on does not happen, and the old data is dropped.
            """,
        fix: "set the Renaming ID in Xcode's model editor and rebuild; or the two-build sequence",
        examples: [
            RuleExample.compiled(
                [
                    (
                        "Near 1",
                        "<entity name=\"Item\">↓<attribute name=\"heading\" optional=\"YES\" attributeType=\"String\" elementID=\"title\"/></entity>"
                    )
                ],
                build: .init(
                    versions: [
                        (
                            "Near 1",
                            "<entity name=\"Item\"><attribute name=\"heading\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        )
                    ], current: "Near 1"), triggers: true),
            RuleExample.compiled(
                [
                    (
                        "Near 1",
                        "<entity name=\"Item\"><attribute name=\"heading\" optional=\"YES\" attributeType=\"String\" elementID=\"title\"/></entity>"
                    )
                ],
                build: .init(
                    versions: [
                        (
                            "Near 1",
                            "<entity name=\"Item\"><attribute name=\"heading\" optional=\"YES\" attributeType=\"String\" elementID=\"title\"/></entity>"
                        )
                    ], current: "Near 1"), triggers: false),
        ])

    package func check(_ build: CompiledModel, source: [VersionRef], current: VersionRef?, context: RuleContext)
        -> [Finding]
    {
        var found: [Finding] = []
        for version in build.versions {
            guard let compiled = version.model, let origin = source.first(where: { $0.name == version.name }) else {
                continue
            }
            for entity in origin.model.entities {
                guard let built = compiled.entities.first(where: { $0.name == entity.name }) else { continue }
                if let id = entity.elementID, built.renamingIdentifier != id {
                    found.append(
                        Finding(
                            "\(entity.name)'s renaming identifier is \"\(id)\" in \(origin.name) but \"\(built.renamingIdentifier)\" in \(version.path): the rename it relies on does not happen in the app",
                            at: entity.location, entity: entity.name, version: origin.name))
                }
                for property in entity.properties {
                    guard let id = property.elementID,
                        let builtProperty = built.properties.first(where: { $0.name == property.name }),
                        builtProperty.renamingIdentifier != id
                    else { continue }
                    found.append(
                        Finding(
                            "\(entity.name).\(property.name)'s renaming identifier is \"\(id)\" in \(origin.name) but \"\(builtProperty.renamingIdentifier)\" in \(version.path): the rename it relies on does not happen in the app, and \(id)'s data is dropped",
                            at: property.location, entity: entity.name, property: property.name, version: origin.name))
                }
            }
        }
        return found
    }
}
