/// Where a project finding points: the version group's definition in `project.pbxproj`.
enum ProjectText {
    static func location(_ group: XcodeProject.VersionGroup, _ project: String) -> SourceLocation {
        SourceLocation(file: project, line: group.line)
    }

    static func folder(_ name: String) -> String { name + ".xcdatamodel" }
}
