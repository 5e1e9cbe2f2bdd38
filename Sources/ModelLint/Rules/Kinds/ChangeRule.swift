import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// Judges a pair of versions through the diff engine's matched changes (every matched, added and removed entity);
/// never matches anything itself.
package protocol ChangeRule: Rule {
    /// Rename heuristics and renaming-identifier rules compare adjacent versions only (docs/cli.md "Which findings count").
    static var adjacentOnly: Bool { get }
    func check(_ diff: ModelDiff, context: RuleContext) -> [ChangeFinding]
}

extension ChangeRule {
    package static var adjacentOnly: Bool { false }
}

extension ChangeRule { package var kind: RuleKind { .change(self) } }
