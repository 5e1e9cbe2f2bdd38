import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// Judges how the app likely migrates a bundle: its steps (consecutive versions) and the mapping models covering
/// them. Run only when neither the command line nor the configuration says.
package protocol MigrationStyleRule: Rule {
    /// `stepMigrators`: code of the app that migrates stores step by step.
    func check(
        _ bundle: ModelBundle, steps: [(from: String, to: String)], mappingModels: [MappingModel],
        stepMigrators: [SourceReference]
    ) -> [Finding]
}

extension MigrationStyleRule { package var kind: RuleKind { .migrationStyle(self) } }
