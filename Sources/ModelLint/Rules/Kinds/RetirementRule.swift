import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// Judges declared retirements against the readable versions in order (docs/cli.md "Retiring a property").
package protocol RetirementRule: Rule {
    func check(_ versions: [VersionRef], current: Int, context: RuleContext) -> [Finding]
}

extension RetirementRule { package var kind: RuleKind { .retirement(self) } }
