import ModelLintModel
import ModelLintProjects

package struct ProjectBundleNotCompiledRule: ProjectRule {
    package init() {}

    package static let description = RuleDescription(
        id: "project-bundle-not-compiled", category: .build, severity: .warning,
        summary: "the bundle is in the project but in no target's Sources build phase",
        rationale: """
            A model bundle is compiled to a `.momd` only when a target's Compile Sources phase lists it. Referenced \
            but not compiled, it ships nothing: the app loads another model, or none.
            """,
        fix: "add it to the target",
        examples: [
            RuleExample.project(
                ["Near 1"], .init(children: ["Near 1.xcdatamodel"], current: "Near 1.xcdatamodel", compiled: false),
                triggers: true, expectedFile: "../Near.xcodeproj/project.pbxproj"),
            RuleExample.project(
                ["Near 1"], .init(children: ["Near 1.xcdatamodel"], current: "Near 1.xcdatamodel"), triggers: false),
        ])

    package func check(_ group: XcodeProject.VersionGroup, project: String, bundle: ModelBundle) -> [Finding] {
        guard !group.isCompiled else { return [] }
        return [
            Finding(
                "\(project) references \(bundle.name).xcdatamodeld but no target compiles it (it is in no Sources build phase): no .momd ships",
                at: ProjectText.location(group, project))
        ]
    }
}
