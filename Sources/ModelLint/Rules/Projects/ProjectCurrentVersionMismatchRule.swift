import ModelLintModel
import ModelLintProjects

package struct ProjectCurrentVersionMismatchRule: ProjectRule {
    package init() {}

    package static let description = RuleDescription(
        id: "project-current-version-mismatch", category: .build, severity: .error,
        summary: "the Xcode project's current version for the bundle is not the one .xccurrentversion names",
        rationale: """
            The model editor keeps the current version in the project (`XCVersionGroup.currentVersion`) and in the \
            bundle's `.xccurrentversion`. When they disagree, which model the app ships depends on the tool that \
            builds it: real apps have shipped both ways, migrating stores with a model nobody reviewed.
            """,
        fix: "set the current version in Xcode's File inspector so both agree",
        examples: [
            RuleExample.project(
                ["Near 1", "Near 2"],
                .init(children: ["Near 1.xcdatamodel", "Near 2.xcdatamodel"], current: "Near 1.xcdatamodel"),
                triggers: true, expectedFile: "../Near.xcodeproj/project.pbxproj"),
            RuleExample.project(
                ["Near 1", "Near 2"],
                .init(children: ["Near 1.xcdatamodel", "Near 2.xcdatamodel"], current: "Near 2.xcdatamodel"),
                triggers: false),
        ])

    package func check(_ group: XcodeProject.VersionGroup, project: String, bundle: ModelBundle) -> [Finding] {
        guard let inProject = group.currentVersion, let declared = bundle.declaredCurrentVersion,
            inProject != ProjectText.folder(declared)
        else { return [] }
        return [
            Finding(
                "\(project) makes \(inProject) the current version of \(bundle.name).xcdatamodeld, but its .xccurrentversion names \(ProjectText.folder(declared)): which model ships depends on the tool that builds it",
                at: ProjectText.location(group, project))
        ]
    }
}
