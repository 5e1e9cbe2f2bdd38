import ModelLintModel
import ModelLintCompiled

public struct CompiledVersionOutOfDateRule: BuildRule {
    public init() {}

    public static let description = RuleDescription(
        id: "compiled-version-out-of-date", category: .build, severity: .error,
        summary: "a compiled version's entity hashes differ from its source version's",
        rationale: """
            Core Data decides whether a store needs migrating, and from which model, by comparing entity version \
            hashes. A compiled version whose hashes are not the source version's was built from other model files: a \
            stale build product, or a committed test fixture that no longer matches the model it claims to be, so the \
            migration tests it feeds prove nothing. The hashes compared are Xcode's record in VersionInfo.plist (else \
            those recomputed from the .mom) and the ones modellint computes from the source, exactly as Core Data does.
            """,
        fix: "rebuild, or regenerate the fixture",
        examples: [
            RuleExample.compiled(
                [
                    (
                        "Near 1",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"added\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    )
                ],
                build: .init(
                    versions: [
                        (
                            "Near 1",
                            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        )
                    ], current: "Near 1"),
                triggers: true, expectedFile: "../Near.momd/Near 1.mom"),
            RuleExample.compiled(
                [
                    (
                        "Near 1",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"added\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    )
                ],
                build: .init(
                    versions: [
                        (
                            "Near 1",
                            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"added\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        )
                    ], current: "Near 1"), triggers: false),
        ])

    public func check(_ build: CompiledModel, source: [VersionRef], current: VersionRef?, context: RuleContext)
        -> [Finding]
    {
        build.versions.compactMap { version in
            guard let compiled = version.hashes, let origin = source.first(where: { $0.name == version.name }) else {
                return nil
            }
            let expected = origin.model.versionHashes.entities
            guard compiled != expected else { return nil }
            let names = Set(compiled.keys).union(expected.keys).sorted(by: CoreDataHash.precedes)
            let differing = names.filter { compiled[$0] != nil && expected[$0] != nil && compiled[$0] != expected[$0] }
            let onlySource = names.filter { compiled[$0] == nil }
            let onlyCompiled = names.filter { expected[$0] == nil }
            var parts: [String] = []
            if !differing.isEmpty {
                parts.append(
                    differing.map {
                        "\($0) (\(BuildText.base64(compiled[$0])) compiled, \(BuildText.base64(expected[$0])) in the source)"
                    }.joined(separator: ", "))
            }
            if !onlySource.isEmpty { parts.append("\(BuildText.list(onlySource)) only in the source") }
            if !onlyCompiled.isEmpty { parts.append("\(BuildText.list(onlyCompiled)) only in the build") }
            return Finding(
                "\(version.name) in \(build.path) was compiled from other model files than \(origin.contentsPath): its entity hashes differ for \(parts.joined(separator: "; "))",
                at: BuildText.compiledFile(version), version: version.name)
        }
    }
}
