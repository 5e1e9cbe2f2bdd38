import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// Judges a mapping model that claims the bundle but whose embedded models equal none of its versions; `line`
/// is the bundle's versions as judged, `shipped` those whose stores exist.
package protocol MappingModelRule: Rule {
    func check(_ mapping: UnmatchedMappingModel, bundle: ModelBundle, line: VersionLine, shipped: Set<ExactName>)
        -> [Finding]
}

extension MappingModelRule { package var kind: RuleKind { .mappingModel(self) } }
