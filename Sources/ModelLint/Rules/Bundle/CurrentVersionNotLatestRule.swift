import ModelLintModel

package struct CurrentVersionNotLatestRule: BundleRule {
    package init() {}

    package static let description = RuleDescription(
        id: "current-version-not-latest", category: .bundleStructure, severity: .warning,
        summary: "the current version is not the last one in version order",
        rationale: """
            Either a new version was added but not made current (the app keeps building with the old model, and the \
            change you made has no effect), or the pointer was moved back (stores already migrated to the newer version \
            no longer open). Versions after the current one are checked as staged, unreleased work.
            """,
        fix:
            "repoint `.xccurrentversion` at the newest version, or, if the names do not sort in creation order, set `versionOrder` for the bundle in `.modellint.json`",
        examples: [
            RuleExample(
                versions: [
                    ("Near 1", .model("<entity name=\"Thing\"/>")), ("Near 2", .model("<entity name=\"Thing\"/>")),
                ], currentVersion: .named("Near 1"), triggers: true, expectedFile: ".xccurrentversion"),
            .passing(before: "<entity name=\"Thing\"/>", after: "<entity name=\"Thing\"/>"),
        ])

    package func check(_ bundle: ModelBundle) -> [Finding] {
        guard let declared = bundle.declaredCurrentVersion,
            let index = bundle.versions.firstIndex(where: { $0.name == declared }),
            index < bundle.versions.count - 1
        else { return [] }
        let later = bundle.versions[(index + 1)...].map(\.name)
        return [
            Finding(
                "the current version is \(declared), but \(later.count == 1 ? "\(later[0]) comes" : "\(later.joined(separator: ", ")) come") after it in version order; a version added but not made current has no effect on the app",
                at: SourceLocation(file: bundle.currentVersionFilePath), version: declared)
        ]
    }
}
