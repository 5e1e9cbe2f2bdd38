import ModelLintModel

package struct CurrentVersionNotFoundRule: BundleRule {
    package init() {}

    package static let description = RuleDescription(
        id: "current-version-not-found", category: .bundleStructure, severity: .error,
        summary: "`.xccurrentversion` names a version that is not in the bundle",
        rationale: """
            The pointer names a version folder that does not exist (renamed or deleted), so the build has no current \
            model to compile against, or silently picks another. modellint treats the last version as current.
            """,
        fix: "point `.xccurrentversion` at an existing version",
        examples: [
            RuleExample(
                versions: [("Near 1", .model("<entity name=\"Thing\"/>"))], currentVersion: .named("Near 7"),
                triggers: true, expectedFile: ".xccurrentversion"),
            .passing("<entity name=\"Thing\"/>"),
        ])

    package func check(_ bundle: ModelBundle) -> [Finding] {
        guard let declared = bundle.declaredCurrentVersion, !bundle.versions.contains(where: { $0.name == declared })
        else { return [] }
        let fallback = bundle.fallbackCurrentNote
        return [
            Finding(
                ".xccurrentversion names \(declared).xcdatamodel, which is not in \(bundle.name).xcdatamodeld\(fallback)",
                at: SourceLocation(file: bundle.currentVersionFilePath))
        ]
    }
}
