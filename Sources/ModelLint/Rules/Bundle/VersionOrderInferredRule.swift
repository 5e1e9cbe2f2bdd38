import ModelLintModel

package struct VersionOrderInferredRule: BundleRule {
    package init() {}

    package static let description = RuleDescription(
        id: "version-order-inferred", category: .bundleStructure, severity: .note,
        summary:
            "the version names have several stems, so modellint ordered the stems by evidence, and says which order it used",
        rationale: """
            Versions renamed between releases (`Journal 5` then `Notebook v1.4`; `UserDataModel` then \\
            `MultiassetUserDataModel2`) do not sort by name. modellint keeps natural order within each stem and orders \\
            the stems by evidence, strongest first: a mapping model's source precedes its destination, the current \\
            version's stem comes last, and git's first commit of each stem's versions. The order decides which steps \\
            are adjacent and which versions count as shipped.
            """,
        fix:
            "nothing, if the order is right; otherwise, or to make it explicit, set `versionOrder` for the bundle in `.modellint.json`",
        examples: [
            RuleExample(
                versions: [
                    ("UserDataModel", .model("<entity name=\"A\"/>")),
                    ("MultiassetUserDataModel", .model("<entity name=\"A\"/>")),
                    ("MultiassetUserDataModel2", .model("<entity name=\"A\"/>")),
                ], triggers: true),
            .passing(before: "<entity name=\"A\"/>", after: "<entity name=\"A\"/>"),
        ])

    package func check(_ bundle: ModelBundle) -> [Finding] {
        guard case .inferred(let stems, let reasons)? = bundle.orderVerdict else { return [] }
        var finding = Finding(
            "the versions of \(bundle.name).xcdatamodeld have \(VersionOrderEvidence.stemCount(bundle.versions.map(\.name))) name stems, ordered \(stems.joined(separator: ", then ")) (\(reasons.joined(separator: "; ")))",
            at: SourceLocation(file: bundle.path))
        finding.identity = VersionOrderEvidence.adviceIdentity(stems)
        return [finding]
    }
}
