import ModelLintModel
import ModelLintCompiled

package struct MappingModelUnmatchedRule: BuildRule {
    package init() {}

    package static let description = RuleDescription(
        id: "mapping-model-unmatched", category: .build, severity: .error,
        summary: "a compiled mapping model whose entity hashes match no version",
        rationale: """
            Core Data picks a mapping model by entity version hashes: each entity mapping of a compiled `.cdm` records \
            the hashes of its source and destination entities. When they match no version (the source or destination \
            model was edited after the mapping model was last saved, so Xcode compiled it against the old hashes), \
            the mapping model is never used: the migration it was written for fails (134140) or is inferred without it.
            """,
        fix: "re-select its source and destination models in Xcode's mapping-model editor and rebuild",
        examples: [
            RuleExample.compiled(
                [
                    (
                        "Near 1",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                    (
                        "Near 2",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"added\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                ],
                build: .init(
                    versions: [
                        (
                            "Near 1",
                            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        ),
                        (
                            "Near 2",
                            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"added\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        ),
                    ], current: "Near 2",
                    mappings: [
                        (
                            "Near1ToNear2",
                            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>",
                            "<entity name=\"Item\"><attribute name=\"heading\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        )
                    ]),
                triggers: true, expectedFile: "../Near1ToNear2.cdm"),
            RuleExample.compiled(
                [
                    (
                        "Near 1",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                    (
                        "Near 2",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"added\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                ],
                build: .init(
                    versions: [
                        (
                            "Near 1",
                            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        ),
                        (
                            "Near 2",
                            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"added\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        ),
                    ], current: "Near 2",
                    mappings: [
                        (
                            "Near1ToNear2",
                            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>",
                            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"added\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        )
                    ]), triggers: false),
        ])

    package func check(_ build: CompiledModel, source: [VersionRef], current: VersionRef?, context: RuleContext)
        -> [Finding]
    {
        build.mappings.compactMap { mapping in
            guard mapping.problem == nil else { return nil }
            let (sources, destinations) = mapping.matchingVersions(source)
            guard sources.isEmpty || destinations.isEmpty else { return nil }
            let side =
                sources.isEmpty && destinations.isEmpty
                ? "source and destination entity hashes match"
                : sources.isEmpty ? "source entity hashes match" : "destination entity hashes match"
            return Finding(
                "the compiled mapping model \(mapping.name)'s \(side) no version of the bundle: Core Data picks mapping models by hash, so it is never used and the migration it was written for fails or is inferred without it",
                at: SourceLocation(file: mapping.path))
        }
    }
}
