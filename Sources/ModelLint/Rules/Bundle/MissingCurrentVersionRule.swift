import ModelLintModel

package struct MissingCurrentVersionRule: BundleRule {
    package init() {}

    package static let description = RuleDescription(
        id: "missing-current-version", category: .bundleStructure, severity: .error,
        summary: "a bundle with several versions and no usable `.xccurrentversion`",
        rationale: """
            `.xccurrentversion` tells the model compiler which version is the current model. Without it, which model \
            the app builds with is up to the build system, and a store may be \"migrated\" to the wrong version. \
            modellint treats the last version in version order as current. A file that is not a readable property list \
            is reported here too.
            """,
        fix:
            "add `.xccurrentversion` naming the current version (select the bundle in Xcode and set Model Version in the File inspector)",
        examples: [
            RuleExample(
                versions: [
                    ("Near 1", .model("<entity name=\"Thing\"/>")), ("Near 2", .model("<entity name=\"Thing\"/>")),
                ], currentVersion: .absent, triggers: true, expectedFile: ".xccurrentversion"),
            RuleExample(
                versions: [("Near 1", .model("<entity name=\"Thing\"/>"))], currentVersion: .file("not a plist"),
                triggers: true, expectedFile: ".xccurrentversion"),
            RuleExample(
                versions: [("Near 1", .model("<entity name=\"Thing\"/>"))], currentVersion: .absent, triggers: false),
            RuleExample(
                versions: [("Near 1", .model("<entity name=\"Thing\"/>"))],
                currentVersion: .file(
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict/>\n</plist>\n"),
                triggers: false),
        ])

    package func check(_ bundle: ModelBundle) -> [Finding] {
        let location = SourceLocation(file: bundle.currentVersionFilePath)
        let fallback = bundle.fallbackCurrentNote
        switch bundle.currentVersionFile {
        case .unreadable(let reason):
            return [Finding(".xccurrentversion cannot be used: \(reason)\(fallback)", at: location)]
        case .absent, .empty:
            guard bundle.versions.count > 1 else { return [] }
            let what =
                bundle.currentVersionFile == .absent
                ? "has no .xccurrentversion" : "has a .xccurrentversion that names no version"
            return [
                Finding(
                    "\(bundle.name).xcdatamodeld \(what) but \(bundle.versions.count) versions\(fallback)", at: location
                )
            ]
        case .present:
            return []
        }
    }
}
