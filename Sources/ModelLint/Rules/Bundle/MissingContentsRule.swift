import ModelLintModel

package struct MissingContentsRule: BundleRule {
    package init() {}

    package static let description = RuleDescription(
        id: "missing-contents", category: .bundleStructure, severity: .error,
        summary: "a `.xcdatamodel` version folder with neither `contents` nor the legacy binary files",
        rationale: """
            A version folder without its `contents` file is an empty version: Xcode shows it as broken, the compiled \
            model lacks it, and stores written by that version can no longer be matched to a model. It is usually a \
            partial checkout or a commit that added the folder without the file.
            """,
        fix: "restore `contents` from version control, or remove the folder if the version never shipped",
        examples: [
            RuleExample(
                versions: [("Near 1", .model("<entity name=\"Thing\"/>")), ("Near 2", .none)], triggers: true,
                expectedFile: "Near 2.xcdatamodel"),
            RuleExample(
                versions: [("Near 1", .model("<entity name=\"Thing\"/>")), ("Near 2", .legacy)],
                currentVersion: .named("Near 1"), triggers: false),
        ])

    package func check(_ bundle: ModelBundle) -> [Finding] {
        bundle.versions.compactMap { version in
            guard case .missing = version.content else { return nil }
            return Finding(
                "\(version.name).xcdatamodel has no contents file; the version cannot be read, and comparisons with it are skipped",
                at: SourceLocation(file: version.folderPath), version: version.name)
        }
    }
}
