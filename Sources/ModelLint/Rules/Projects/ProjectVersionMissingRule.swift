import ModelLintModel
import ModelLintProjects

package struct ProjectVersionMissingRule: ProjectRule {
    package init() {}

    package static let description = RuleDescription(
        id: "project-version-missing", category: .build, severity: .error,
        summary: "a version folder of the bundle is not in the project's version group",
        rationale: """
            Xcode compiles the versions its project lists, not the folders on disk. A version folder added without \
            the project (a merge, a script, a copy in Finder) is not in the built model: "the new model version has \
            no effect", and stores it was meant to migrate from or to find no model.
            """,
        fix: "add it to the project; regenerate a generated project",
        examples: [
            RuleExample.project(
                ["Near 1", "Near 2"], .init(children: ["Near 1.xcdatamodel"], current: "Near 1.xcdatamodel"),
                triggers: true, expectedFile: "Near 2.xcdatamodel"),
            RuleExample.project(
                ["Near 1", "Near 2"],
                .init(children: ["Near 1.xcdatamodel", "Near 2.xcdatamodel"], current: "Near 2.xcdatamodel"),
                triggers: false),
        ])

    package func check(_ group: XcodeProject.VersionGroup, project: String, bundle: ModelBundle) -> [Finding] {
        // A child the project never defines is most likely the missing version's reference, lost in a merge.
        let dangling =
            group.danglingChildIDs.isEmpty
            ? ""
            : "; the group lists \(group.danglingChildIDs.count == 1 ? "a file reference" : "file references") the project never defines (\(group.danglingChildIDs.joined(separator: ", "))), a merge that dropped \(group.danglingChildIDs.count == 1 ? "its object" : "their objects")"
        return bundle.versions.filter { !group.children.contains(ProjectText.folder($0.name)) }.map { version in
            Finding(
                "\(ProjectText.folder(version.name)) is not in \(project)'s version group for \(bundle.name).xcdatamodeld: the build does not compile it\(dangling)",
                at: SourceLocation(file: version.folderPath), version: version.name)
        }
    }
}
