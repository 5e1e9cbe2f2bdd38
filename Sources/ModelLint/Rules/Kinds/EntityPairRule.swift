import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// Judges one matched entity pair of a compared pair of versions, seeing that pair and the two versions, never the
/// other pairs. Older versions compared with the current one repeat most pairs: the engine judges each distinct
/// pair (same older lineage, same newer entity) once and gives its findings to the pairs that repeat it. A pair
/// whose two sides are the same elements (`EntityPair.isUnchanged`) is not judged: a change rule finds changes.
package protocol EntityPairRule: Rule {
    func check(_ pair: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding]
}

extension EntityPairRule { package var kind: RuleKind { .entityPair(self) } }
