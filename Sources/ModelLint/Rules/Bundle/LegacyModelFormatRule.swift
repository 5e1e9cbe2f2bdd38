import ModelLintModel

package struct LegacyModelFormatRule: BundleRule {
    package init() {}

    package static let description = RuleDescription(
        id: "legacy-model-format", category: .bundleStructure, severity: .warning,
        summary: "a version in the pre-Xcode-4 binary format (`elements`/`layout`), which modellint cannot read",
        rationale: """
            Before Xcode 4, model versions were saved as binary archives (`elements` and `layout`). Core Data still \
            compiles them, but modellint cannot read them, so this version is not checked and every comparison \
            involving it is skipped: a store of this version migrating to the current one goes unverified.
            """,
        fix:
            "open and save that version once in Xcode if it can still change; otherwise acknowledge the gap and ignore this finding",
        examples: [
            RuleExample(
                versions: [("Near", .legacy), ("Near 2", .model("<entity name=\"Thing\"/>"))], triggers: true,
                expectedFile: "Near.xcdatamodel"),
            .passing("<entity name=\"Thing\"/>"),
        ])

    package func check(_ bundle: ModelBundle) -> [Finding] {
        bundle.versions.compactMap { version in
            guard case .legacy = version.content else { return nil }
            return Finding(
                "\(version.name) is in the pre-Xcode-4 binary format (elements/layout), which modellint cannot read; it is not checked, and comparisons involving it are skipped",
                at: SourceLocation(file: version.folderPath), version: version.name)
        }
    }
}
