import ModelLintModel
import ModelLintProjects

package struct ProjectVersionStaleRule: ProjectRule {
    package init() {}

    package static let description = RuleDescription(
        id: "project-version-stale", category: .build, severity: .warning,
        summary: "the project's version group lists a version with no folder on disk",
        rationale: """
            A version the project references but the bundle does not have was deleted or renamed outside Xcode. The \
            build fails or skips it; if it shipped, stores written by it have lost their source model.
            """,
        fix: "remove the reference",
        examples: [
            RuleExample.project(
                ["Near 1"],
                .init(children: ["Near 1.xcdatamodel", "Near 0.xcdatamodel"], current: "Near 1.xcdatamodel"),
                triggers: true, expectedFile: "../Near.xcodeproj/project.pbxproj"),
            RuleExample.project(
                ["Near 1"], .init(children: ["Near 1.xcdatamodel"], current: "Near 1.xcdatamodel"), triggers: false),
        ])

    package func check(_ group: XcodeProject.VersionGroup, project: String, bundle: ModelBundle) -> [Finding] {
        let present = Set(bundle.versions.map { ProjectText.folder($0.name) })
        return group.children.filter { !present.contains($0) }.map { child in
            Finding(
                "\(project) lists \(child) in \(bundle.name).xcdatamodeld, which has no such folder",
                at: ProjectText.location(group, project))
        }
    }
}
