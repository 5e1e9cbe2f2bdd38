import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// Judges the Xcode project's view of a bundle (its version group, already read) against the bundle on disk.
package protocol ProjectRule: Rule {
    func check(_ group: XcodeProject.VersionGroup, project: String, bundle: ModelBundle) -> [Finding]
}

extension ProjectRule { package var kind: RuleKind { .project(self) } }
