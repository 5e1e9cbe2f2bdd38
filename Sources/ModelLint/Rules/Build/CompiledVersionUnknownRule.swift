import ModelLintModel
import ModelLintCompiled

package struct CompiledVersionUnknownRule: BuildRule {
    package init() {}

    package static let description = RuleDescription(
        id: "compiled-version-unknown", category: .build, severity: .warning,
        summary: "a compiled version has no source version",
        rationale: """
            A `.mom` with no version folder behind it was compiled from files the repository no longer has: a version \
            deleted from the bundle (its stores can still be opened, but nobody can review or change it), or a build \
            product from another branch.
            """,
        fix: "rebuild, or restore the version",
        examples: [
            RuleExample.compiled(
                [
                    (
                        "Near 1",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    )
                ],
                build: .init(
                    versions: [
                        (
                            "Near 1",
                            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        ),
                        (
                            "Near 0",
                            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        ),
                    ], current: "Near 1"),
                triggers: true, expectedFile: "../Near.momd/Near 0.mom"),
            RuleExample.compiled(
                [
                    (
                        "Near 1",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    )
                ],
                build: .init(
                    versions: [
                        (
                            "Near 1",
                            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        )
                    ], current: "Near 1"), triggers: false),
        ])

    package func check(_ build: CompiledModel, source: [VersionRef], current: VersionRef?, context: RuleContext)
        -> [Finding]
    {
        let names = Set(source.map(\.name))
        return build.versions.filter { !names.contains($0.name) }.map { version in
            Finding(
                "\(build.path) holds \(version.name), which is not a version of the bundle: it was compiled from files this repository does not have",
                at: BuildText.compiledFile(version), version: version.name)
        }
    }
}
