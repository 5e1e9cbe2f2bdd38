import ModelLintModel
import ModelLintProjects

package struct GeneratedProjectCurrentVersionRule: SourceReferenceRule {
    package init() {}

    package static let description = RuleDescription(
        id: "generated-project-current-version", category: .build, severity: .error,
        summary: "a project generator hard-codes a current version that is not .xccurrentversion's",
        rationale: """
            A Tuist `Project.swift` that declares `.coreDataModel("…", currentVersion: "…")` overrides the bundle's \
            `.xccurrentversion` in every generated project: when the two differ, the app ships the generator's \
            choice, and a new version made in Xcode has no effect until the spec is updated.
            """,
        fix: "remove the hard-coded value, or update it",
        examples: [
            RuleExample.source(
                [("Near 1", "<entity name=\"Item\"/>"), ("Near 2", "<entity name=\"Item\"/>")], file: "Project.swift",
                "resources: [], coreDataModels: [.coreDataModel(\"Model/Near.xcdatamodeld\", currentVersion: \"Near 1\")]",
                triggers: true),
            RuleExample.source(
                [("Near 1", "<entity name=\"Item\"/>"), ("Near 2", "<entity name=\"Item\"/>")], file: "Project.swift",
                "coreDataModels: [.coreDataModel(\"Model/Near.xcdatamodeld\", currentVersion: \"Near 2\")]",
                triggers: false),
        ])

    package func check(_ reference: SourceReference, bundles: [SourceReferenceContext]) -> [Finding] {
        guard case .generatedCurrentVersion(let path, let version) = reference.kind else { return [] }
        let name = path.split(separator: "/").last.map { String($0.dropLast(".xcdatamodeld".count)) } ?? path
        // Only what resolves: a bundle of that name whose pointer is known.
        guard let bundle = bundles.first(where: { $0.bundleName == name }), let current = bundle.currentVersion,
            version != current, version != current + ".xcdatamodel"
        else { return [] }
        return [
            Finding(
                "\(reference.location.file) hard-codes \(version) as the current version of \(name).xcdatamodeld, but its .xccurrentversion names \(current): generated projects ship \(version)",
                at: reference.location, version: current)
        ]
    }
}
