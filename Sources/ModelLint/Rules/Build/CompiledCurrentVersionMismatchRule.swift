import ModelLintModel
import ModelLintCompiled

package struct CompiledCurrentVersionMismatchRule: BuildRule {
    package init() {}

    package static let description = RuleDescription(
        id: "compiled-current-version-mismatch", category: .build, severity: .error,
        summary: "the compiled model's current version is not the source bundle's",
        rationale: """
            `NSPersistentContainer` loads the `.momd`'s current version (`VersionInfo.plist`), not the repository's \
            `.xccurrentversion`. When they differ, the app opens and migrates stores with another model than the one \
            reviewed: a project whose version group names another current version, a stale build product, or a \
            generated project that was not regenerated.
            """,
        fix: "rebuild; if the project is generated (XcodeGen, Tuist), regenerate it first",
        examples: [
            RuleExample.compiled(
                [
                    (
                        "Near 1",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                    (
                        "Near 2",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
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
                            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        ),
                    ], current: "Near 1"),
                triggers: true, expectedFile: "../Near.momd/VersionInfo.plist"),
            RuleExample.compiled(
                [
                    (
                        "Near 1",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    ),
                    (
                        "Near 2",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
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
                            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        ),
                    ], current: "Near 2"), triggers: false),
        ])

    package func check(_ build: CompiledModel, source: [VersionRef], current: VersionRef?, context: RuleContext)
        -> [Finding]
    {
        guard let compiled = build.currentVersion, let current, compiled != current.name else { return [] }
        if build.isBareModel {
            // A bare .mom has no VersionInfo.plist: the one model it holds is the one the app opens stores with.
            return [
                Finding(
                    "\(build.path) holds \(compiled), but the bundle's current version is \(current.name) (.xccurrentversion): the app opens every store with \(compiled)",
                    at: SourceLocation(file: build.path), version: compiled)
            ]
        }
        return [
            Finding(
                "the compiled model's current version is \(compiled) (VersionInfo.plist) but the bundle's is \(current.name) (.xccurrentversion): the app opens every store with \(compiled)",
                at: BuildText.versionInfo(build), version: compiled)
        ]
    }
}
