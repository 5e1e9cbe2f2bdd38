import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// Judges shipped versions compared with the work tree; never reads git or the lock file itself.
package protocol HistoryRule: Rule {
    func check(_ comparisons: [ShippedVersionComparison], bundle: ModelBundle) -> [Finding]
}

extension HistoryRule { package var kind: RuleKind { .history(self) } }
