import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// Judges a mapping model Core Data picks for pairs of the bundle's versions (its recorded hashes are in theirs);
/// `line` is the bundle's versions as judged.
package protocol PickedMappingModelRule: Rule {
    func check(_ mapping: MappingModel, line: VersionLine) -> [Finding]
}

extension PickedMappingModelRule { package var kind: RuleKind { .pickedMappingModel(self) } }
