import ModelLintModel
import ModelLintCompiled

package struct CompiledVersionMissingRule: BuildRule {
    package init() {}

    package static let description = RuleDescription(
        id: "compiled-version-missing", category: .build, severity: .error,
        summary: "a source version has no compiled model in the .momd",
        rationale: """
            A store can be migrated only from a model the app contains, and Core Data loads it from the version's \
            .mom file (VersionInfo.plist naming the version is not enough). A version folder the build did not compile \
            (not in the project's version group, or added after the build) leaves every store it wrote without a \
            source model: Core Data fails with 134130, "Can't find model for source store".
            """,
        fix: "rebuild from a project that references every version",
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
                            "Near 2",
                            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        )
                    ], current: "Near 2"),
                triggers: true, expectedFile: "Near 1.xcdatamodel/contents"),
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
        let compiled = Set(build.versions.filter(\.hasFile).map(\.name))
        let listed = Set(build.versions.filter { !$0.hasFile }.map(\.name))
        return source.filter { !compiled.contains($0.name) }.map { version in
            // VersionInfo.plist naming it is no model: Core Data loads a store's source model from the .mom.
            let where_ =
                listed.contains(version.name)
                ? "\(build.path) lists \(version.name) in VersionInfo.plist but holds no \(version.name).mom"
                : "\(version.name) is not in \(build.path)"
            return Finding(
                "\(where_): stores written by \(version.name) cannot be migrated (Core Data error 134130, no model for the source store)",
                at: SourceLocation(file: version.contentsPath), version: version.name)
        }
    }
}
