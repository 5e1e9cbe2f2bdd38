import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// Judges the bundle as a whole: its versions, pointer and files.
package protocol BundleRule: Rule {
    func check(_ bundle: ModelBundle) -> [Finding]
}

extension BundleRule { package var kind: RuleKind { .bundle(self) } }
