import ModelLintModel
import ModelLintProjects

/// Where a project finding points: the version group's definition in `project.pbxproj`.
package enum ProjectText {
    package static func location(_ group: XcodeProject.VersionGroup, _ project: String) -> SourceLocation {
        SourceLocation(file: project, line: group.line)
    }

    package static func folder(_ name: String) -> String { name + ".xcdatamodel" }
}
