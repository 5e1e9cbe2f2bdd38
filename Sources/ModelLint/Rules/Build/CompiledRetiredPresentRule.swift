import ModelLintModel
import ModelLintCompiled

package struct CompiledRetiredPresentRule: BuildRule {
    package init() {}

    package static let description = RuleDescription(
        id: "compiled-retired-present", category: .build, severity: .error,
        summary: "a property declared retired is still in the compiled current model",
        rationale: """
            A retirement is done when the property is gone from what ships, not from the repository: a build from a \
            stale project or branch still carries it into every store. Retirements come from `retired` in \
            .modellint.json and from the userInfo key `modellint.retired` in the source.
            """,
        fix: "delete it from the model and rebuild",
        examples: [
            RuleExample.compiled(
                [
                    (
                        "Near 1",
                        "<entity name=\"Thing\"><attribute name=\"payload\" optional=\"YES\" attributeType=\"Binary\"><userInfo><entry key=\"modellint.retired\" value=\"Near 1\"/></userInfo></attribute><attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\"/></entity>"
                    ),
                    (
                        "Near 2",
                        "<entity name=\"Thing\"><attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\"/></entity>"
                    ),
                ],
                build: .init(
                    versions: [
                        (
                            "Near 1",
                            "<entity name=\"Thing\"><attribute name=\"payload\" optional=\"YES\" attributeType=\"Binary\"/><attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\"/></entity>"
                        ),
                        (
                            "Near 2",
                            "<entity name=\"Thing\"><attribute name=\"payload\" optional=\"YES\" attributeType=\"Binary\"/><attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\"/></entity>"
                        ),
                    ], current: "Near 2"),
                triggers: true, expectedFile: "../Near.momd/Near 2.mom"),
            RuleExample.compiled(
                [
                    (
                        "Near 1",
                        "<entity name=\"Thing\"><attribute name=\"payload\" optional=\"YES\" attributeType=\"Binary\"><userInfo><entry key=\"modellint.retired\" value=\"Near 1\"/></userInfo></attribute><attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\"/></entity>"
                    ),
                    (
                        "Near 2",
                        "<entity name=\"Thing\"><attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\"/></entity>"
                    ),
                ],
                build: .init(
                    versions: [
                        (
                            "Near 1",
                            "<entity name=\"Thing\"><attribute name=\"payload\" optional=\"YES\" attributeType=\"Binary\"/><attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\"/></entity>"
                        ),
                        (
                            "Near 2",
                            "<entity name=\"Thing\"><attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\"/></entity>"
                        ),
                    ], current: "Near 2"), triggers: false),
        ])

    package func check(_ build: CompiledModel, source: [VersionRef], current: VersionRef?, context: RuleContext)
        -> [Finding]
    {
        guard let name = build.currentVersion, let version = build.versions.first(where: { $0.name == name }),
            let model = version.model
        else { return [] }
        return context.retired.compactMap { retirement in
            guard let (entity, property) = retirement.property(in: model) else { return nil }
            return Finding(
                "\(retirement.label) is retired but still in the compiled current version \(name) (\(version.path)): every store the app opens keeps it",
                at: BuildText.compiledFile(version), entity: entity.name, property: property.name, version: name)
        }
    }
}
