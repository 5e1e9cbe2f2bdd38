import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// Judges one readable version on its own.
package protocol VersionRule: Rule {
    func check(_ model: Model, context: RuleContext) -> [Finding]
}

extension VersionRule { package var kind: RuleKind { .version(self) } }
