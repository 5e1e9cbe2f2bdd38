import ModelLintModel
import ModelLintProjects

package struct StagedMigrationUnknownVersionRule: SourceReferenceRule {
    package init() {}

    package static let description = RuleDescription(
        id: "staged-migration-unknown-version", category: .build, severity: .error,
        summary: "code loads a compiled model version the bundle does not have",
        rationale: """
            Code that loads a compiled version by name (`"Model 3.mom"`, `forResource: "Model 3", withExtension: \
            "mom"`, `NSManagedObjectModelReference(name: "Model 3", …)`) finds nothing when no version has that name: \
            a version renamed or removed, or a typo. The staged migration it builds fails at launch. Only names in \
            the bundle's own version naming are judged (its stem, the text before the number): other literals that \
            end in `.mom` cannot be resolved, and nothing is guessed.
            """,
        fix: "use an existing version's name",
        examples: [
            RuleExample.source(
                [("Near 1", "<entity name=\"Item\"/>"), ("Near 2", "<entity name=\"Item\"/>")], file: "Migration.swift",
                "let url = bundle.url(forResource: \"Near 3\", withExtension: \"mom\")", triggers: true),
            RuleExample.source(
                [("Near 1", "<entity name=\"Item\"/>"), ("Near 2", "<entity name=\"Item\"/>")], file: "Migration.swift",
                "let v1 = NSManagedObjectModelReference(name: \"Near 1\", in: bundle, versionChecksum: checksum)",
                triggers: false),
        ])

    package func check(_ reference: SourceReference, bundles: [SourceReferenceContext]) -> [Finding] {
        guard case .versionName(let name) = reference.kind, !name.contains("/") else { return [] }
        // A model name that is a bundle's (`Model.momd` style loading by the bundle name) is not a version name.
        guard !bundles.contains(where: { $0.versionNames.contains(name) || $0.bundleName == name }) else { return [] }
        // Only a name in the bundle's own version naming (`Model 7` beside `Model 1`…`Model 6`): any other `.mom`
        // literal (a file of another kind, a test's sample) cannot be resolved, and nothing is guessed.
        guard let stem = VersionOrderEvidence.stems([name])[name], VersionOrderEvidence.rawStem(name) != nil,
            bundles.contains(where: { context in
                Set(VersionOrderEvidence.stems(Array(context.versionNames)).values).contains(stem)
            })
        else { return [] }
        return [
            Finding(
                "\(name).mom is not a compiled version of \(BuildText.list(bundles.map { $0.bundleName + ".xcdatamodeld" })): loading it finds nothing",
                at: reference.location)
        ]
    }
}
