import ModelLintModel

package struct VersionOrderAmbiguousRule: BundleRule {
    package init() {}

    package static let description = RuleDescription(
        id: "version-order-ambiguous", category: .bundleStructure, severity: .warning,
        summary: "the version order is doubtful and the evidence does not settle it",
        rationale: """
            The version names have several stems, and the evidence (mapping models, the current version, git history) \\
            conflicts or leaves some stems unordered. Which steps are adjacent, and which versions count as shipped, \\
            may then be wrong, and every change finding with them.
            """,
        fix: "set `versionOrder` for the bundle in `.modellint.json` (`modellint init` writes it)",
        examples: [
            RuleExample(
                versions: [
                    ("Alpha", .model("<entity name=\"A\"/>")), ("Beta", .model("<entity name=\"A\"/>")),
                    ("Gamma 2", .model("<entity name=\"A\"/>")),
                ],
                triggers: true),
            .passing(before: "<entity name=\"A\"/>", after: "<entity name=\"A\"/>"),
        ])

    package func check(_ bundle: ModelBundle) -> [Finding] {
        guard case .ambiguous(let stems, let reason)? = bundle.orderVerdict else { return [] }
        var finding = Finding(
            "the version order of \(bundle.name).xcdatamodeld is doubtful: its names have \(VersionOrderEvidence.stemCount(bundle.versions.map(\.name))) stems, and \(reason); modellint uses \(stems.joined(separator: ", then "))",
            at: SourceLocation(file: bundle.path))
        finding.identity = VersionOrderEvidence.adviceIdentity(stems)
        return [finding]
    }
}
