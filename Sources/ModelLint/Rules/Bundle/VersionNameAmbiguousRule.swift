import ModelLintModel

package struct VersionNameAmbiguousRule: BundleRule {
    package init() {}

    package static let description = RuleDescription(
        id: "version-name-ambiguous", category: .bundleStructure, severity: .warning,
        summary:
            "two version folders whose names differ only by letter case or Unicode normalization, or a version folder whose name is not valid UTF-8",
        rationale: """
            `Near 2` and `near 2`, or a name spelled with a precomposed and with a decomposed accent, are two folders \
            on Linux and on case-sensitive disks, and one folder on a default macOS disk: a checkout there silently \
            loses one version, and which one `.xccurrentversion` names depends on the machine. A name that is not valid \
            UTF-8 cannot be read by Xcode or by modellint at all: that version is not checked.
            """,
        fix:
            "rename one of the two folders (and repoint `.xccurrentversion` if it named it); rename a folder whose name is not UTF-8",
        examples: [
            RuleExample(
                versions: [
                    ("Near 2", .model("<entity name=\"Thing\"/>")), ("near 2", .model("<entity name=\"Thing\"/>")),
                ], currentVersion: .named("near 2"), triggers: true, expectedFile: "near 2.xcdatamodel"),
            .passing(before: "<entity name=\"Thing\"/>", after: "<entity name=\"Thing\"/>"),
        ])

    package func check(_ bundle: ModelBundle) -> [Finding] {
        let confusable = bundle.confusableVersionNames.map { first, second in
            Finding(
                "\(first) and \(second) in \(bundle.name).xcdatamodeld differ only by letter case or Unicode normalization: a disk that does not tell them apart (macOS by default) keeps one of them",
                at: SourceLocation(file: bundle.path + "/" + second + ".xcdatamodel"), version: second)
        }
        let unreadable = bundle.unreadableVersionNames.map { name in
            Finding(
                "the version folder \(name).xcdatamodel in \(bundle.name).xcdatamodeld has a name that is not valid UTF-8: it is not read, and no comparison includes it",
                at: SourceLocation(file: bundle.path))
        }
        return confusable + unreadable
    }
}
