import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// Judges what a build produced (a compiled `.momd` and its `.cdm` files) against the source bundle it came from.
/// `source` holds the bundle's readable versions; `current` is the source's current version, when readable.
package protocol BuildRule: Rule {
    func check(_ build: CompiledModel, source: [VersionRef], current: VersionRef?, context: RuleContext) -> [Finding]
}

extension BuildRule { package var kind: RuleKind { .build(self) } }
